// The collective layer's doors for the layers above (docs/design.md §1): typed point-to-point
// messages between group ranks (comm/point_to_point.hpp) and the one-sided operations of a
// NodeWindow (transfers with requests, scattered pieces, atomics), each used here directly,
// without the core layer on top. Every access goes through the RMA window, also on one node.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/node_window.hpp>
#include <dash/comm/point_to_point.hpp>

#include "dash_testing.hpp"

namespace {

using dash::comm::Group;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

constexpr const char* function = "one_sided_and_messages_test";

// Ranks are group ranks: on the world reversed, group rank r is base rank P - 1 - r.
Group reversed_world() {
  const dash::comm::TagSpace tags{Group::world_tag_space().first + Group::world_tag_space().count, 1000};
  std::vector<int> backwards(static_cast<std::size_t>(P()));
  std::iota(backwards.rbegin(), backwards.rend(), 0);
  return Group::of_base_ranks(backwards, tags);
}

struct Record {
  std::int32_t from;
  double value;
};

TEST(PointToPoint, ARingOfBlockingMessagesBetweenGroupRanks) {
  const Group group = reversed_world();
  const int n = group.size();
  const int rank = group.rank();
  ASSERT_EQ(rank, P() - 1 - me());
  const int tag = group.next_tag();
  const std::vector<Record> mine{{rank, 0.5 * rank}, {rank, -1.0}};
  std::vector<Record> got(2);
  // Even ranks send first, odd ones receive first: no rank waits on another that waits too.
  const int next = (rank + 1) % n;
  const int previous = (rank + n - 1) % n;
  if (n == 1) {
    dash::comm::send_receive(std::span<const Record>(mine), std::span<Record>(got), group, 0, tag, function);
  } else if (rank % 2 == 0) {
    dash::comm::send(std::span<const Record>(mine), group, next, tag, function);
    dash::comm::receive(std::span<Record>(got), group, previous, tag, function);
  } else {
    dash::comm::receive(std::span<Record>(got), group, previous, tag, function);
    dash::comm::send(std::span<const Record>(mine), group, next, tag, function);
  }
  EXPECT_EQ(got[0].from, previous);
  EXPECT_EQ(got[0].value, 0.5 * previous);
  EXPECT_EQ(got[1].from, previous);
  EXPECT_EQ(got[1].value, -1.0);
}

TEST(PointToPoint, PendingMessagesToEveryMemberCompleteTogether) {
  const Group group = reversed_world();
  const int n = group.size();
  const int tag = group.next_tag();
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  std::vector<std::int64_t> in(static_cast<std::size_t>(n), -1);
  dash::comm::PendingMessages messages;
  for (int peer = 0; peer < n; ++peer) {
    out[static_cast<std::size_t>(peer)] = 1000 * group.rank() + peer;
    messages.start_receive(std::span<std::int64_t>(&in[static_cast<std::size_t>(peer)], 1), group, peer, tag, function);
    messages.start_send(std::span<const std::int64_t>(&out[static_cast<std::size_t>(peer)], 1), group, peer, tag,
                        function);
  }
  messages.wait();
  for (int peer = 0; peer < n; ++peer) {
    EXPECT_EQ(in[static_cast<std::size_t>(peer)], 1000 * peer + group.rank()) << "from group rank " << peer;
  }
}

TEST(NodeWindow, TransfersAndScatteredPiecesReachEveryMember) {
  constexpr std::size_t words = 8;
  dash::comm::NodeWindow window(dash::comm::base_comm(), words * sizeof(std::int64_t), false);
  auto* local = reinterpret_cast<std::int64_t*>(window.local().data());
  std::fill(local, local + words, -1);
  window.sync();
  MPI_Barrier(dash::comm::base_comm());
  window.sync();
  // Each process writes words 0 and 1 of the next one's memory, then its even words as pieces.
  const int next = (me() + 1) % P();
  const std::int64_t pair[2] = {10 * me(), 10 * me() + 1};
  window.start_put(next, 0, pair, sizeof(pair), function).wait();
  std::int64_t evens[3] = {100 * me() + 2, 100 * me() + 4, 100 * me() + 6};
  const std::vector<dash::comm::RmaPiece> pieces{
      {2 * sizeof(std::int64_t), reinterpret_cast<std::byte*>(&evens[0]), sizeof(std::int64_t)},
      {4 * sizeof(std::int64_t), reinterpret_cast<std::byte*>(&evens[1]), sizeof(std::int64_t)},
      {6 * sizeof(std::int64_t), reinterpret_cast<std::byte*>(&evens[2]), sizeof(std::int64_t)}};
  dash::comm::RmaRequest scattered = window.start_put(next, pieces, function);
  while (!scattered.test()) {
  }
  window.sync();
  MPI_Barrier(dash::comm::base_comm());
  window.sync();
  const int previous = (me() + P() - 1) % P();
  EXPECT_EQ(local[0], 10 * previous);
  EXPECT_EQ(local[1], 10 * previous + 1);
  EXPECT_EQ(local[2], 100 * previous + 2);
  EXPECT_EQ(local[3], -1);
  EXPECT_EQ(local[6], 100 * previous + 6);
  // And read back: the next one's odd words through pieces, its word 0 whole.
  std::int64_t odds[2] = {0, 0};
  const std::vector<dash::comm::RmaPiece> odd_pieces{
      {3 * sizeof(std::int64_t), reinterpret_cast<std::byte*>(&odds[0]), sizeof(std::int64_t)},
      {1 * sizeof(std::int64_t), reinterpret_cast<std::byte*>(&odds[1]), sizeof(std::int64_t)}};
  window.start_get(next, odd_pieces, function).wait();
  std::int64_t first = 0;
  window.start_get(next, 0, &first, sizeof(first), function).wait();
  EXPECT_EQ(odds[0], -1);
  EXPECT_EQ(odds[1], 10 * me() + 1);
  EXPECT_EQ(first, 10 * me());
  MPI_Barrier(dash::comm::base_comm());
}

TEST(NodeWindow, AtomicsOnOneElementFromEveryMember) {
  dash::comm::NodeWindow window(dash::comm::base_comm(), 2 * sizeof(std::uint64_t), false);
  auto* local = reinterpret_cast<std::uint64_t*>(window.local().data());
  local[0] = 0;
  local[1] = 0;
  window.sync();
  MPI_Barrier(dash::comm::base_comm());
  const auto P64 = static_cast<std::uint64_t>(P());
  const auto me64 = static_cast<std::uint64_t>(me());
  // Every member adds its rank + 1 to process 0's counter and sets its bit in the next word.
  const std::uint64_t before = window.fetch_and_op<std::uint64_t>(0, 0, me64 + 1, dash::comm::AtomicOp::sum, function);
  EXPECT_LE(before, P64 * (P64 + 1) / 2);
  window.fetch_and_op<std::uint64_t>(0, sizeof(std::uint64_t), std::uint64_t{1} << me64, dash::comm::AtomicOp::bit_or,
                                     function);
  MPI_Barrier(dash::comm::base_comm());
  EXPECT_EQ(window.fetch_and_op<std::uint64_t>(0, 0, 0, dash::comm::AtomicOp::no_op, function),
            P64 * (P64 + 1) / 2);
  EXPECT_EQ(window.fetch_and_op<std::uint64_t>(0, sizeof(std::uint64_t), 0, dash::comm::AtomicOp::no_op, function),
            (std::uint64_t{1} << P64) - 1);
  MPI_Barrier(dash::comm::base_comm());
  // One member wins the swap from the total to its own rank; the others see the winner's value.
  const std::uint64_t total = P64 * (P64 + 1) / 2;
  const std::uint64_t found = window.compare_and_swap<std::uint64_t>(0, 0, 1000 + me64, total, function);
  const int won = found == total ? 1 : 0;
  int winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, dash::comm::base_comm());
  EXPECT_EQ(winners, 1);
  if (found != total) {
    EXPECT_GE(found, 1000u);
  }
  window.atomic_store<std::uint64_t>(0, 0, 7, function);
  MPI_Barrier(dash::comm::base_comm());
  EXPECT_EQ(window.fetch_and_op<std::uint64_t>(0, 0, 0, dash::comm::AtomicOp::no_op, function), 7u);
  MPI_Barrier(dash::comm::base_comm());
}

}  // namespace
