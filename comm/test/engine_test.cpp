// The execution engine run on hand-written schedules: what it guarantees beyond the collectives
// built on it, and the round-by-round runner of short blocking calls (Execution::run_in_rounds).
// Ranks 0 and 1 take part; the others only keep the world group's tag sequence.

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/schedule.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "engine/plan.hpp"
#include "thrown_message.hpp"

namespace {

using dash::comm::Group;
using dash::comm::detail::BlockLayout;
using dash::comm::detail::Execution;
using dash::comm::detail::ExecutionSetup;
using dash::testing::mentions;
using dash::testing::thrown_message;
using dash::comm::schedule::BlockSet;
using dash::comm::schedule::Buffer;
using dash::comm::schedule::Operand;
using dash::comm::schedule::Schedule;
using dash::comm::schedule::detail::add_copy;
using dash::comm::schedule::detail::add_receive;
using dash::comm::schedule::detail::add_receive_reduce;
using dash::comm::schedule::detail::add_send;

void add_ints(const void*, const std::byte* incoming, std::byte* target, std::size_t count, bool) {
  for (std::size_t i = 0; i < count; ++i) {
    reinterpret_cast<int*>(target)[i] += reinterpret_cast<const int*>(incoming)[i];
  }
}

// One int per block, `blocks` blocks in each buffer; blocks combine by +.
ExecutionSetup setup_of(Schedule schedule, const int* input, int* output, std::uint32_t blocks) {
  ExecutionSetup setup;
  setup.plan = dash::comm::detail::make_plan(std::move(schedule), blocks);
  setup.input = reinterpret_cast<const std::byte*>(input);
  setup.output = reinterpret_cast<std::byte*>(output);
  setup.input_layout = BlockLayout{sizeof(int), 1, 1, nullptr};
  setup.output_layout = setup.input_layout;
  setup.reduction.combine = add_ints;
  return setup;
}

Execution start(Schedule schedule, const int* input, int* output, std::uint32_t blocks, int tag) {
  return Execution(setup_of(std::move(schedule), input, output, blocks), Group::world(), tag);
}

void complete(Execution& execution) {
  while (!execution.progress()) {
  }
}

// What rank 0 sends rank 1 right after starting its execution, on the execution's communicator
// and tag: distinct from every value the schedules move.
constexpr int started_marker = -100;

// Rank 0 receives from rank 1 in round 0 and sends to rank 1 in round 1, from a block the receive
// does not touch: the send's own inputs are ready at once. Rank 0 starts its execution, drives it
// once, then sends rank 1 the marker on the same communicator and tag; rank 1 sends its part only
// after its first receive from rank 0 completed. MPI does not let a message overtake an earlier
// one of the same sender, communicator and tag, so rank 1's first receive holds the round 1 data
// exactly when rank 0 posted that send before the marker, that is, before rank 1 sent anything.
// Returns whether it did (on rank 1).
bool second_round_send_arrives_first(bool fence) {
  const int tag = Group::world().next_tag();
  const int rank = dash::myid();
  const std::array<int, 1> input{100 + rank};
  std::array<int, 1> output{-1};
  bool early = false;
  if (rank == 0) {
    Schedule schedule;
    dash::comm::schedule::detail::add_receive(schedule.add_round(), 1, Buffer::output, BlockSet::range(0, 1));
    auto& second = schedule.add_round();
    second.fence = fence;
    dash::comm::schedule::detail::add_send(second, 1, Buffer::input, BlockSet::range(0, 1));
    Execution execution = start(std::move(schedule), input.data(), output.data(), 1, tag);
    execution.progress();
    MPI_Send(&started_marker, static_cast<int>(sizeof(int)), MPI_BYTE, 1, tag, Group::world().comm());
    complete(execution);
    EXPECT_EQ(output[0], 101);
  } else if (rank == 1) {
    Schedule receiving;
    dash::comm::schedule::detail::add_receive(receiving.add_round(), 0, Buffer::output, BlockSet::range(0, 1));
    Execution receive = start(std::move(receiving), input.data(), output.data(), 1, tag);
    complete(receive);
    const int first = output[0];
    early = first != started_marker;
    Schedule sending;
    dash::comm::schedule::detail::add_send(sending.add_round(), 0, Buffer::input, BlockSet::range(0, 1));
    Execution send = start(std::move(sending), input.data(), output.data(), 1, tag);
    complete(send);
    int second = -1;
    MPI_Recv(&second, static_cast<int>(sizeof(int)), MPI_BYTE, 0, tag, Group::world().comm(), MPI_STATUS_IGNORE);
    // Both of rank 0's messages came, one after the other.
    EXPECT_EQ(std::multiset<int>({first, second}), std::multiset<int>({100, started_marker}));
  }
  return early;
}

TEST(EngineFence, HoldsALaterSendUntilTheEarlierRoundsFinished) {
  const bool early = second_round_send_arrives_first(true);
  EXPECT_FALSE(early) << "rank 0 sent its fenced round before its round 0 receive completed";
}

TEST(EngineFence, WithoutOneASendWithReadyInputsRunsAhead) {
  // The contrast that shows the test above can see a send that runs ahead.
  const bool early = second_round_send_arrives_first(false);
  EXPECT_EQ(early, dash::myid() == 1)
      << "rank 0's round 1 send, ready at its start, came after the marker it sent later";
}

// Two rounds with the peer (rank 0 with 1): round 0 sends input block 0, receives the peer's into
// output block 1 and copies input block 0 to output block 0; round 1 sends output block 1 back
// (what the peer sent: it needs round 0) or, with `send_input`, input block 1 (ready at the
// start), and adds what the peer sends into output block 0.
Schedule there_and_back(int peer, bool send_input) {
  Schedule schedule;
  auto& first = schedule.add_round();
  add_send(first, peer, Buffer::input, BlockSet::range(0, 1));
  add_receive(first, peer, Buffer::output, BlockSet::range(1, 1));
  add_copy(first, Buffer::input, BlockSet::range(0, 1), Buffer::output, BlockSet::range(0, 1));
  auto& second = schedule.add_round();
  add_send(second, peer, send_input ? Buffer::input : Buffer::output, BlockSet::range(1, 1));
  add_receive_reduce(second, peer, Buffer::output, BlockSet::range(0, 1), Operand::incoming_left);
  return schedule;
}

TEST(EngineRounds, APlanRunsInLockstepWhenEveryLaterSendNeedsTheRoundBefore) {
  EXPECT_TRUE(dash::comm::detail::runs_in_lockstep(*dash::comm::detail::make_plan(there_and_back(1, false), 2)));
  EXPECT_FALSE(dash::comm::detail::runs_in_lockstep(*dash::comm::detail::make_plan(there_and_back(1, true), 2)));
}

TEST(EngineRounds, RunsEveryRoundAndCombinesWhatArrives) {
  const int tag = Group::world().next_tag();
  const int rank = dash::myid();
  if (rank > 1 || dash::size() < 2) {
    return;
  }
  const int peer = 1 - rank;
  for (const bool send_input : {false, true}) {
    const std::array<int, 2> input{100 + rank, 200 + rank};
    std::array<int, 2> output{-1, -1};
    Execution::run_in_rounds(setup_of(there_and_back(peer, send_input), input.data(), output.data(), 2),
                             Group::world(), tag);
    // Block 0: this rank's value plus what came back in round 1, its own (relayed) or the peer's input block 1.
    EXPECT_EQ(output[0], 100 + rank + (send_input ? 200 + peer : 100 + rank));
    EXPECT_EQ(output[1], 100 + peer);
  }
}

// A round of two messages each way runs on non-blocking MPI; rounds of one send and one receive as
// one blocking exchange: both kinds complete in order.
TEST(EngineRounds, RunsRoundsOfSeveralMessagesEachWay) {
  const int tag = Group::world().next_tag();
  const int rank = dash::myid();
  if (rank > 1 || dash::size() < 2) {
    return;
  }
  const int peer = 1 - rank;
  const std::array<int, 4> input{10 * rank + 1, 10 * rank + 2, 10 * rank + 3, 10 * rank + 4};
  std::array<int, 4> output{-1, -1, -1, -1};
  Schedule schedule;
  auto& both = schedule.add_round();
  add_send(both, peer, Buffer::input, BlockSet::range(0, 1));
  add_send(both, peer, Buffer::input, BlockSet::range(1, 1));
  add_receive(both, peer, Buffer::output, BlockSet::range(0, 1));
  add_receive(both, peer, Buffer::output, BlockSet::range(1, 1));
  auto& back = schedule.add_round();
  add_send(back, peer, Buffer::output, BlockSet::range(0, 2));
  add_receive(back, peer, Buffer::output, BlockSet::range(2, 2));
  Execution::run_in_rounds(setup_of(std::move(schedule), input.data(), output.data(), 4), Group::world(), tag);
  // Blocks 0-1: the peer's first two; blocks 2-3: this rank's own, relayed back by the peer.
  EXPECT_EQ(output, (std::array<int, 4>{10 * peer + 1, 10 * peer + 2, 10 * rank + 1, 10 * rank + 2}));
}

// Rank 0 sends rank 1 one block or three where rank 1 expects two: rank 1 throws once its round
// ended, naming the sender and the bytes; rank 0 completes; nothing is left unmatched.
TEST(EngineRounds, AMessageOfAnotherSizeThrowsOnTheReceiverAfterTheRound) {
  for (const std::uint32_t sent : {1u, 3u}) {
    const int tag = Group::world().next_tag();
    const int rank = dash::myid();
    if (rank > 1 || dash::size() < 2) {
      continue;
    }
    const std::array<int, 3> input{1, 2, 3};
    std::array<int, 3> output{-1, -1, -1};
    Schedule schedule;
    if (rank == 0) {
      add_send(schedule.add_round(), 1, Buffer::input, BlockSet::range(0, sent));
    } else {
      add_receive(schedule.add_round(), 0, Buffer::output, BlockSet::range(0, 2));
    }
    const std::string error = thrown_message([&] {
      Execution::run_in_rounds(setup_of(std::move(schedule), input.data(), output.data(), 3), Group::world(), tag);
    });
    if (rank == 0) {
      EXPECT_EQ(error, "");
    } else {
      const std::string what = sent == 1 ? "4 of the 8 bytes" : "more than the 8 bytes";
      EXPECT_TRUE(mentions(error, "member 0 sent this member " + what)) << error;
    }
  }
  // The world's tag sequence and messages are intact.
  std::array<int, 1> mine{dash::myid()};
  std::array<int, 1> sum{-1};
  dash::comm::allreduce(mine, sum, dash::plus{});
  EXPECT_EQ(sum[0], static_cast<int>(dash::size() * (dash::size() - 1) / 2));
}

}  // namespace
