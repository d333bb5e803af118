// dash::fft: 2-D and 3-D transforms against a serial FFTW transform of the same input computed on every
// rank, forward and inverse round trips, both output layouts, with and without partial aggregation,
// square and non-square shapes, several tiles of unequal alignment; and the errors for bad arguments.

#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fftw3.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/algorithms/fft.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using C = std::complex<double>;

std::size_t P() { return dash::size(); }
std::size_t me() { return static_cast<std::size_t>(dash::myid()); }

// A deterministic input: element `index` (row-major over the global extents) as a pseudo-random
// complex number with parts in [-1, 1).
C input_at(std::uint64_t index) {
  std::uint64_t x = index * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  x ^= x >> 31U;
  const auto part = [](std::uint64_t bits) { return static_cast<double>(bits & 0xffffffULL) / 0x800000 - 1.0; };
  return {part(x), part(x >> 32U)};
}

template <std::size_t N>
dash::DistributionSpec<N> slabs() {
  if constexpr (N == 2) {
    return dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE);
  } else {
    return dash::DistributionSpec<3>(dash::BLOCKED, dash::NONE, dash::NONE);
  }
}

template <std::size_t N>
std::array<std::size_t, N> transposed(std::array<std::size_t, N> extents) {
  std::swap(extents[0], extents[1]);
  return extents;
}

template <std::size_t N>
void fill_input(dash::Matrix<C, N>& in) {
  const std::size_t per_row = in.size() / in.extent(0);
  const std::size_t first = me() * in.local.extent(0) * per_row;
  for (std::size_t i = 0; i < in.local.size(); ++i) {
    in.local[i] = input_at(first + i);
  }
}

// The DFT of the whole input, row-major over in's extents, by serial FFTW.
template <std::size_t N>
std::vector<C> serial_dft(const std::array<std::size_t, N>& extents, int sign) {
  std::size_t total = 1;
  std::array<int, N> n{};
  for (std::size_t dim = 0; dim < N; ++dim) {
    total *= extents[dim];
    n[dim] = static_cast<int>(extents[dim]);
  }
  std::vector<C> data(total);
  for (std::size_t i = 0; i < total; ++i) {
    data[i] = input_at(i);
  }
  auto* fftw_data = reinterpret_cast<fftw_complex*>(data.data());
  fftw_plan plan = fftw_plan_dft(static_cast<int>(N), n.data(), fftw_data, fftw_data, sign, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return data;
}

// Collective: ||out - expected|| / ||expected|| over all units, where `expected(i)` is the expected value of
// out.local[i].
template <std::size_t N, class Expected>
double relative_error(const dash::Matrix<C, N>& out, Expected expected) {
  std::array<double, 2> sums{0.0, 0.0};
  for (std::size_t i = 0; i < out.local.size(); ++i) {
    const C want = expected(i);
    sums[0] += std::norm(out.local[i] - want);
    sums[1] += std::norm(want);
  }
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), 2, MPI_DOUBLE, MPI_SUM, dash::Team::All().mpi_comm());
  return std::sqrt(sums[0] / sums[1]);
}

// out's local element i as a row-major index of the DFT of in (extents `in_extents`).
template <std::size_t N>
std::size_t reference_index(std::size_t i, const std::array<std::size_t, N>& in_extents, dash::FftLayout layout) {
  const std::size_t width = N == 3 ? in_extents[2] : 1;
  const std::size_t z = i % width;
  const std::size_t rest = i / width;
  if (layout == dash::FftLayout::normal) {
    const std::size_t first_row = me() * (in_extents[0] / P());
    return first_row * in_extents[1] * width + i;
  }
  // out is n1 x n0 [x n2]: local row j of this unit is global row me * n1 / P + j.
  const std::size_t n0 = in_extents[0];
  const std::size_t column = me() * (in_extents[1] / P()) + rest / n0;
  const std::size_t row = rest % n0;
  return (row * in_extents[1] + column) * width + z;
}

template <std::size_t N>
void check_against_serial(const std::array<std::size_t, N>& extents, dash::FftDirection direction) {
  const std::vector<C> reference =
      serial_dft<N>(extents, direction == dash::FftDirection::forward ? FFTW_FORWARD : FFTW_BACKWARD);
  dash::Matrix<C, N> in{dash::SizeSpec<N>(extents), slabs<N>()};
  fill_input(in);
  for (const auto layout : {dash::FftLayout::normal, dash::FftLayout::transposed}) {
    for (const bool partial : {true, false}) {
      SCOPED_TRACE(std::string(layout == dash::FftLayout::normal ? "normal" : "transposed") +
                   (partial ? " partial" : " blocking"));
      dash::Matrix<C, N> out{
          dash::SizeSpec<N>(layout == dash::FftLayout::transposed ? transposed<N>(extents) : extents), slabs<N>()};
      dash::fft(in, out, direction, {.layout = layout, .partial = partial});
      const double error =
          relative_error(out, [&](std::size_t i) { return reference[reference_index<N>(i, extents, layout)]; });
      EXPECT_LE(error, 1e-12);
      out.barrier();
    }
  }
}

template <std::size_t N>
void check_round_trip(const std::array<std::size_t, N>& extents, dash::FftLayout layout, bool normalize) {
  SCOPED_TRACE(std::string(layout == dash::FftLayout::normal ? "normal" : "transposed") +
               (normalize ? " normalised" : " unnormalised"));
  const std::array<std::size_t, N> middle_extents =
      layout == dash::FftLayout::transposed ? transposed<N>(extents) : extents;
  dash::Matrix<C, N> in{dash::SizeSpec<N>(extents), slabs<N>()};
  dash::Matrix<C, N> middle{dash::SizeSpec<N>(middle_extents), slabs<N>()};
  dash::Matrix<C, N> back{dash::SizeSpec<N>(extents), slabs<N>()};
  fill_input(in);
  const dash::FftOptions options{.layout = layout, .normalize_inverse = normalize};
  dash::fft(in, middle, dash::FftDirection::forward, options);
  dash::fft(middle, back, dash::FftDirection::inverse, options);
  const double scale = normalize ? 1.0 : static_cast<double>(in.size());
  const double error = relative_error(back, [&](std::size_t i) { return in.local[i] * scale; });
  EXPECT_LE(error, 1e-12);
  back.barrier();
}

// n0 odd when P is: 63 output rows per unit of about 16 KiB each make three tiles of 21 rows, of an odd
// number of elements (consecutive tiles are aligned differently where FFTW's SIMD alignment exceeds the
// 16 bytes of a complex double).
std::size_t odd_multiple_near_1025() {
  std::size_t m = (1025 + P() - 1) / P();
  if (m % 2 == 0) {
    ++m;
  }
  return m * P();
}

TEST(Fft, TwoDimensionalMatchesSerialFftw) {
  const std::size_t p = P();
  for (const auto direction : {dash::FftDirection::forward, dash::FftDirection::inverse}) {
    check_against_serial<2>({p, p}, direction);
    check_against_serial<2>({4 * p, 4 * p}, direction);
    check_against_serial<2>({3 * p, 5 * p}, direction);
    check_against_serial<2>({6 * p, p}, direction);
  }
  check_against_serial<2>({odd_multiple_near_1025(), 63 * p}, dash::FftDirection::forward);
}

TEST(Fft, ThreeDimensionalMatchesSerialFftw) {
  const std::size_t p = P();
  for (const auto direction : {dash::FftDirection::forward, dash::FftDirection::inverse}) {
    check_against_serial<3>({p, p, 1}, direction);
    check_against_serial<3>({4 * p, 4 * p, 4}, direction);
    check_against_serial<3>({2 * p, 3 * p, 7}, direction);
  }
  // Rows of about 512 KiB: one per tile, three tiles.
  check_against_serial<3>({2 * p, 3 * p, 16384 / p}, dash::FftDirection::forward);
}

TEST(Fft, RoundTripRestoresTheInput) {
  const std::size_t p = P();
  for (const auto layout : {dash::FftLayout::normal, dash::FftLayout::transposed}) {
    for (const bool normalize : {false, true}) {
      check_round_trip<2>({8 * p, 3 * p}, layout, normalize);
      check_round_trip<3>({3 * p, 2 * p, 5}, layout, normalize);
    }
  }
  // Scratch space released between calls is allocated again.
  dash::fft_release_scratch();
  check_round_trip<2>({8 * p, 3 * p}, dash::FftLayout::normal, true);
}

TEST(Fft, MeasuredPlansGiveTheSameTransform) {
  const std::size_t p = P();
  const std::array<std::size_t, 2> extents{4 * p, 6 * p};
  const std::vector<C> reference = serial_dft<2>(extents, FFTW_FORWARD);
  dash::Matrix<C, 2> in{dash::SizeSpec<2>(extents), slabs<2>()};
  dash::Matrix<C, 2> out{dash::SizeSpec<2>(extents), slabs<2>()};
  fill_input(in);
  dash::fft(in, out, dash::FftDirection::forward, {.planning = dash::FftPlanning::measure});
  const double error = relative_error(
      out, [&](std::size_t i) { return reference[reference_index<2>(i, extents, dash::FftLayout::normal)]; });
  EXPECT_LE(error, 1e-12);
  out.barrier();
}

TEST(Fft, RejectsBadArgumentsOnEveryUnit) {
  const std::size_t p = P();
  const auto forward = dash::FftDirection::forward;
  dash::Matrix<C, 2> in{dash::SizeSpec<2>(2 * p, 3 * p), slabs<2>()};
  dash::Matrix<C, 2> same_shape{dash::SizeSpec<2>(2 * p, 3 * p), slabs<2>()};
  dash::Matrix<C, 2> by_columns{dash::SizeSpec<2>(2 * p, 3 * p), dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED),
                                dash::Team::All(), dash::TeamSpec<2>(1, p)};
  dash::Matrix<C, 2> cyclic{dash::SizeSpec<2>(2 * p, 3 * p), dash::DistributionSpec<2>(dash::CYCLIC, dash::NONE)};
  dash::Matrix<C, 2> unallocated;
  fill_input(in);
  EXPECT_THROW(dash::fft(in, in, forward), dash::InvalidArgument);
  EXPECT_THROW(dash::fft(in, unallocated, forward), dash::InvalidArgument);
  EXPECT_THROW(dash::fft(unallocated, same_shape, forward), dash::InvalidArgument);
  EXPECT_THROW(dash::fft(in, by_columns, forward), dash::InvalidArgument);
  EXPECT_THROW(dash::fft(by_columns, same_shape, forward), dash::InvalidArgument);
  // Transposed output needs 3P x 2P.
  EXPECT_THROW(dash::fft(in, same_shape, forward, {.layout = dash::FftLayout::transposed}), dash::InvalidArgument);
  EXPECT_THROW(dash::fft(in, same_shape, static_cast<dash::FftDirection>(7)), dash::InvalidArgument);
  if (p > 1) {
    // CYCLIC and BLOCKED differ for P > 1 only.
    EXPECT_THROW(dash::fft(in, cyclic, forward), dash::InvalidArgument);
    dash::Matrix<C, 2> uneven_rows{dash::SizeSpec<2>(p + 1, p), slabs<2>()};
    dash::Matrix<C, 2> uneven_rows_out{dash::SizeSpec<2>(p + 1, p), slabs<2>()};
    dash::Matrix<C, 2> uneven_columns{dash::SizeSpec<2>(p, 2 * p - 1), slabs<2>()};
    dash::Matrix<C, 2> uneven_columns_out{dash::SizeSpec<2>(p, 2 * p - 1), slabs<2>()};
    EXPECT_THROW(dash::fft(uneven_rows, uneven_rows_out, forward), dash::InvalidArgument);
    EXPECT_THROW(dash::fft(uneven_columns, uneven_columns_out, forward), dash::InvalidArgument);
  }
  try {
    dash::fft(in, same_shape, forward, {.layout = dash::FftLayout::transposed});
  } catch (const dash::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("dash::fft: 'out' is " + std::to_string(2 * p) + " x " +
                                             std::to_string(3 * p)),
              std::string::npos)
        << error.what();
  }
  // The team is still usable: a valid call after the rejected ones works.
  dash::fft(in, same_shape, forward);
  same_shape.barrier();
}

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
// Only builds with cross-rank checks compare the options across units; without them unit 0 would
// wait in a second transpose that the others never start.
TEST(Fft, RejectsOptionsThatDifferBetweenUnits) {
  const std::size_t n = 2 * P();
  dash::Matrix<C, 2> in{dash::SizeSpec<2>(n, n), slabs<2>()};
  dash::Matrix<C, 2> out{dash::SizeSpec<2>(n, n), slabs<2>()};
  fill_input(in);
  // Unit 0 alone asks for the transposed layout (with one unit, nothing differs and the call runs).
  const dash::FftOptions options{.layout = me() == 0 ? dash::FftLayout::transposed : dash::FftLayout::normal};
  if (P() == 1) {
    EXPECT_NO_THROW(dash::fft(in, out, dash::FftDirection::forward, options));
  } else {
    EXPECT_THROW(dash::fft(in, out, dash::FftDirection::forward, options), dash::InvalidArgument);
  }
  out.barrier();
}
#endif

}  // namespace
