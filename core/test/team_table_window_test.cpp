// A split whose distributed table does not fit into one holder's segment of the table window: every
// member gets the same dash::BadAlloc, naming the holder, its rows and the window, and the team can
// split again. Runs with DASH_TABLE_WINDOW_BYTES=4096 (core/test/CMakeLists.txt), so that 256
// one-row splits fill a segment.

#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::SplitAlgorithm;
using dash::Team;

constexpr std::size_t window_bytes = 4096;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

bool allreduce_sees_members(const Team& team) {
  long expected = 0;
  for (int r = 0; r < static_cast<int>(team.size()); ++r) {
    expected += team.global_rank(r);
  }
  std::vector<long> mine{static_cast<long>(me())};
  std::vector<long> sum(1);
  dash::comm::allreduce(mine, sum, dash::plus{}, team);
  return sum[0] == expected;
}

// A team of one per process; fill_segment makes the calling process's segment full by splitting its own
// team (a collective of that process alone), each split leaving one row (12 bytes, 16 with the
// segment's 8-byte alignment) that the one-member team keeps until it is freed. The split that does
// not fit fails there alone, which is the one-member case of the error.
constexpr std::size_t splits_that_fit = window_bytes / 16;
const dash::SplitOptions distributed{.algorithm = SplitAlgorithm::parallel_sort_distributed_table};

std::string fill_segment(Team& alone) {
  for (std::size_t split = 0; split < splits_that_fit; ++split) {
    alone.split_by(0, 0, distributed).free();
  }
  try {
    alone.split_by(0, 0, distributed);
  } catch (const dash::BadAlloc& full) {
    return full.what();
  }
  return "no error";
}

// The message every member gets when member `member` of the team (process `process`) cannot hold
// its `rows` rows of a split's table in its full segment.
std::string no_room(int member, int process, int rows) {
  return "dash::Team::split_by: member " + std::to_string(member) + " of the team (process " +
         std::to_string(process) + ") has no room in its segment of the table window for its " +
         std::to_string(rows) + (rows == 1 ? " row" : " rows") +
         " of the split's distributed table: no free range of " + std::to_string(12 * rows) + " bytes, " +
         std::to_string(window_bytes) + " of " + std::to_string(window_bytes) +
         " bytes in use; raise DASH_TABLE_WINDOW_BYTES, free teams that are no longer needed (a team keeps the "
         "rows of its distributed-table splits until it is freed), or spread the table over more holders "
         "(SplitOptions::table_holders)";
}

// ... of a split with as many table holders as members.
std::string no_room_for_one_row(int member, int process) { return no_room(member, process, 1); }

// Only process 0's segment is full. A split of All() reversed (process 0 is its last member) in
// which every member holds one row fails on every member with the same error; the other members
// must not wait for the full one in the split's collectives.
TEST(TeamTableWindow, AFullSegmentOnOneHolderFailsTheSplitOnEveryMember) {
  const int n = P();
  Team& alone = Team::All().split(n);
  const std::string one_member_error = me() == 0 ? fill_segment(alone) : no_room_for_one_row(0, 0);
  EXPECT_EQ(one_member_error, no_room_for_one_row(0, 0));
  Team& reversed = Team::All().split_by(0, -me());
  const dash::SplitOptions one_row_each{.algorithm = SplitAlgorithm::parallel_sort_distributed_table,
                                        .table_holders = n};
  const std::string expected = no_room_for_one_row(n - 1, 0);
  std::string message;
  try {
    reversed.split_by(0, reversed.myid() % 3, one_row_each);
  } catch (const dash::BadAlloc& error) {
    message = error.what();
  }
  EXPECT_EQ(message, expected);
  bool ok = one_member_error == no_room_for_one_row(0, 0) && message == expected;

  // The failed split changed nothing: the team splits and runs collectives as before, and the same
  // split fails the same way while the segment stays full.
  Team& odd_even = reversed.split_by(reversed.myid() % 2, reversed.myid(), {.algorithm = SplitAlgorithm::conventional});
  ok = ok && allreduce_sees_members(odd_even) && allreduce_sees_members(reversed);
  std::string again;
  try {
    reversed.split_by(0, 0, one_row_each);
  } catch (const dash::BadAlloc& error) {
    again = error.what();
  }
  EXPECT_EQ(again, expected);
  ok = ok && again == expected;

  // Freeing the one-member teams returns their rows: the split fits now.
  alone.free();
  Team& split = reversed.split_by(0, reversed.myid() % 3, one_row_each);
  ok = ok && allreduce_sees_members(split) && split.stats().representation == "distributed table" &&
       split.stats().table_rows == 1;
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  reversed.free();
}

// Full segments on the first and the last process: every member names the same one, the lowest
// team rank (in All() reversed, the last process), with one row each or, with one holder per table
// group (every member holds the whole table), n rows each.
TEST(TeamTableWindow, SeveralFullSegmentsNameTheFirstMember) {
  const int n = P();
  Team& alone = Team::All().split(n);
  if (me() == 0 || me() == n - 1) {
    EXPECT_EQ(fill_segment(alone), no_room_for_one_row(0, me()));
  }
  Team& reversed = Team::All().split_by(0, -me());
  bool ok = true;
  for (const int holders : {n, 1}) {
    std::string message;
    try {
      reversed.split_by(0, 0, {.algorithm = SplitAlgorithm::parallel_sort_distributed_table, .table_holders = holders});
    } catch (const dash::BadAlloc& error) {
      message = error.what();
    }
    const int rows = n / holders;
    EXPECT_EQ(message, no_room(0, n - 1, rows)) << holders << " holders";
    ok = ok && message == no_room(0, n - 1, rows);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  alone.free();
  reversed.free();
}

}  // namespace
