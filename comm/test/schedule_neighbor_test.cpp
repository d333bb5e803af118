// Neighbourhood all-to-all schedules: the direct exchange is verified symbolically on 1-, 2- and
// 3-D grids (periodic, not, and mixed; dimensions of size 1 and 2) for every P in 1..256 and
// sampled P up to 4096, and every rank sends exactly one message to each neighbour that exists
// and is not itself. Unoptimised builds (Debug, sanitizers) sweep P <= 32 and a sample up to 256,
// and the large grids at about a quarter of the size.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/neighbor_alltoall.hpp>
#include <dash/comm/schedule/verifier.hpp>

#include "grid_names.hpp"

namespace {

using dash::testing::describe;
using dash::testing::periodicity;

using namespace dash::comm;
using namespace dash::comm::schedule;

constexpr std::uint32_t segment_counts[] = {0, 1, 3};

#ifdef __OPTIMIZE__
constexpr bool optimized_build = true;
#else
constexpr bool optimized_build = false;
#endif

CollectiveShape shape_of(const CartesianGrid& grid, std::uint32_t segments) {
  CollectiveShape shape;
  shape.collective = Coll::neighbor_alltoall;
  shape.size = grid.size();
  shape.segments = segments;
  shape.grid = std::make_shared<const CartesianGrid>(grid);
  return shape;
}

// Grids of p ranks: 1-D periodic and not; every 2-D factorisation with all four periodicities;
// every 3-D factorisation a <= b <= c, in that order and reversed, with one periodicity each
// (cycling through all eight); size-1 dimensions around a 1-D grid.
std::vector<CartesianGrid> grids_of(int p) {
  std::vector<CartesianGrid> grids;
  grids.emplace_back(std::vector<int>{p}, periodicity(0, 1));
  grids.emplace_back(std::vector<int>{p}, periodicity(1, 1));
  unsigned pattern = 0;
  for (int a = 1; a <= p; ++a) {
    if (p % a != 0) {
      continue;
    }
    for (unsigned mask = 0; mask < 4; ++mask) {
      grids.emplace_back(std::vector<int>{a, p / a}, periodicity(mask, 2));
    }
    for (int b = a; b <= p / a / b; ++b) {
      if (p / a % b == 0) {
        const int c = p / a / b;
        grids.emplace_back(std::vector<int>{a, b, c}, periodicity(pattern++ % 8, 3));
        grids.emplace_back(std::vector<int>{c, b, a}, periodicity(pattern++ % 8, 3));
      }
    }
  }
  grids.emplace_back(std::vector<int>{1, p, 1}, periodicity(0b101, 3));
  grids.emplace_back(std::vector<int>{1, p, 1}, periodicity(0b010, 3));
  return grids;
}

// Verifies the direct exchange on `grid` and checks its counts against the grid: every rank
// sends one message of S blocks per slot whose neighbour is another rank, all in one round.
void check_direct(const CartesianGrid& grid, std::uint32_t s) {
  const CollectiveShape shape = shape_of(grid, s);
  const std::string where = describe(grid) + " S=" + std::to_string(s);
  const VerificationReport report = verify(shape, [&](int rank) { return neighbor_alltoall_direct(shape, rank); });
  ASSERT_TRUE(report.ok) << where << ": " << report.error;

  std::size_t total = 0;
  std::size_t most = 0;
  for (int rank = 0; rank < grid.size(); ++rank) {
    // (peer, first block) of every message the rank must send and receive.
    std::multiset<std::pair<int, std::uint32_t>> sends_expected;
    std::multiset<std::pair<int, std::uint32_t>> receives_expected;
    for (int slot = 0; slot < grid.neighbor_slots(); ++slot) {
      const auto neighbor = grid.neighbor_in_slot(rank, slot);
      if (neighbor && *neighbor != rank) {
        sends_expected.emplace(*neighbor, static_cast<std::uint32_t>(slot) * s);
        receives_expected.emplace(*neighbor, static_cast<std::uint32_t>(slot) * s);
      }
    }
    const Schedule schedule = neighbor_alltoall_direct(shape, rank);
    ASSERT_LE(schedule.rounds.size(), 1u) << where;
    std::multiset<std::pair<int, std::uint32_t>> sends;
    std::multiset<std::pair<int, std::uint32_t>> receives;
    for (const Round& round : schedule.rounds) {
      for (const Action& action : round.actions) {
        if (!action.is_message()) {
          continue;
        }
        EXPECT_EQ(action.blocks.size(), s) << where << " rank " << rank;
        EXPECT_TRUE(action.blocks.is_contiguous(shape.input_blocks(rank))) << where << " rank " << rank;
        (action.kind == ActionKind::send ? sends : receives).emplace(action.peer, s > 0 ? action.blocks[0] : 0u);
      }
    }
    EXPECT_EQ(sends, sends_expected) << where << " rank " << rank;
    EXPECT_EQ(receives, receives_expected) << where << " rank " << rank;
    total += sends_expected.size();
    most = std::max(most, sends_expected.size());
  }
  const ScheduleMetrics& m = report.metrics;
  const std::size_t rounds = total > 0 ? 1 : 0;
  EXPECT_EQ(m.max_communication_rounds, rounds) << where;
  EXPECT_EQ(m.max_messages_sent, most) << where;
  EXPECT_EQ(m.total_messages, total) << where;
  EXPECT_EQ(m.max_blocks_sent, most * s) << where;
  EXPECT_EQ(m.total_blocks_sent, total * s) << where;
  EXPECT_EQ(m.critical_startups, static_cast<double>(rounds)) << where;
  EXPECT_EQ(m.critical_blocks, static_cast<double>(rounds * s)) << where;
  EXPECT_EQ(m.critical_reduced_blocks, 0) << where;
}

// Unoptimised builds (a far slower verifier; docs/testing.md) sweep P <= 32 and a sample above.
bool swept(int p) {
  constexpr int sample[] = {36, 48, 60, 64, 96, 120, 128, 180, 210, 240, 251, 256};
  return optimized_build || p <= 32 || std::find(std::begin(sample), std::end(sample), p) != std::end(sample);
}

void check_every_p(int first, int last) {
  for (int p = first; p <= last; ++p) {
    if (!swept(p)) {
      continue;
    }
    for (const CartesianGrid& grid : grids_of(p)) {
      for (const std::uint32_t s : segment_counts) {
        check_direct(grid, s);
        if (::testing::Test::HasFatalFailure()) {
          return;
        }
      }
    }
  }
}

TEST(ScheduleNeighbor, DirectForEveryGridUpToP64) { check_every_p(1, 64); }

TEST(ScheduleNeighbor, DirectForEveryGridFromP65To160) { check_every_p(65, 160); }

TEST(ScheduleNeighbor, DirectForEveryGridFromP161To256) { check_every_p(161, 256); }

TEST(ScheduleNeighbor, DirectOnSmallAndDegenerateGrids) {
  const std::vector<CartesianGrid> grids = {
      CartesianGrid({}, {}),                                   // no neighbours at all
      CartesianGrid({1}, {true}),                              // its own neighbour: local copies
      CartesianGrid({1, 1, 1}, {true, false, true}),           // copies, and an edge on both sides
      CartesianGrid({2}, {true}),                              // both neighbours are the other rank
      CartesianGrid({2, 2}, {true, true}),                     // ... in two dimensions
      CartesianGrid({2, 1, 2, 3}, {true, true, false, true}),  // mixed
      CartesianGrid({3, 2, 1}, {false, true, true}),
  };
  for (const CartesianGrid& grid : grids) {
    for (const std::uint32_t s : segment_counts) {
      check_direct(grid, s);
    }
  }
}

// Up to 4096 ranks in optimised builds; unoptimised ones (a far slower verifier) take the same
// shapes at about a quarter of the size.
TEST(ScheduleNeighbor, DirectOnLargeGrids) {
  const std::vector<CartesianGrid> grids =
      optimized_build ? std::vector<CartesianGrid>{CartesianGrid({4096}, {true}),
                                                   CartesianGrid({64, 64}, {true, false}),
                                                   CartesianGrid({16, 16, 16}, {false, true, true}),
                                                   CartesianGrid(std::vector<int>(12, 2), std::vector<bool>(12, true)),
                                                   CartesianGrid({2, 2048}, {true, false}),
                                                   CartesianGrid({1, 4096, 1}, {true, false, false}),
                                                   CartesianGrid({3, 1000}, {true, true}),
                                                   CartesianGrid({7, 13, 29}, {false, false, false})}
                      : std::vector<CartesianGrid>{CartesianGrid({1024}, {true}),
                                                   CartesianGrid({32, 32}, {true, false}),
                                                   CartesianGrid({8, 8, 16}, {false, true, true}),
                                                   CartesianGrid(std::vector<int>(10, 2), std::vector<bool>(10, true)),
                                                   CartesianGrid({2, 512}, {true, false}),
                                                   CartesianGrid({1, 1024, 1}, {true, false, false}),
                                                   CartesianGrid({3, 300}, {true, true}),
                                                   CartesianGrid({7, 13, 11}, {false, false, false})};
  for (const CartesianGrid& grid : grids) {
    for (const std::uint32_t s : {1u, 3u}) {
      check_direct(grid, s);
    }
  }
}

// Two ranks on a periodic ring of two: the order of the two messages between them is what tells
// the down slot from the up slot. Receiving from below first would swap the output slots.
TEST(ScheduleNeighbor, VerifierCatchesSwappedSlotsInAPeriodicDimensionOfTwo) {
  const CollectiveShape shape = shape_of(CartesianGrid({2}, {true}), 1);
  const VerificationReport swapped = verify(shape, [&](int rank) {
    Schedule schedule = neighbor_alltoall_direct(shape, rank);
    auto& actions = schedule.rounds.at(0).actions;
    const auto first_receive = std::find_if(actions.begin(), actions.end(), [](const Action& action) {
      return action.kind == ActionKind::receive;
    });
    std::reverse(first_receive, actions.end());  // receive from below first, then from above
    return schedule;
  });
  ASSERT_FALSE(swapped.ok);
  EXPECT_NE(swapped.error.find("output block"), std::string::npos) << swapped.error;
}

// A rank at a non-periodic edge must leave the slot without a neighbour untouched.
TEST(ScheduleNeighbor, VerifierCatchesWritesToAnEdgeSlot) {
  const CollectiveShape shape = shape_of(CartesianGrid({3}, {false}), 1);
  const VerificationReport report = verify(shape, [&](int rank) {
    Schedule schedule = neighbor_alltoall_direct(shape, rank);
    if (rank == 0) {
      schedule.rounds.at(0).actions.push_back(
          Action::copy(Buffer::input, BlockSet::range(0, 1), Buffer::output, BlockSet::range(0, 1)));
    }
    return schedule;
  });
  ASSERT_FALSE(report.ok);
  EXPECT_NE(report.error.find("rank 0 output block 0"), std::string::npos) << report.error;
  EXPECT_NE(report.error.find("leaves it untouched"), std::string::npos) << report.error;
}

// The expected content is that of MPI, not merely "something from the neighbour": sending the
// block meant for the other side is caught.
TEST(ScheduleNeighbor, VerifierCatchesTheWrongInputSlot) {
  const CollectiveShape shape = shape_of(CartesianGrid({4}, {true}), 1);
  const VerificationReport report = verify(shape, [&](int rank) {
    Schedule schedule = neighbor_alltoall_direct(shape, rank);
    for (Action& action : schedule.rounds.at(0).actions) {
      if (action.kind == ActionKind::send) {
        action.blocks = BlockSet::range(action.blocks[0] ^ 1u, 1);
      }
    }
    return schedule;
  });
  ASSERT_FALSE(report.ok);
  EXPECT_NE(report.error.find("expected block"), std::string::npos) << report.error;
}

TEST(ScheduleNeighbor, GeneratorAndVerifierNeedAMatchingGrid) {
  CollectiveShape shape = shape_of(CartesianGrid({2, 3}, {true, false}), 1);
  shape.size = 5;
  try {
    (void)neighbor_alltoall_direct(shape, 0);
    ADD_FAILURE() << "a grid of 6 ranks accepted for 5";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::comm::schedule::neighbor_alltoall_direct: invalid argument 'shape.size' = 5; expected the "
                 "number of ranks of shape.grid, 6");
  }
  EXPECT_FALSE(verify(shape, [](int) { return Schedule{}; }).ok);
  shape.grid.reset();
  EXPECT_THROW((void)neighbor_alltoall_direct(shape, 0), dash::InvalidArgument);
  const VerificationReport report = verify(shape, [](int) { return Schedule{}; });
  EXPECT_FALSE(report.ok);
  EXPECT_NE(report.error.find("needs a grid of 5 ranks"), std::string::npos) << report.error;
}

TEST(ScheduleNeighbor, BlockCounts) {
  const CollectiveShape shape = shape_of(CartesianGrid({2, 3, 1}, {true, false, true}), 3);
  EXPECT_EQ(shape.input_blocks(0), 18u);
  EXPECT_EQ(shape.output_blocks(5), 18u);
  EXPECT_EQ(to_string(Coll::neighbor_alltoall), "neighbor_alltoall");
}

}  // namespace
