// The team suite: how long Team::split_by takes with each variant of the team-split service, and
// Team::split, each against MPI_Comm_split on the same members in the same run (docs/teams.md).
// Sizes are the number of colors; keys reverse the ranks so every team needs a real order.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

#include "runner/registry.hpp"

namespace dash::bench::team {

namespace {

int color_of(int rank, std::size_t colors) { return static_cast<int>(static_cast<std::size_t>(rank) % colors); }

std::vector<int> members_of(const Team& team) {
  std::vector<int> members;
  for (int r = 0; r < static_cast<int>(team.size()); ++r) {
    members.push_back(team.global_rank(r));
  }
  return members;
}

class SplitWorkload final : public Workload {
public:
  SplitWorkload(const Problem& problem, bool by_color, SplitOptions options)
      : colors_(std::min<std::size_t>(problem.size, Team::All().size())), by_color_(by_color), options_(options) {
    MPI_Comm_rank(MPI_COMM_WORLD, &me_);
  }
  ~SplitWorkload() override { release(); }

  // Teams and communicators pile up over the timed runs (freeing is not what is measured) and
  // go in reset() or with the workload.
  void run_impl() override {
    teams_.push_back(by_color_ ? &Team::All().split_by(color_of(me_, colors_), -me_, options_)
                               : &Team::All().split(static_cast<int>(colors_)));
  }
  void run_baseline() override {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color(), by_color_ ? -me_ : me_, &comm);
    comms_.push_back(comm);
  }
  void reset() override { release(); }
  // The last split's membership and order equal MPI_Comm_split's (computed here, untimed).
  bool verify() const override {
    if (teams_.empty()) {
      return !comms_.empty() && comms_.back() != MPI_COMM_NULL;
    }
    MPI_Comm reference = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color(), by_color_ ? -me_ : me_, &reference);
    int rank = -1;
    int size = 0;
    MPI_Comm_rank(reference, &rank);
    MPI_Comm_size(reference, &size);
    std::vector<int> expected(static_cast<std::size_t>(size));
    MPI_Allgather(&me_, 1, MPI_INT, expected.data(), 1, MPI_INT, reference);
    MPI_Comm_free(&reference);
    return teams_.back()->myid() == rank && members_of(*teams_.back()) == expected;
  }

  // Memory each process keeps for the last split's team, the largest over the processes:
  // TeamStats::bytes for ours; for MPI_Comm_split, whose state lives inside the MPI library, a rank
  // table of the team's size at 4 bytes a member (MPICH's lpid).
  std::vector<double> extra_metrics(Side side) override {
    std::uint64_t bytes = 0;
    if (side == Side::impl && !teams_.empty()) {
      bytes = teams_.back()->stats().bytes;
    } else if (side == Side::baseline && !comms_.empty()) {
      int size = 0;
      MPI_Comm_size(comms_.back(), &size);
      bytes = static_cast<std::uint64_t>(size) * sizeof(std::int32_t);
    }
    MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return {static_cast<double>(bytes)};
  }

private:
  int color() const {
    return by_color_ ? color_of(me_, colors_)
                     : static_cast<int>(static_cast<std::size_t>(me_) * colors_ / Team::All().size());
  }

  void release() {
    for (Team* team : teams_) {
      team->free();
    }
    teams_.clear();
    for (MPI_Comm& comm : comms_) {
      MPI_Comm_free(&comm);
    }
    comms_.clear();
  }

  std::size_t colors_;
  bool by_color_;
  SplitOptions options_;
  int me_ = 0;
  std::vector<Team*> teams_;
  std::vector<MPI_Comm> comms_;
};

std::vector<std::size_t> color_counts(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {1, 2};
  }
  return {1, 2, 4, 8};
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

Case split_case(std::string name, std::string impl, bool by_color, SplitOptions options) {
  return Case{
      .suite = "team",
      .name = std::move(name),
      .impl = std::move(impl),
      .baseline = "MPI_Comm_split (same colors and keys)",
      .size_unit = "colors (at most the number of ranks)",
      .sizes = color_counts,
      .active_rank_counts = whole_job,
      .rate = std::nullopt,
      .make_workload = [by_color, options](const Problem& problem) -> std::unique_ptr<Workload> {
        return std::make_unique<SplitWorkload>(problem, by_color, options);
      },
      .calls_per_run = nullptr,
      .extra_metrics = {ExtraMetric{"team_bytes_per_process", ""}},
  };
}

const CaseRegistration split_n{split_case("split", "Team::split(n): contiguous parts, a formula", false, {})};
const CaseRegistration conventional{split_case("split_by_conventional", "Team::split_by, allgather + sort", true,
                                               {SplitAlgorithm::conventional, 0})};
const CaseRegistration merge_per_step{split_case("split_by_merge_per_step",
                                                 "Team::split_by, recursive doubling with a merge per step", true,
                                                 {SplitAlgorithm::merge_per_step, 0})};
const CaseRegistration full_table{split_case("split_by_parallel_sort_full_table",
                                             "Team::split_by, parallel sort (p = 2) + full table", true,
                                             {SplitAlgorithm::parallel_sort_full_table, 2})};
const CaseRegistration distributed_table{split_case("split_by_parallel_sort_distributed_table",
                                                    "Team::split_by, parallel sort (p = 2) + distributed table", true,
                                                    {SplitAlgorithm::parallel_sort_distributed_table, 2})};

}  // namespace

}  // namespace dash::bench::team
