// Case npb/mg: NPB MG (npb/mg.hpp) on dash, its residuals and smoothing steps overlapping each
// halo update (dash::apply_stencil, partial), against the same with every stencil waiting for its
// whole halo first. The size is the grid's cells times the timed V-cycles (classes A and B share a
// grid and differ only in their cycles). MG times its own V-cycles, which give NPB's Mop/s and the
// time to compare with NPB's own (extra metrics), while the runner's times cover a whole run_mg call
// (grids, right-hand side, warm-up cycle, timed cycles).

#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/core/team.hpp>

#include "npb/mg.hpp"
#include "runner/registry.hpp"
#include "suites/npb_case.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> mg_classes{'S', 'W', 'A', 'B'};

std::size_t work_of(char name) {
  const npb::MgClass& mg = npb::mg_class(name);
  return mg.n * mg.n * mg.n * static_cast<std::size_t>(mg.iterations);
}

const CaseRegistration mg_case{Case{
    .suite = "npb",
    .name = "mg",
    .impl = "NPB MG with dash::apply_stencil overlapping each halo update (partial)",
    .baseline = "the same with StencilOptions::partial = false",
    .size_unit = "grid cells x timed V-cycles (the NPB MG class: 131072 S, 8388608 W, 67108864 A, 335544320 B)",
    .sizes = [](Sweep sweep) { return class_sizes(mg_classes, sweep, work_of); },
    // Fine and coarse blocks must line up and the coarsest grid, 2^3, needs a cell per unit.
    .active_rank_counts = [](int job_size) { return power_of_two_job(job_size, 8); },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      const char name = class_of_size("npb/mg", mg_classes, problem.size, work_of);
      return std::make_unique<KernelWorkload<npb::MgResult>>(
          [name](bool partial) {
            StencilOptions options;
            options.partial = partial;
            return npb::run_mg(name, Team::All(), options);
          },
          // MG's Mop/s, the seconds of its timed V-cycles (slowest unit) and rnm2's relative error.
          [name](const npb::MgResult& result) {
            const double reference = npb::mg_class(name).verify_value;
            return std::vector<double>{result.mops, result.seconds, std::abs(result.rnm2 - reference) / reference};
          });
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"mg_seconds", "s"}, ExtraMetric{"rnm2_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
