// dash::Team: split(n) with DASH semantics, split_by(color, key) against MPI_Comm_split as the
// oracle (every service variant), nesting, splitting twice, concurrent collectives on related
// teams, rank translation, free(), and the errors of misuse.
//
// Map: members_of and allreduce_sees_members; Team::All, freed teams, mpi_comm, Null; split(n);
// split_by against MPI_Comm_split (every variant, table holders, nested tables, formulas and tables,
// the distributed table's slice); nesting and splitting twice; concurrent collectives; tag blocks;
// misuse and mismatched calls; split_by_locality.

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/core/detail/tag_blocks.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::SplitAlgorithm;
using dash::Team;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

// The base ranks of the caller's team, as the team reports them.
std::vector<int> members_of(const Team& team) {
  std::vector<int> members;
  for (int r = 0; r < static_cast<int>(team.size()); ++r) {
    members.push_back(team.global_rank(r));
  }
  return members;
}

// The base ranks of the caller's MPI_Comm_split communicator, in rank order.
std::vector<int> members_of(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<int> members(static_cast<std::size_t>(size));
  const int mine = me();
  MPI_Allgather(&mine, 1, MPI_INT, members.data(), 1, MPI_INT, comm);
  return members;
}

// A collective on `team` sees exactly its members: the sum of their base ranks.
bool allreduce_sees_members(const Team& team) {
  const std::vector<int> members = members_of(team);
  const long expected = std::accumulate(members.begin(), members.end(), 0L);
  std::vector<long> mine{static_cast<long>(me())};
  std::vector<long> sum(1);
  dash::comm::allreduce(mine, sum, dash::plus{}, team);
  return sum[0] == expected;
}

TEST(Team, AllCoversEveryProcess) {
  Team& all = Team::All();
  EXPECT_EQ(all.myid(), me());
  EXPECT_EQ(all.size(), dash::size());
  EXPECT_TRUE(all.parent().is_null());
  EXPECT_EQ(all.depth(), 0);
  EXPECT_EQ(all.stats().representation, "contiguous");
  EXPECT_EQ(all.stats().table_rows, 0u);
  for (int r = 0; r < P(); ++r) {
    EXPECT_EQ(all.global_rank(r), r);
    EXPECT_EQ(all.team_rank(r), r);
  }
  all.barrier();
}

TEST(Team, FreedTeamsRefuseEveryUse) {
  Team& half = Team::All().split(std::min(2, P()));
  Team& inner = half.split_by(0, 0);
  half.free();
  EXPECT_TRUE(half.is_freed());
  EXPECT_TRUE(inner.is_freed()) << "freeing a team frees the teams split from it";
  EXPECT_FALSE(half.is_null());
  try {
    half.barrier();
    FAIL() << "no exception";
  } catch (const dash::InvalidState& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Team::barrier: the team was freed (Team::free on it or on a team it was split from)");
  }
  EXPECT_THROW(half.myid(), dash::InvalidState);
  EXPECT_THROW(inner.size(), dash::InvalidState);
  EXPECT_THROW(inner.split(1), dash::InvalidState);
  EXPECT_THROW(half.free(), dash::InvalidState);
  EXPECT_THROW(static_cast<void>(half.group()), dash::InvalidState);
  EXPECT_THROW(half.team_rank(0), dash::InvalidState);
}

TEST(Team, MpiCommOnDemandHasTheTeamsMembersInOrder) {
  Team& reversed = Team::All().split_by(0, -me());
  MPI_Comm comm = reversed.mpi_comm();
  EXPECT_EQ(comm, reversed.mpi_comm()) << "created once";
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  EXPECT_EQ(rank, reversed.myid());
  EXPECT_EQ(members_of(comm), members_of(reversed));
  reversed.free();
}

TEST(Team, NullHasNoMembers) {
  Team& null = Team::Null();
  EXPECT_TRUE(null.is_null());
  EXPECT_EQ(null.myid(), -1);
  EXPECT_EQ(null.size(), 0u);
  EXPECT_EQ(null.team_rank(0), -1);
  EXPECT_THROW(null.barrier(), dash::InvalidState);
  EXPECT_THROW(null.split(2), dash::InvalidState);
  EXPECT_THROW(null.free(), dash::InvalidState);
  EXPECT_THROW(Team::All().free(), dash::InvalidState);
}

TEST(Team, SplitMakesContiguousNearEqualParts) {
  for (const int n : {1, 2, 3, 4, P()}) {
    if (n > P()) {
      continue;
    }
    Team& part = Team::All().split(n);
    const int parts = n;
    const int color = me() * parts / P();
    std::vector<int> expected;
    for (int u = 0; u < P(); ++u) {
      if (u * parts / P() == color) {
        expected.push_back(u);
      }
    }
    EXPECT_EQ(members_of(part), expected) << "split(" << n << ")";
    EXPECT_EQ(part.myid(), me() - expected.front());
    EXPECT_EQ(&part.parent(), &Team::All());
    EXPECT_EQ(part.depth(), 1);
    EXPECT_EQ(part.stats().table_rows, 0u) << "a contiguous part needs no table";
    EXPECT_TRUE(dash::testing::on_all_ranks(allreduce_sees_members(part)));
    part.free();
  }
}

// The caller's team of split_by(color, key) equals MPI_Comm_split's: members, their order, the
// caller's rank, a collective over exactly the members, and rank translation both ways.
bool matches_mpi_comm_split(const Team& team, int color, int key) {
  MPI_Comm oracle = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, color == Team::Undefined ? MPI_UNDEFINED : color, key, &oracle);
  if (oracle == MPI_COMM_NULL) {
    return team.is_null();
  }
  bool ok = !team.is_null() && members_of(team) == members_of(oracle);
  int oracle_rank = -1;
  MPI_Comm_rank(oracle, &oracle_rank);
  ok = ok && team.myid() == oracle_rank;
  MPI_Comm_free(&oracle);
  ok = ok && allreduce_sees_members(team);
  for (int r = 0; ok && r < static_cast<int>(team.size()); ++r) {
    ok = team.team_rank(team.global_rank(r)) == r;
  }
  // Every process: a member's team rank, or -1.
  const std::vector<int> members = members_of(team);
  for (int g = 0; ok && g < P(); ++g) {
    const auto at = std::find(members.begin(), members.end(), g);
    ok = team.team_rank(g) == (at == members.end() ? -1 : static_cast<int>(at - members.begin()));
  }
  return ok;
}

TEST(Team, SplitByMatchesMpiCommSplitForEveryVariant) {
  std::mt19937 random(dash::testing::seed());
  std::vector<dash::SplitOptions> variants{{SplitAlgorithm::automatic, 0},
                                           {SplitAlgorithm::conventional, 0},
                                           {SplitAlgorithm::merge_per_step, 0}};
  for (const int sorters : {0, 1, 2, 4, 8}) {
    variants.push_back({SplitAlgorithm::parallel_sort_full_table, sorters});
    variants.push_back({SplitAlgorithm::parallel_sort_distributed_table, sorters});
  }
  for (const dash::SplitOptions& options : variants) {
    for (int trial = 0; trial < 4; ++trial) {
      // Colors 0..2 and some undefined; keys with ties, so rank order breaks them.
      const int color = trial == 3 ? 0 : static_cast<int>(random() % 4) - 1;
      const int key = static_cast<int>(random() % 3) - 1;
      Team& team = Team::All().split_by(color, key, options);
      const bool ok = matches_mpi_comm_split(team, color, key);
      EXPECT_TRUE(ok) << "variant " << dash::to_string(options.algorithm) << " with " << options.sorters
                      << " sorters, color " << color << " key " << key;
      ASSERT_TRUE(dash::testing::on_all_ranks(ok));
      if (!team.is_null()) {
        team.free();
      }
    }
  }
}

// SplitOptions::table_holders = P', independent of the sorters p: P' below, equal to and above
// p, 1 (every holder has the whole table), and n (one row each). The rows a member holds follow
// the documented layout: groups of stride floor(n / P'), the first P' members of each holding
// balanced slices; nobody holds more than ceil(n / P') rows, nor caches more than the capacity.
TEST(Team, TableHoldersGiveMpiCommSplitsTeamsAndBoundedRows) {
  std::mt19937 random(dash::testing::seed());
  const int n = P();
  for (const int sorters : {1, 2, 4}) {
    for (const int holders : {1, 2, 3, sorters, 2 * sorters, n}) {
      if (holders > n) {
        continue;
      }
      for (int trial = 0; trial < 3; ++trial) {
        // Many ties; one color in the last trial, so every member has a team to report on.
        const int color = trial == 2 ? 0 : static_cast<int>(random() % 3) - 1;
        const int key = trial == 1 ? -me() : static_cast<int>(random() % 3);
        Team& team = Team::All().split_by(
            color, key, {.algorithm = SplitAlgorithm::parallel_sort_distributed_table, .sorters = sorters,
                         .table_holders = holders});
        bool ok = matches_mpi_comm_split(team, color, key);
        EXPECT_TRUE(ok) << sorters << " sorters, " << holders << " holders, color " << color << " key " << key;
        if (!team.is_null()) {
          const dash::TeamStats stats = team.stats();
          const int stride = n / holders;
          const int index = me() / stride;
          const std::size_t expected_rows =
              index < holders ? static_cast<std::size_t>((index + 1) * n / holders - index * n / holders) : 0;
          EXPECT_EQ(stats.representation, "distributed table");
          EXPECT_EQ(stats.table_rows, expected_rows) << sorters << " sorters, " << holders << " holders";
          EXPECT_LE(stats.table_rows, static_cast<std::size_t>((n + holders - 1) / holders));
          EXPECT_LE(stats.cache_entries, stats.cache_capacity);
          ok = ok && stats.table_rows == expected_rows && stats.cache_entries <= stats.cache_capacity;
        }
        ASSERT_TRUE(dash::testing::on_all_ranks(ok));
        if (!team.is_null()) {
          team.free();
        }
      }
    }
  }
}

// A split of a team whose own ranks are a distributed table with P' holders: the inner table's
// holders are parent ranks, found through the outer table.
TEST(Team, TableHoldersNestThroughADistributedTable) {
  const dash::SplitOptions outer_options{.algorithm = SplitAlgorithm::parallel_sort_distributed_table,
                                         .sorters = 2,
                                         .table_holders = std::min(3, P())};
  Team& outer = Team::All().split_by(0, me() % 2 == 0 ? me() : -me(), outer_options);
  const int size = static_cast<int>(outer.size());
  const dash::SplitOptions inner_options{.algorithm = SplitAlgorithm::parallel_sort_distributed_table,
                                         .sorters = 1,
                                         .table_holders = size};
  Team& inner = outer.split_by(outer.myid() % 2, -outer.myid(), inner_options);
  std::vector<int> expected;
  const std::vector<int> outer_members = members_of(outer);
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == outer.myid() % 2) {
      expected.push_back(outer_members[static_cast<std::size_t>(r)]);
    }
  }
  const bool ok = members_of(inner) == expected && allreduce_sees_members(inner) &&
                  inner.stats().table_rows == 1 && outer.team_rank(inner.global_rank(0)) >= 0;
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  outer.free();
}

TEST(Team, SplitByKeepsFormulasWhereItCanAndTablesElsewhere) {
  Team& reversed = Team::All().split_by(0, -me());
  std::vector<int> expected(static_cast<std::size_t>(P()));
  std::iota(expected.rbegin(), expected.rend(), 0);
  EXPECT_EQ(members_of(reversed), expected);
  EXPECT_EQ(reversed.myid(), P() - 1 - me());
  EXPECT_EQ(reversed.stats().table_rows, 0u) << "a reversed order is a stride of -1";
  EXPECT_EQ(reversed.stats().split_peak_rows, static_cast<std::size_t>(P()));
  // Odd ranks descending, then even ranks ascending: no formula from P = 4 on.
  Team& shuffled = Team::All().split_by(0, me() % 2 == 0 ? me() : -me());
  const dash::TeamStats stats = shuffled.stats();
  if (P() >= 4) {
    EXPECT_EQ(stats.representation, "table");
    EXPECT_EQ(stats.table_rows, static_cast<std::size_t>(P()));
    EXPECT_GT(stats.bytes, 0u);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(allreduce_sees_members(reversed) && allreduce_sees_members(shuffled)));
  shuffled.free();
  reversed.free();
}

// Sack 2011 §2.3.2: each process holds about n/p rows of the distributed table (each row: the
// member at a sorted position, and the team rank of a parent rank) and caches what it read.
TEST(Team, DistributedTableHoldsASliceAndCachesLookups) {
  const int sorters = std::min(2, P());
  Team& team = Team::All().split_by(0, -me(), {SplitAlgorithm::parallel_sort_distributed_table, sorters});
  EXPECT_TRUE(dash::testing::on_all_ranks(allreduce_sees_members(team)));
  const dash::TeamStats stats = team.stats();
  EXPECT_EQ(stats.representation, "distributed table");
  const int m = static_cast<int>(std::bit_floor(static_cast<unsigned>(P())));
  if (me() < m) {
    // Slices of floor(n/p) or ceil(n/p) rows.
    EXPECT_GE(stats.table_rows, static_cast<std::size_t>(P() / sorters));
    EXPECT_LE(stats.table_rows, static_cast<std::size_t>((P() + sorters - 1) / sorters));
  } else {
    EXPECT_EQ(stats.table_rows, 0u) << "a folded member holds no rows";
  }
  if (P() > 1) {
    EXPECT_GT(stats.cache_entries, 0u) << "the allreduce translated ranks";
  }
  EXPECT_LT(stats.split_peak_rows, static_cast<std::size_t>(P()) * 2 + 2);
  team.free();
}

TEST(Team, NestsThreeLevelsAndSplitsTwice) {
  Team& halves = Team::All().split(std::min(2, P()));
  Team& quarters = halves.split(std::min<int>(2, static_cast<int>(halves.size())));
  Team& eighths = quarters.split(std::min<int>(2, static_cast<int>(quarters.size())));
  EXPECT_EQ(eighths.depth(), 3);
  EXPECT_EQ(&eighths.parent(), &quarters);
  // A second split of the same parent while the first children live (DASH could not).
  Team& odd_even = halves.split_by(halves.myid() % 2, 0, {SplitAlgorithm::parallel_sort_distributed_table, 2});
  // A distributed table over a distributed table: sorters are found through the parent's rows.
  Team& reversed = odd_even.split_by(0, -odd_even.myid(), {SplitAlgorithm::parallel_sort_distributed_table, 2});
  bool ok = allreduce_sees_members(eighths) && allreduce_sees_members(odd_even) &&
            allreduce_sees_members(quarters) && allreduce_sees_members(halves) && allreduce_sees_members(reversed);
  const std::vector<int> outer = members_of(odd_even);
  const std::vector<int> inner = members_of(reversed);
  ok = ok && std::equal(outer.rbegin(), outer.rend(), inner.begin(), inner.end());
  // Rank translation composes through the levels.
  for (int r = 0; ok && r < static_cast<int>(eighths.size()); ++r) {
    const int base = eighths.global_rank(r);
    ok = quarters.team_rank(base) >= 0 && halves.team_rank(base) >= 0 && eighths.team_rank(base) == r;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  halves.free();
}

// Interleaved non-blocking collectives on a parent and its overlapping children never match
// each other's messages (they use disjoint tag spaces).
TEST(Team, ConcurrentCollectivesOnRelatedTeamsStayApart) {
  Team& first = Team::All().split(std::min(2, P()));
  Team& second = Team::All().split_by(me() % 2, me());
  constexpr std::size_t n = 5000;
  std::vector<int> in(n, me() + 1);
  std::vector<int> on_all(n), on_first(n), on_second(n);
  auto a = dash::comm::iallreduce(in, on_all, dash::plus{}, Team::All());
  auto b = dash::comm::iallreduce(in, on_first, dash::plus{}, first);
  auto c = dash::comm::iallreduce(in, on_second, dash::plus{}, second);
  c.wait();
  a.wait();
  b.wait();
  const auto sum_of = [](const Team& team) {
    int sum = 0;
    for (int r = 0; r < static_cast<int>(team.size()); ++r) {
      sum += team.global_rank(r) + 1;
    }
    return sum;
  };
  const bool ok = std::all_of(on_all.begin(), on_all.end(), [&](int v) { return v == sum_of(Team::All()); }) &&
                  std::all_of(on_first.begin(), on_first.end(), [&](int v) { return v == sum_of(first); }) &&
                  std::all_of(on_second.begin(), on_second.end(), [&](int v) { return v == sum_of(second); });
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  first.free();
  second.free();
}

// One child splits again while its sibling runs collectives.
TEST(Team, ChildSplitsWhileSiblingWorks) {
  Team& half = Team::All().split(std::min(2, P()));
  bool ok = true;
  if (me() * std::min(2, P()) / P() == 0) {
    Team& inner = half.split_by(0, -half.myid());
    ok = allreduce_sees_members(inner);
  } else {
    for (int round = 0; round < 5 && ok; ++round) {
      ok = allreduce_sees_members(half);
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  half.free();
}

// Every live split holds a tag block: when all are taken the next split fails on every rank with
// a clear error, and freeing teams makes their blocks available again.
TEST(Team, TagBlocksRunOutClearlyAndComeBack) {
  const int blocks = dash::detail::TagBlocks::current()->layout().blocks;
  std::vector<Team*> live;
  std::string error;
  try {
    for (int i = 0; i <= blocks; ++i) {
      live.push_back(&Team::All().split(1));
    }
  } catch (const dash::InvalidState& exhausted) {
    error = exhausted.what();
  }
  EXPECT_EQ(error, "dash::Team::split: every one of the " + std::to_string(blocks) +
                       " tag blocks is used by a live team of some member; free teams that are no longer needed");
  EXPECT_EQ(live.size(), static_cast<std::size_t>(blocks));
  for (Team* team : live) {
    team->free();
  }
  Team& whole = Team::All().split(1);
  EXPECT_TRUE(dash::testing::on_all_ranks(error.size() > 0 && allreduce_sees_members(whole)));
  whole.free();
}

TEST(Team, MisuseGivesExactErrors) {
  try {
    Team::All().split(0);
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "dash::Team::split: invalid argument 'n' = 0; expected a number of parts in [1, " +
                                             std::to_string(P()) + "] (the team size)");
  }
  try {
    Team::All().split(P() + 1);
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "dash::Team::split: invalid argument 'n' = " + std::to_string(P() + 1) +
                                             "; expected a number of parts in [1, " + std::to_string(P()) +
                                             "] (the team size)");
  }
  try {
    Team::All().split_by(-5, 0);
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Team::split_by: invalid argument 'color' = -5; expected a color >= 0 or "
                 "dash::Team::Undefined (-1)");
  }
  try {
    Team::All().split_by(0, 0, {SplitAlgorithm::parallel_sort_full_table, 3});
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Team::split_by: invalid argument 'options.sorters' = 3; expected 0 (the library's "
                 "choice) or a power of two");
  }
  for (const int holders : {-1, P() + 1}) {
    try {
      Team::All().split_by(0, 0,
                           {.algorithm = SplitAlgorithm::parallel_sort_distributed_table, .table_holders = holders});
      FAIL() << "no exception";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), "dash::Team::split_by: invalid argument 'options.table_holders' = " +
                                               std::to_string(holders) +
                                               "; expected 0 (the sorters hold the table) or a number of holders in "
                                               "[1, " + std::to_string(P()) + "] (the team size)");
    }
  }
  try {
    Team::All().global_rank(P());
    FAIL() << "no exception";
  } catch (const dash::OutOfRange& error) {
    EXPECT_EQ(std::string(error.what()), "dash::Team::global_rank: argument 'team_rank' = " + std::to_string(P()) +
                                             " is out of range; expected a rank in [0, " + std::to_string(P()) + ")");
  }
}

// Members that call different splits, or pass invalid arguments on one member only, get an
// exception on every member instead of mismatched collectives.
TEST(Team, MismatchedSplitCallsAreReportedOnEveryMember) {
  if (P() < 2) {
    return;  // one member always agrees with itself
  }
  bool reported = false;
  try {
    if (me() == 0) {
      Team::All().split(1);
    } else {
      Team::All().split(2);
    }
  } catch (const dash::InvalidArgument& error) {
    reported = std::string(error.what()).find("the members of the team disagree") != std::string::npos;
  }
  EXPECT_TRUE(reported);
  reported = false;
  try {
    if (me() == 0) {
      Team::All().split(1);
    } else {
      Team::All().split_by(0, 0);
    }
  } catch (const dash::InvalidArgument& error) {
    reported = std::string(error.what()).find("the members of the team disagree") != std::string::npos;
  }
  EXPECT_TRUE(reported);
  std::string message;
  try {
    Team::All().split_by(me() == P() - 1 ? -7 : 0, 0);
  } catch (const dash::InvalidArgument& error) {
    message = error.what();
  }
  if (me() == P() - 1) {
    EXPECT_EQ(message, "dash::Team::split_by: invalid argument 'color' = -7; expected a color >= 0 or "
                       "dash::Team::Undefined (-1)");
  } else {
    EXPECT_NE(message.find("another member passed invalid arguments"), std::string::npos) << message;
  }
  // A bad number of table holders on one member, and valid but different ones.
  for (const int wrong : {P() + 1, 1}) {
    message.clear();
    try {
      Team::All().split_by(0, 0, {.algorithm = SplitAlgorithm::parallel_sort_distributed_table,
                                  .table_holders = me() == 0 ? wrong : P()});
    } catch (const dash::InvalidArgument& error) {
      message = error.what();
    }
    if (me() == 0 && wrong > P()) {
      EXPECT_EQ(message, "dash::Team::split_by: invalid argument 'options.table_holders' = " + std::to_string(wrong) +
                             "; expected 0 (the sorters hold the table) or a number of holders in [1, " +
                             std::to_string(P()) + "] (the team size)");
    } else {
      EXPECT_NE(message.find("the members of the team disagree"), std::string::npos) << message;
    }
  }
}

// split_by_locality groups exactly the processes that share the place, as the MPI oracle
// (MPI_Comm_split_type for nodes) and the places every process reports say.
TEST(Team, SplitByLocalityGroupsProcessesThatShareThePlace) {
  MPI_Comm node_comm = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me(), MPI_INFO_NULL, &node_comm);
  const std::vector<int> node_members = members_of(node_comm);
  MPI_Comm_free(&node_comm);
  const dash::comm::Locality& place = dash::comm::locality();
  std::vector<int> places(3 * static_cast<std::size_t>(P()));
  const int mine[3] = {place.node, place.numa_domain, place.core};
  MPI_Allgather(mine, 3, MPI_INT, places.data(), 3, MPI_INT, MPI_COMM_WORLD);
  const auto sharing = [&](int field_count) {
    std::vector<int> members;
    for (int r = 0; r < P(); ++r) {
      bool same = true;
      for (int field = 0; field < field_count; ++field) {
        same = same && places[static_cast<std::size_t>(3 * r + field)] == mine[field];
      }
      if (same) {
        members.push_back(r);
      }
    }
    return members;
  };
  Team& node = Team::All().split_by_locality(dash::Scope::Node);
  Team& numa = Team::All().split_by_locality(dash::Scope::NUMA);
  Team& core = Team::All().split_by_locality(dash::Scope::Core);
  EXPECT_EQ(members_of(node), node_members);
  EXPECT_EQ(place.node_size, static_cast<int>(node_members.size()));
  EXPECT_EQ(members_of(node), sharing(1));
  EXPECT_EQ(members_of(numa), sharing(2));
  std::vector<int> same_core;
  for (int r = 0; r < P(); ++r) {
    if (places[static_cast<std::size_t>(3 * r)] == place.node && places[static_cast<std::size_t>(3 * r + 2)] == place.core) {
      same_core.push_back(r);
    }
  }
  EXPECT_EQ(members_of(core), same_core);
  // Also below the top: the node part of a half.
  Team& half = Team::All().split(P() >= 2 ? 2 : 1);
  Team& half_node = half.split_by_locality(dash::Scope::Node);
  std::vector<int> expected;
  for (const int member : members_of(half)) {
    if (places[static_cast<std::size_t>(3 * member)] == place.node) {
      expected.push_back(member);
    }
  }
  EXPECT_EQ(members_of(half_node), expected);
  EXPECT_TRUE(allreduce_sees_members(half_node));
}

}  // namespace
