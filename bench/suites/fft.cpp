// The fft suite: dash::fft of an n x n or n x n x n dash::Matrix<std::complex<double>> in slabs, with
// FftLayout::transposed, against FFTW-MPI with FFTW_MPI_TRANSPOSED_OUT (the same layout,
// baselines/fft_mpi.hpp) and against itself without partial aggregation (FftOptions::partial = false).
// All sides plan with FFTW_ESTIMATE. FFTW-MPI plans once when the case is set up; dash::fft plans
// inside every call, which the times therefore include. Debian builds FFTW-MPI for Open MPI only
// (DASH_BENCH_HAVE_FFTW_MPI): under another MPI the FFTW-MPI cases run dash::fft alone and say so.
//
// Every run is checked against a reference computed when the case is set up with serial FFTW from
// the input's formula alone: relative L2 error at most 1e-12 over all ranks. The matrices span
// Team::All(), so every rank takes part; the extents must be multiples of the job size.
//
// Map: input_at (the input), slab_extent (which jobs fit), reference_slab (the serial reference),
// FftWorkload (one point), unavailable (FFTW-MPI per build), fft_cases (the registration).

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fftw3.h>
#include <mpi.h>

#include <dash/algorithms/fft.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/matrix.hpp>

#if DASH_BENCH_HAVE_FFTW_MPI
#include "baselines/fft_mpi.hpp"
#endif
#include "runner/registry.hpp"

namespace dash::bench::fft {

namespace {

using C = std::complex<double>;

constexpr double tolerance = 1e-12;

// Element `index` (row-major over the global extents) of the input: pseudo-random parts in [-1, 1).
C input_at(std::uint64_t index) {
  std::uint64_t x = index * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  x ^= x >> 31U;
  const auto part = [](std::uint64_t bits) { return static_cast<double>(bits & 0xffffffULL) / 0x800000 - 1.0; };
  return {part(x), part(x >> 32U)};
}

template <std::size_t N>
DistributionSpec<N> slabs() {
  if constexpr (N == 2) {
    return DistributionSpec<2>(BLOCKED, NONE);
  } else {
    return DistributionSpec<3>(BLOCKED, NONE, NONE);
  }
}

template <std::size_t N>
std::array<std::size_t, N> cube(std::size_t n) {
  std::array<std::size_t, N> extents{};
  extents.fill(n);
  return extents;
}

// n, once the job's p ranks can hold equal slabs of it (dash::fft's and FFTW-MPI's layouts agree then).
std::size_t slab_extent(const Problem& problem) {
  const auto p = static_cast<std::size_t>(problem.active_ranks);
  if (problem.size % p != 0) {
    throw PointNotApplicable("n = " + std::to_string(problem.size) + " is no multiple of the " +
                             std::to_string(p) + " ranks (equal slabs; run with a power-of-two job)");
  }
  return problem.size;
}

// Rows [first, first + rows) of the transposed output (n1 x n0 [x n2]) of the forward DFT of the
// whole n x n [x n] input, computed with serial FFTW from input_at alone, so the check depends on no
// distributed FFT: every plane j0 is transformed along the other dimensions and this slab's rows kept,
// then each kept row is transformed along j0.
template <std::size_t N>
std::vector<C> reference_slab(std::size_t n, std::size_t first, std::size_t rows) {
  const std::size_t trailing = N == 3 ? n : 1;  // n2
  const std::size_t plane = n * trailing;
  std::vector<C> buffer(plane);
  std::vector<C> slab(rows * n * trailing);  // [k1 - first][j0][k2]
  auto* const buffer_data = reinterpret_cast<fftw_complex*>(buffer.data());
  const int extent = static_cast<int>(n);
  fftw_plan along_rest = N == 3 ? fftw_plan_dft_2d(extent, extent, buffer_data, buffer_data, FFTW_FORWARD, FFTW_ESTIMATE)
                                : fftw_plan_dft_1d(extent, buffer_data, buffer_data, FFTW_FORWARD, FFTW_ESTIMATE);
  auto* const slab_data = reinterpret_cast<fftw_complex*>(slab.data());
  const fftw_iodim along_first_dim{extent, static_cast<int>(trailing), static_cast<int>(trailing)};
  const std::array<fftw_iodim, 2> loops{fftw_iodim{static_cast<int>(rows), static_cast<int>(plane), static_cast<int>(plane)},
                                        fftw_iodim{static_cast<int>(trailing), 1, 1}};
  fftw_plan along_first = fftw_plan_guru_dft(1, &along_first_dim, 2, loops.data(), slab_data, slab_data,
                                             FFTW_FORWARD, FFTW_ESTIMATE);
  if (along_rest == nullptr || along_first == nullptr) {
    fftw_destroy_plan(along_rest);
    fftw_destroy_plan(along_first);
    throw Exception("dash-bench fft: FFTW could not plan the reference transform of n = " + std::to_string(n));
  }
  for (std::size_t j0 = 0; j0 < n; ++j0) {
    for (std::size_t i = 0; i < plane; ++i) {
      buffer[i] = input_at(j0 * plane + i);
    }
    fftw_execute(along_rest);
    for (std::size_t k1 = 0; k1 < rows; ++k1) {
      std::copy_n(buffer.begin() + static_cast<std::ptrdiff_t>((first + k1) * trailing), trailing,
                  slab.begin() + static_cast<std::ptrdiff_t>((k1 * n + j0) * trailing));
    }
  }
  fftw_execute(along_first);
  fftw_destroy_plan(along_rest);
  fftw_destroy_plan(along_first);
  return slab;
}

// What dash::fft (partial aggregation) is compared against in a case.
enum class Contender { fftw_mpi, no_partial };

template <std::size_t N>
class FftWorkload final : public Workload {
public:
  FftWorkload(const Problem& problem, Contender contender)
      : team_(problem.team),
        contender_(contender),
        in_(SizeSpec<N>(cube<N>(slab_extent(problem))), slabs<N>()),
        out_(SizeSpec<N>(cube<N>(problem.size)), slabs<N>()) {
    const std::size_t n = problem.size;
    const auto rank = static_cast<std::size_t>(in_.team().myid());
    const std::size_t rows = n / static_cast<std::size_t>(problem.active_ranks);
    const std::size_t first = rank * in_.local.size();
    input_.resize(in_.local.size());
    for (std::size_t i = 0; i < input_.size(); ++i) {
      input_[i] = input_at(first + i);
    }
    reference_ = reference_slab<N>(n, rank * rows, rows);
#if DASH_BENCH_HAVE_FFTW_MPI
    if (contender == Contender::fftw_mpi) {
      fftw_ = std::make_unique<FftwMpiTransform>(cube<N>(n), problem.team, FFTW_ESTIMATE);
      if (fftw_->input().size() != in_.local.size() || fftw_->output().size() != out_.local.size()) {
        throw InvalidArgument("dash-bench fft: FFTW-MPI distributes " + std::to_string(n) +
                              " rows over the job differently from dash");
      }
    }
#endif
  }

  void run_impl() override {
    transform(true);
    last_side_ = Side::impl;
  }

  // Only the no_partial contender runs here without FFTW-MPI: the runner runs no baseline of a case
  // whose baseline is unavailable.
  void run_baseline() override {
#if DASH_BENCH_HAVE_FFTW_MPI
    if (contender_ == Contender::fftw_mpi) {
      fftw_->execute();
      last_side_ = Side::baseline;
      return;
    }
#endif
    transform(false);
    last_side_ = Side::baseline;
  }

  // FFTW-MPI may overwrite its input, so it is copied in before every run; dash's input is copied in
  // alike, so that both sides start with an input just written (else the copy would leave only
  // FFTW-MPI's input in the caches: at 1024^2, P = 2, 8 MiB per rank).
  void prepare(Side side) override {
    std::copy(input_.begin(), input_.end(), uses_fftw_mpi(side) ? fftw_input() : in_.local.begin());
  }

  void reset() override {
    const C garbage(std::numeric_limits<double>::quiet_NaN(), 0.0);
    std::fill(out_.local.begin(), out_.local.end(), garbage);
    if (uses_fftw_mpi(Side::baseline)) {
      std::fill_n(fftw_output(), reference_.size(), garbage);
    }
  }

  // Collective: the last run's output is within `tolerance` of the reference (relative L2 error).
  bool verify() const override {
    const C* const output = uses_fftw_mpi(last_side_) ? fftw_output() : out_.local.begin();
    std::array<double, 2> sums{0.0, 0.0};
    for (std::size_t i = 0; i < reference_.size(); ++i) {
      sums[0] += std::norm(output[i] - reference_[i]);
      sums[1] += std::norm(reference_[i]);
    }
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, sums.data(), 2, MPI_DOUBLE, MPI_SUM, team_),
                    "dash-bench fft: MPI_Allreduce");
    return std::sqrt(sums[0]) <= tolerance * std::sqrt(sums[1]);
  }

private:
  void transform(bool partial) {
    dash::fft(in_, out_, FftDirection::forward, {.layout = FftLayout::transposed, .partial = partial});
  }

#if DASH_BENCH_HAVE_FFTW_MPI
  bool uses_fftw_mpi(Side side) const { return side == Side::baseline && fftw_ != nullptr; }
  C* fftw_input() const { return fftw_->input().data(); }
  C* fftw_output() const { return fftw_->output().data(); }
#else
  static bool uses_fftw_mpi(Side) { return false; }
  static C* fftw_input() { return nullptr; }
  static C* fftw_output() { return nullptr; }
#endif

  MPI_Comm team_;
  Contender contender_;
  Matrix<C, N> in_;
  Matrix<C, N> out_;  // n x n [x n] with the first two dimensions swapped: the same extents
#if DASH_BENCH_HAVE_FFTW_MPI
  std::unique_ptr<FftwMpiTransform> fftw_;  // the fftw_mpi contender's transform
#endif
  std::vector<C> input_;      // this rank's slab of the input, copied into each side's input before its runs
  std::vector<C> reference_;  // the transform of the input, this rank's slab
  Side last_side_ = Side::impl;
};

// The matrices span Team::All(), so every rank takes part.
std::vector<int> whole_job(int job_size) { return {job_size}; }

// 5 N log2 N floating-point operations for N points, the usual FFT rate convention.
double gigaflops(std::size_t n, std::size_t dimensions) {
  const double points = std::pow(static_cast<double>(n), static_cast<double>(dimensions));
  return 5.0 * points * std::log2(points) / 1e9;
}

struct ShapeDescription {
  std::size_t dimensions;
  std::vector<std::size_t> quick_sizes;
  std::vector<std::size_t> full_sizes;
};

struct ContenderDescription {
  Contender contender;
  const char* suffix;
  const char* text;
};

constexpr ContenderDescription contenders[] = {
    {Contender::fftw_mpi, "",
     "FFTW-MPI, fftw_mpi_plan_many_dft with FFTW_MPI_TRANSPOSED_OUT, planned once (baselines/fft_mpi.cpp)"},
    {Contender::no_partial, "_no_partial", "dash::fft with FftOptions::partial = false"},
};

// Why a contender cannot run in this build, if it cannot.
std::optional<std::string> unavailable(Contender contender) {
#if DASH_BENCH_HAVE_FFTW_MPI
  static_cast<void>(contender);
  return std::nullopt;
#else
  if (contender == Contender::fftw_mpi) {
    return "FFTW-MPI is unavailable under MPICH (Debian builds libfftw3-mpi for Open MPI only); dash::fft ran alone";
  }
  return std::nullopt;
#endif
}

std::vector<Case> fft_cases() {
  const std::vector<ShapeDescription> shapes = {
      {2, {1024}, {1024, 2048, 4096, 8192}},
      {3, {128}, {128, 256}},
  };
  std::vector<Case> cases;
  for (const ShapeDescription& shape : shapes) {
    for (const ContenderDescription& against : contenders) {
      const Contender contender = against.contender;
      const std::size_t dimensions = shape.dimensions;
      cases.push_back(Case{
          .suite = "fft",
          .name = std::to_string(dimensions) + "d" + against.suffix,
          .impl = "dash::fft, " + std::to_string(dimensions) + "-D complex double, FftLayout::transposed",
          .baseline = against.text,
          .size_unit = dimensions == 2 ? "n: an n x n matrix" : "n: an n x n x n matrix",
          .sizes = [shape](Sweep sweep) { return sweep == Sweep::quick ? shape.quick_sizes : shape.full_sizes; },
          .active_rank_counts = whole_job,
          .rate = Rate{"Gflop/s", [dimensions](std::size_t n, int) { return gigaflops(n, dimensions); }},
          .make_workload = [dimensions, contender](const Problem& problem) -> std::unique_ptr<Workload> {
            if (dimensions == 2) {
              return std::make_unique<FftWorkload<2>>(problem, contender);
            }
            return std::make_unique<FftWorkload<3>>(problem, contender);
          },
          .calls_per_run = nullptr,
          .baseline_unavailable = unavailable(contender),
      });
    }
  }
  return cases;
}

[[maybe_unused]] const bool fft_cases_registered = [] {
  for (Case& bench_case : fft_cases()) {
    const CaseRegistration registration{std::move(bench_case)};
  }
  return true;
}();

}  // namespace

}  // namespace dash::bench::fft
