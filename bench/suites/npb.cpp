// The npb suite: NAS Parallel Benchmark kernels on dash. Case `cg`: NPB CG (npb/cg.hpp) with
// dash::sparse_matvec consuming the blocks of x as they arrive, against the same kernel with the
// products waiting for all of x. The size is the class's row count; CG times its own outer
// iterations, which give NPB's Mop/s and the time to compare with NPB's own (extra metrics), while
// the runner's times cover a whole run_cg call (matrix generation, warm-up, iterations). IS, MG and
// FT have their own files.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/sparse_matvec.hpp>
#include <dash/core/team.hpp>

#include "npb/cg.hpp"
#include "runner/registry.hpp"
#include "suites/npb_case.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> cg_classes{'S', 'W', 'A', 'B'};

std::size_t rows_of(char name) { return npb::cg_class(name).na; }

const CaseRegistration cg_case{Case{
    .suite = "npb",
    .name = "cg",
    .impl = "NPB CG with dash::sparse_matvec multiplying each block of x as it arrives",
    .baseline = "the same with SparseMatvecOptions::partial = false",
    .size_unit = "rows (the NPB CG class: 1400 S, 7000 W, 14000 A, 75000 B)",
    .sizes = [](Sweep sweep) { return class_sizes(cg_classes, sweep, rows_of); },
    // Any number of units works.
    .active_rank_counts = [](int job_size) { return std::vector<int>{job_size}; },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      const char name = class_of_size("npb/cg", cg_classes, problem.size, rows_of);
      return std::make_unique<KernelWorkload<npb::CgResult>>(
          [name](bool partial) {
            SparseMatvecOptions options;
            options.partial = partial;
            return npb::run_cg(name, Team::All(), options);
          },
          // CG's Mop/s, the seconds of its timed iterations (slowest unit) and zeta's relative error.
          [](const npb::CgResult& result) { return std::vector<double>{result.mops, result.seconds, result.error}; });
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"cg_seconds", "s"}, ExtraMetric{"zeta_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
