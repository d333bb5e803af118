// The execution engine run on hand-written schedules: what it guarantees beyond the collectives
// built on it. Ranks 0 and 1 take part; the others only keep the world group's tag sequence.

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

namespace {

using dash::comm::Group;
using dash::comm::detail::BlockLayout;
using dash::comm::detail::Execution;
using dash::comm::detail::ExecutionSetup;
using dash::comm::schedule::BlockSet;
using dash::comm::schedule::Buffer;
using dash::comm::schedule::Schedule;

// One int per block, `blocks` blocks in each buffer.
Execution start(Schedule schedule, const int* input, int* output, std::uint32_t blocks, int tag) {
  ExecutionSetup setup;
  setup.plan = dash::comm::detail::make_plan(std::move(schedule), blocks);
  setup.input = reinterpret_cast<const std::byte*>(input);
  setup.output = reinterpret_cast<std::byte*>(output);
  setup.input_layout = BlockLayout{sizeof(int), 1, 1, nullptr};
  setup.output_layout = setup.input_layout;
  return Execution(std::move(setup), Group::world(), tag);
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

}  // namespace
