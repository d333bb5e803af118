// The fft suite: dash::fft of an n x n or n x n x n dash::Matrix<std::complex<double>> in slabs, with
// FftLayout::transposed, against FFTW-MPI with FFTW_MPI_TRANSPOSED_OUT (the same layout,
// baselines/fft_mpi.hpp) and against itself without partial aggregation (FftOptions::partial = false).
// All sides plan with FFTW_ESTIMATE. FFTW-MPI plans once when the case is set up; dash::fft plans
// inside every call, which the times therefore include.
//
// Every run is checked against the FFTW-MPI transform of the same input, computed when the case is
// set up: relative L2 error at most 1e-12 over all ranks. The matrices span Team::All(), so every
// rank takes part; the extents must be multiples of the job size (power-of-two jobs).

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fftw3.h>
#include <mpi.h>

#include <dash/algorithms/fft.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/matrix.hpp>

#include "baselines/fft_mpi.hpp"
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

// What dash::fft (partial aggregation) is compared against in a case.
enum class Contender { fftw_mpi, no_partial };

template <std::size_t N>
class FftWorkload final : public Workload {
public:
  FftWorkload(const Problem& problem, Contender contender)
      : team_(problem.team),
        contender_(contender),
        in_(SizeSpec<N>(cube<N>(problem.size)), slabs<N>()),
        out_(SizeSpec<N>(cube<N>(problem.size)), slabs<N>()),
        fftw_(cube<N>(problem.size), problem.team, FFTW_ESTIMATE) {
    if (fftw_.input().size() != in_.local.size() || fftw_.output().size() != out_.local.size()) {
      throw InvalidArgument("dash-bench fft: FFTW-MPI distributes " + std::to_string(problem.size) +
                            " rows over the job differently from dash (the job size must divide it)");
    }
    const std::size_t first = static_cast<std::size_t>(in_.team().myid()) * in_.local.size();
    input_.resize(in_.local.size());
    for (std::size_t i = 0; i < input_.size(); ++i) {
      input_[i] = input_at(first + i);
    }
    std::copy(input_.begin(), input_.end(), fftw_.input().begin());
    fftw_.execute();
    reference_.assign(fftw_.output().begin(), fftw_.output().end());
  }

  void run_impl() override {
    transform(true);
    last_side_ = Side::impl;
  }

  void run_baseline() override {
    if (contender_ == Contender::fftw_mpi) {
      fftw_.execute();
    } else {
      transform(false);
    }
    last_side_ = Side::baseline;
  }

  // FFTW-MPI may overwrite its input, so it is copied in before every run; dash's input is copied in
  // alike, so that both sides start with an input just written (else the copy would leave only
  // FFTW-MPI's input in the caches: at 1024^2, P = 2, 8 MiB per rank).
  void prepare(Side side) override {
    const bool fftw_side = side == Side::baseline && contender_ == Contender::fftw_mpi;
    std::copy(input_.begin(), input_.end(), fftw_side ? fftw_.input().data() : in_.local.begin());
  }

  void reset() override {
    const C garbage(std::numeric_limits<double>::quiet_NaN(), 0.0);
    std::fill(out_.local.begin(), out_.local.end(), garbage);
    std::fill(fftw_.output().begin(), fftw_.output().end(), garbage);
  }

  // Collective: the last run's output is within `tolerance` of the reference (relative L2 error).
  bool verify() const override {
    const bool dash_output = last_side_ == Side::impl || contender_ == Contender::no_partial;
    const C* const output = dash_output ? out_.local.begin() : fftw_.output().data();
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

  MPI_Comm team_;
  Contender contender_;
  Matrix<C, N> in_;
  Matrix<C, N> out_;  // n x n [x n] with the first two dimensions swapped: the same extents
  FftwMpiTransform fftw_;
  std::vector<C> input_;      // this rank's slab of the input, copied into each side's input before its runs
  std::vector<C> reference_;  // FFTW-MPI's output for the input, this rank's slab
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
