// Cross-rank argument checks (DASH_CROSS_RANK_CHECKS) of collectives on teams and other sub-groups:
// a member that disagrees makes every member of that team, and no other process, throw
// dash::InvalidArgument; checked collectives of sibling, nested and overlapping teams run
// concurrently and in different orders on different members without deadlock.

#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <dash/core/detail/tag_blocks.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::Team;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

Options forced(std::string_view algorithm) {
  Options options;
  options.algorithm = std::string(algorithm);
  return options;
}

// Polls every request until all completed: under manual progress a member advances only the
// collectives it tests, so waiting on one alone could stall a peer that waits on another first.
template <class... Requests>
void complete(Requests&... requests) {
  while (!(requests.test() & ...)) {
  }
}

// The sum of (base rank + 1) over the group's members, as every member computes it locally.
int member_sum(const Group& group) {
  int sum = 0;
  for (int r = 0; r < group.size(); ++r) {
    sum += group.base_rank(r) + 1;
  }
  return sum;
}

// A checked allreduce on `group` sees exactly its members.
bool allreduce_sees_members(const Group& group) {
  const std::vector<int> in(3, me() + 1);
  std::vector<int> out(3);
  dash::comm::allreduce(in, out, dash::plus{}, group);
  return out == std::vector<int>(3, member_sum(group));
}

// What a member of a group whose collective arguments differ reads, up to the compared value.
std::string mismatch_report(std::string_view function, int group_rank) {
  return std::string(function) +
         ": argument 'collective arguments (operation, root, count, algorithm, segments, placement, grid)' must be "
         "the same on every rank, but the ranks passed different values (rank " +
         std::to_string(group_rank) + " passed <";
}

// A collective whose arguments one member may contradict; returns whether its result is right
// (for the members of a team that agreed). They run message algorithms: after a failed check a
// group's later collectives are undefined (docs/configuration.md), and in the collective arena a
// run that stopped half-way leaves its channel's counters behind, so only messages, whose tags
// every member took alike, let the group go on.
struct Mismatch {
  std::string_view what;
  std::string_view function;
  std::function<bool(const Group&, bool disagree)> run;
};

const std::vector<Mismatch>& mismatches() {
  static const std::vector<Mismatch> all{
      {"count", "dash::comm::allreduce",
       [](const Group& group, bool disagree) {
         const std::vector<int> in(disagree ? 5 : 4, me() + 1);
         std::vector<int> out(in.size());
         dash::comm::allreduce(in, out, dash::plus{}, group, forced("recursive_doubling"));
         return out == std::vector<int>(in.size(), member_sum(group));
       }},
      {"root", "dash::comm::bcast",
       [](const Group& group, bool disagree) {
         const int root = disagree ? 1 : 0;
         std::vector<int> buffer(16, group.rank() == root ? 100 + group.base_rank(root) : -1);
         dash::comm::bcast(buffer, root, group, forced("binomial"));
         return buffer == std::vector<int>(16, 100 + group.base_rank(root));
       }},
      {"algorithm", "dash::comm::allreduce",
       [](const Group& group, bool disagree) {
         const std::vector<long> in(64, me() + 1);
         std::vector<long> out(64);
         dash::comm::allreduce(in, out, dash::plus{}, group, forced(disagree ? "recursive_doubling" : "ring"));
         return out == std::vector<long>(64, member_sum(group));
       }},
  };
  return all;
}

// Runs every mismatch on `group`, contradicted by the member `disagreeing` (a group rank, or -1
// for none): each member of a disagreeing group reports it, members of an agreeing group get
// the right result, and the group works again afterwards.
void expect_mismatches_reported(const Group& group, int disagreeing) {
  for (const Mismatch& mismatch : mismatches()) {
    std::string report;
    bool right = false;
    try {
      right = mismatch.run(group, group.rank() == disagreeing);
    } catch (const dash::InvalidArgument& error) {
      report = error.what();
    }
    if (disagreeing >= 0) {
      EXPECT_TRUE(report.starts_with(mismatch_report(mismatch.function, group.rank())))
          << mismatch.what << ": " << report;
    } else {
      EXPECT_EQ(report, "") << mismatch.what;
      EXPECT_TRUE(right) << mismatch.what;
    }
    // Every member took the same tags, failed or not, so the next collective matches.
    EXPECT_TRUE(allreduce_sees_members(group)) << "after " << mismatch.what;
  }
}

// A failed collective can leave messages of its tag in flight (sends of a wrong root, of rounds a
// failing member never reached). A freed team's tag block serves the next split, whose sequence
// starts over and could match them, so teams that ran mismatches stay until dash::finalize.

TEST(TeamCrossRankCheck, MismatchOnOneMemberIsReportedByEveryMemberOfItsTeamOnly) {
  // Team 0 has at least two members (every process when P = 2, a full-size team that is not the
  // world group); from P = 3 its sibling, team 1, runs the same calls with matching arguments.
  const int color = P() >= 3 && me() >= (P() + 1) / 2 ? 1 : 0;
  Team& team = Team::All().split_by(color, me());
  // Unchecked builds, and a lone process, which always agrees with itself, run the matching calls:
  // no report, right results.
  const bool can_disagree = dash::comm::cross_rank_checks_enabled && team.size() >= 2;
  expect_mismatches_reported(team, color == 0 && can_disagree ? 1 : -1);
  EXPECT_TRUE(allreduce_sees_members(Team::All()));
}

TEST(TeamCrossRankCheck, SiblingTeamsCheckConcurrently) {
  Team& halves = Team::All().split(std::min(2, P()));
  const std::vector<int> in(40, me() + 1);
  std::vector<int> half_sum(40), world_sum(40);
  std::vector<int> broadcast(7, halves.myid() == 0 ? me() : -1);
  std::vector<int> gathered(halves.size());
  const std::vector<int> mine{me()};
  // Both siblings have several checked collectives in flight, beside one of the world group.
  auto sum = dash::comm::iallreduce(in, half_sum, dash::plus{}, halves);
  auto world = dash::comm::iallreduce(in, world_sum, dash::plus{}, Team::All());
  auto bcast = dash::comm::ibcast(broadcast, 0, halves);
  auto gather = dash::comm::iallgather(mine, gathered, halves);
  complete(gather, bcast, world, sum);
  std::vector<int> members(halves.size());
  std::iota(members.begin(), members.end(), halves.global_rank(0));
  const bool ok = half_sum == std::vector<int>(40, member_sum(halves)) &&
                  world_sum == std::vector<int>(40, member_sum(Team::All())) &&
                  broadcast == std::vector<int>(7, halves.global_rank(0)) && gathered == members;
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  halves.free();
}

TEST(TeamCrossRankCheck, NestedTeamsCheckThroughTheirOwnMembers) {
  // outer: a half (every process below P = 4); inner: the same members in reverse order, split from
  // outer through a distributed table; innermost: a half of inner.
  Team& outer = Team::All().split(P() >= 4 ? 2 : 1);
  Team& inner = outer.split_by(0, -outer.myid(), {dash::SplitAlgorithm::parallel_sort_distributed_table, 2});
  Team& innermost = inner.split(std::min<int>(2, static_cast<int>(inner.size())));
  const std::vector<int> in(9, me() + 1);
  std::vector<int> on_outer(9), on_innermost(9);
  auto outer_sum = dash::comm::iallreduce(in, on_outer, dash::plus{}, outer);
  auto innermost_sum = dash::comm::iallreduce(in, on_innermost, dash::plus{}, innermost);
  // While those run, the middle level disagrees (when checked and it has two members) and reports
  // it on its members.
  expect_mismatches_reported(inner, dash::comm::cross_rank_checks_enabled && inner.size() >= 2 ? 0 : -1);
  complete(innermost_sum, outer_sum);
  const bool innermost_works = allreduce_sees_members(innermost);
  EXPECT_TRUE(dash::testing::on_all_ranks(on_outer == std::vector<int>(9, member_sum(outer)) &&
                                          on_innermost == std::vector<int>(9, member_sum(innermost)) &&
                                          innermost_works));
}

// Two groups that share members may start non-blocking collectives in different orders on
// different members (as MPI allows for communicators): the checks must not make them wait for
// each other. Here the world, a full-size team that is not the world group, and a child start
// in an order that rotates with the member.
TEST(TeamCrossRankCheck, OverlappingTeamsStartedInDifferentOrdersComplete) {
  Team& whole = Team::All().split(1);
  Team& half = whole.split(std::min(2, P()));
  const std::vector<const Group*> groups{&Team::All().group(), &whole.group(), &half.group()};
  const std::vector<long> in(300, me() + 1);
  std::vector<std::vector<long>> out(groups.size(), std::vector<long>(in.size()));
  std::vector<dash::comm::Request<long>> requests;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const std::size_t g = (i + static_cast<std::size_t>(me())) % groups.size();
    requests.push_back(dash::comm::iallreduce(in, out[g], dash::plus{}, *groups[g]));
  }
  complete(requests[0], requests[1], requests[2]);
  bool ok = true;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    ok = ok && out[g] == std::vector<long>(in.size(), member_sum(*groups[g]));
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  whole.free();
}

TEST(TeamCrossRankCheck, NullTeamTakesNoPart) {
  // Process 0 joins no team (from P = 2); the others run checked collectives without it.
  Team& some = Team::All().split_by(P() >= 2 && me() == 0 ? Team::Undefined : 0, me());
  std::vector<int> in(4, 1), out(4);
  bool ok = true;
  if (some.is_null()) {
    EXPECT_THROW(dash::comm::allreduce(in, out, dash::plus{}, some), dash::InvalidState);
  } else {
    const bool first = allreduce_sees_members(some);
    ok = allreduce_sees_members(some) && first;
  }
  const bool world_works = allreduce_sees_members(Team::All());
  EXPECT_TRUE(dash::testing::on_all_ranks(ok && world_works));
  if (!some.is_null()) {
    some.free();
  }
}

// Groups built by Group's own constructor check the same way: every process in reverse order
// (full size, not the world group).
TEST(TeamCrossRankCheck, GroupOfBaseRanksChecksThroughItsMembers) {
  std::vector<int> reversed(static_cast<std::size_t>(P()));
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  // The last team tag block: teams take the lowest free ones.
  const dash::detail::TagBlockLayout& blocks = dash::detail::TagBlocks::current()->layout();
  const Group group = Group::of_base_ranks(reversed, blocks.space(blocks.blocks - 1));
  expect_mismatches_reported(group, dash::comm::cross_rank_checks_enabled && P() >= 2 ? P() - 1 : -1);
}

}  // namespace
