// Case npb/ft: NPB FT (npb/ft.hpp) on dash, its 3-D FFTs transforming each tile as its pieces of
// the transpose arrive (dash::fft, FftOptions::partial), against the same with every transform
// waiting for its whole exchange first. Both plan with FftPlanning::measure (FFTW_MEASURE): with
// FFTW_ESTIMATE the slab transforms are several times slower (docs/benchmarks.md, "npb", FT). The
// size is the class's nx; FT times NPB's part (set-up, forward FFT, iterations), which gives NPB's
// Mflop/s and the time to compare with NPB's own (extra metrics), while the runner's times cover a
// whole run_ft call (matrices, the untimed warm-up, the timed part; FFTW measures in the process's
// first call of a class only, the runner's warm-up).

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/fft.hpp>
#include <dash/core/team.hpp>

#include "npb/ft.hpp"
#include "runner/registry.hpp"
#include "suites/npb_case.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> ft_classes{'S', 'W', 'A', 'B'};

std::size_t nx_of(char name) { return npb::ft_class(name).nx; }

const CaseRegistration ft_case{Case{
    .suite = "npb",
    .name = "ft",
    .impl = "NPB FT with dash::fft transforming each tile as it arrives (partial), FFTW_MEASURE plans",
    .baseline = "the same with FftOptions::partial = false",
    .size_unit = "nx (the NPB FT class: 64 S, 128 W, 256 A, 512 B)",
    .sizes = [](Sweep sweep) { return class_sizes(ft_classes, sweep, nx_of); },
    // dash::fft's slabs need a unit count that divides nz and ny, which powers of two up to 32 do
    // for every class here (W's nz = 32 is the smallest).
    .active_rank_counts = [](int job_size) { return power_of_two_job(job_size, 32); },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      const char name = class_of_size("npb/ft", ft_classes, problem.size, nx_of);
      return std::make_unique<KernelWorkload<npb::FtResult>>(
          [name](bool partial) {
            FftOptions options;
            options.partial = partial;
            options.planning = FftPlanning::measure;
            return npb::run_ft(name, Team::All(), options);
          },
          // FT's Mflop/s, the seconds of its timed part (slowest unit) and the largest relative checksum error.
          [](const npb::FtResult& result) { return std::vector<double>{result.mops, result.seconds, result.max_error}; });
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"ft_seconds", "s"}, ExtraMetric{"checksum_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
