// The execution engine run on hand-written schedules: what it guarantees beyond the collectives
// built on it. Ranks 0 and 1 take part; the others only keep the world group's tag sequence.

#include <array>
#include <cstddef>
#include <cstdint>
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

// Polls for up to `seconds`; true if the execution completed meanwhile.
bool completes_within(Execution& execution, double seconds) {
  const double start = MPI_Wtime();
  while (MPI_Wtime() - start < seconds) {
    if (execution.progress()) {
      return true;
    }
  }
  return false;
}

// Rank 0 receives from rank 1 in round 0 and sends to rank 1 in round 1, from a block the receive
// does not touch: the send's own inputs are ready at once. Rank 1 posts its receive first and
// sends only after it looked whether rank 0's message came early. Returns whether it did.
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
    complete(execution);
    EXPECT_EQ(output[0], 101);
  } else if (rank == 1) {
    Schedule receiving;
    dash::comm::schedule::detail::add_receive(receiving.add_round(), 0, Buffer::output, BlockSet::range(0, 1));
    Execution receive = start(std::move(receiving), input.data(), output.data(), 1, tag);
    // Without a fence rank 0 sends at once; with one, never before this rank's send below.
    early = completes_within(receive, fence ? 0.3 : 30.0);
    Schedule sending;
    dash::comm::schedule::detail::add_send(sending.add_round(), 0, Buffer::input, BlockSet::range(0, 1));
    Execution send = start(std::move(sending), input.data(), output.data(), 1, tag);
    complete(send);
    complete(receive);
    EXPECT_EQ(output[0], 100);
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
  EXPECT_EQ(early, dash::myid() == 1) << "rank 1 did not receive rank 0's round 1 send before sending itself";
}

}  // namespace
