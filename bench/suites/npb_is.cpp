// Case npb/is: NPB IS (npb/is.hpp) on dash, each of its rankings a dash::sort that merges the
// received runs while the exchange goes on (SortOptions::partial_merge), against the same with
// every merge waiting for the whole exchange. The size is the class's key count; IS times its own
// 10 rankings, which give NPB's Mop/s and the time to compare with NPB's own (extra metrics), while
// the runner's times cover a whole run_is call (keys, warm-up ranking, timed rankings, full
// verification).

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/sort.hpp>
#include <dash/core/team.hpp>

#include "npb/is.hpp"
#include "runner/registry.hpp"
#include "suites/npb_case.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> is_classes{'S', 'W', 'A', 'B'};

std::size_t keys_of(char name) { return npb::is_class(name).total_keys; }

const CaseRegistration is_case{Case{
    .suite = "npb",
    .name = "is",
    .impl = "NPB IS with dash::sort merging the received runs as they arrive (partial_merge)",
    .baseline = "the same with SortOptions::partial_merge = false",
    .size_unit = "keys (the NPB IS class: 65536 S, 1048576 W, 8388608 A, 33554432 B)",
    .sizes = [](Sweep sweep) { return class_sizes(is_classes, sweep, keys_of); },
    // Any number of units works.
    .active_rank_counts = [](int job_size) { return std::vector<int>{job_size}; },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      const char name = class_of_size("npb/is", is_classes, problem.size, keys_of);
      return std::make_unique<KernelWorkload<npb::IsResult>>(
          [name](bool partial) {
            SortOptions options;
            options.partial_merge = partial;
            return npb::run_is(name, Team::All(), options);
          },
          // IS's Mop/s and the seconds of its timed rankings (slowest unit); its checks are exact, so
          // there is no error to report beside `verified`.
          [](const npb::IsResult& result) { return std::vector<double>{result.mops, result.seconds}; });
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"is_seconds", "s"}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
