// The sort suite's NPB IS case: the NAS Integer Sort kernel ranked with dash::sort (npb/is.hpp),
// against the same kernel with dash::sort's partial merge turned off. The size is the class's key
// count; IS times its own 10 iterations, which gives NPB's Mop/s (an extra metric), while the
// runner's times cover a whole run_is call (key generation, warm-up, iterations, verification).

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/sort.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/core/team.hpp>

#include "npb/is.hpp"
#include "runner/registry.hpp"

namespace dash::bench::sort {

namespace {

constexpr std::array<char, 3> is_classes{'S', 'W', 'A'};

const npb::IsClass& class_with_keys(std::size_t keys) {
  for (const char name : is_classes) {
    if (npb::is_class(name).total_keys == keys) {
      return npb::is_class(name);
    }
  }
  throw invalid_argument("dash-bench sort/npb_is", "size", keys,
                         "the key count of NPB IS class S (65536), W (1048576) or A (8388608)");
}

class IsWorkload final : public Workload {
public:
  IsWorkload(const Problem& problem, const npb::IsClass& klass) : team_(problem.team), klass_(klass) {}

  void run_impl() override { run(true, impl_); }
  void run_baseline() override { run(false, baseline_); }
  // Every run generates its keys afresh; only the result has to be forgotten.
  void reset() override { last_verified_ = false; }
  bool verify() const override { return last_verified_; }

  // Collective: IS's Mop/s, and the phases of the last iteration's sort on the slowest rank.
  std::vector<double> extra_metrics(Side side) override {
    const Outcome& outcome = side == Side::impl ? impl_ : baseline_;
    double slowest[4] = {outcome.phases.local_sort, outcome.phases.splitters, outcome.phases.exchange,
                         outcome.phases.merge};
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, slowest, 4, MPI_DOUBLE, MPI_MAX, team_),
                    "dash-bench sort/npb_is: MPI_Allreduce");
    return {outcome.mops,  slowest[0], slowest[1], slowest[2],
            slowest[3],    static_cast<double>(outcome.phases.splitter_rounds)};
  }

private:
  struct Outcome {
    double mops = 0;
    SortPhases phases;
  };

  void run(bool partial_merge, Outcome& outcome) {
    SortOptions options;
    options.partial_merge = partial_merge;
    options.phases = &outcome.phases;
    const npb::IsResult result = npb::run_is(klass_.name, Team::All(), options);
    outcome.mops = result.mops;
    last_verified_ = result.verified;
  }

  MPI_Comm team_;
  const npb::IsClass& klass_;
  Outcome impl_;
  Outcome baseline_;
  bool last_verified_ = false;
};

// Classes S and W in the quick sweep, S, W and A in the full one.
std::vector<std::size_t> class_keys(Sweep sweep) {
  std::vector<std::size_t> keys;
  for (const char name : is_classes) {
    if (sweep == Sweep::full || name != 'A') {
      keys.push_back(npb::is_class(name).total_keys);
    }
  }
  return keys;
}

const CaseRegistration npb_is_case{Case{
    .suite = "sort",
    .name = "npb_is",
    .impl = "NPB IS (10 rankings of int keys) with dash::sort",
    .baseline = "the same with SortOptions::partial_merge = false",
    .size_unit = "keys (the NPB IS class: 65536 S, 1048576 W, 8388608 A)",
    .sizes = class_keys,
    .active_rank_counts = [](int job_size) { return std::vector<int>{job_size}; },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<IsWorkload>(problem, class_with_keys(problem.size));
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"local_sort", "s"}, ExtraMetric{"splitters", "s"},
                      ExtraMetric{"exchange", "s"}, ExtraMetric{"merge", "s"}, ExtraMetric{"splitter_rounds", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::sort
