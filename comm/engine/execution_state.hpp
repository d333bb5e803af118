#pragma once
// The state of one collective call on the engine (Execution::Impl): its plan, buffers and
// messages in flight, the window and fences, the arrivals. Its parts live in execution.cpp (the
// event-driven engine), execution_messages.cpp (message memory, posting, completion, failure) and
// round_runner.cpp (short blocking calls, round by round).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/schedule/schedule.hpp>

#include "engine/plan_steps.hpp"
#include "engine/progress_thread.hpp"

namespace dash::comm::detail {

enum class StepState : std::uint8_t { waiting, posted, arrived, done };

// A step's state in one execution of a plan.
struct RunningStep {
  int unmet = 0;                // unfinished prerequisites
  bool channel_open = false;    // the previous message of its channel was posted
  StepState state = StepState::waiting;
  MPI_Datatype derived = MPI_DATATYPE_NULL;
  std::vector<std::byte> staging;
  std::size_t expected_bytes = 0;  // a posted receive: the bytes its message must bring
};

// A message's memory: either one contiguous range or a derived datatype over the buffer base.
struct MessageMemory {
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  MPI_Datatype derived = MPI_DATATYPE_NULL;
};

struct Execution::Impl final : BackgroundWork {
  // With the progress thread on, it and the application's thread take turns under this lock.
  std::mutex lock;
  ProgressThread* background = nullptr;
  std::exception_ptr background_error;  // what progress in the background threw
  unsigned polls = 0;                   // Execution::progress calls that found the schedule unfinished
  ExecutionSetup setup;
  const Plan* plan = nullptr;
  std::optional<Group> group;  // set by start()
  int tag = 0;
  std::vector<std::byte> scratch;
  std::vector<RunningStep> steps;
  std::vector<std::size_t> unfinished_per_round;
  std::uint32_t lowest_round = 0;
  std::size_t sends_ahead = 0;  // in flight, from rounds above lowest_round
  std::size_t receives_ahead = 0;
  std::vector<MPI_Request> requests;
  std::vector<std::uint32_t> request_steps;
  std::vector<int> completed_indices;
  std::vector<MPI_Status> completed_statuses;
  std::vector<std::uint32_t> finished;
  // Steps that may be ready, a min-heap of step ids: what is ready starts in schedule order, so a
  // rank with several sends ready posts them in its rounds' order (popped from a stack, a binomial
  // tree's inner ranks served their smallest subtree first).
  std::vector<std::uint32_t> candidates;
  std::vector<std::uint32_t> held_by_window;
  std::vector<std::uint32_t> arrivals;
  std::size_t arrivals_taken = 0;
  std::size_t unfinished = 0;
  bool failed = false;  // progress threw: the schedule will not complete
  // The first message whose size differs from its receive's: the schedule still runs to its end,
  // so that no message of it is left unmatched, and then throws this.
  std::string size_mismatch;

  // (Re)starts this state object on a new call; vectors keep their capacity from earlier calls,
  // so a repeated collective allocates (almost) nothing here.
  void start(ExecutionSetup s, const Group& g, int t);

  // Takes on a call: its setup, group and tag, scratch space and a state per step; no message in
  // flight, no size mismatch seen.
  void bind(ExecutionSetup s, const Group& g, int t);

  // Drops the call's references (buffers, plan, group) once it is over.
  void release() {
    setup = ExecutionSetup{};
    plan = nullptr;
    group.reset();
  }

  std::byte* base_of(schedule::Buffer buffer) {
    switch (buffer) {
      case schedule::Buffer::input:
        return const_cast<std::byte*>(setup.input);  // MPI send buffers are const; never written
      case schedule::Buffer::output:
        return setup.output;
      case schedule::Buffer::scratch:
        break;
    }
    return scratch.data();
  }

  const BlockLayout& layout_of(schedule::Buffer buffer) const {
    return buffer == schedule::Buffer::input ? setup.input_layout : setup.output_layout;
  }

  // The memory of `blocks` in `buffer` as one range, or as a derived datatype if it is scattered.
  MessageMemory memory_of(schedule::Buffer buffer, const schedule::BlockSet& blocks);

  // A datatype of MPI_BYTE runs at the given offsets; runs beyond the int limit are split.
  static MPI_Datatype indexed_bytes(const std::vector<std::pair<std::size_t, std::size_t>>& ranges);

  bool is_send(std::uint32_t id) const { return plan->steps[id].action->kind == schedule::ActionKind::send; }

  bool may_run_ahead(std::uint32_t id) const;

  void track(std::uint32_t id, MPI_Request request);

  // A message step's memory, peer and mode: receives that combine land in the step's staging; a
  // scattered block set gets a derived datatype (kept in the step until it completes).
  struct Message {
    std::byte* base = nullptr;
    int peer = 0;  // in the base communicator
    bool synchronous = false;
    MessageCount count;
  };

  Message message_of(std::uint32_t id);

  void post_message(std::uint32_t id);

  void combine_into(const schedule::Action& action, const std::byte* packed_incoming, const schedule::BlockSet* incoming_blocks);

  void run_local(std::uint32_t id) {
    apply_local(*plan->steps[id].action);
    finish(id);
  }

  // A copy or reduce between the call's buffers.
  void apply_local(const schedule::Action& action);

  // Frees what a step's message held.
  void release_message(RunningStep& step) {
    if (step.derived != MPI_DATATYPE_NULL) {
      MPI_Type_free(&step.derived);
    }
    step.staging.clear();
  }

  void finish(std::uint32_t id);

  void advance_lowest_round();

  void release_window() {
    for (const std::uint32_t id : held_by_window) {
      add_candidate(id);
    }
    held_by_window.clear();
  }

  void add_candidate(std::uint32_t id) {
    candidates.push_back(id);
    std::push_heap(candidates.begin(), candidates.end(), std::greater<>());
  }

  // Starts what can start; returns once nothing more can without new messages.
  void pump();

  void try_start(std::uint32_t id);

  void on_completed(std::uint32_t id);

  bool progress();

  // Posts what may start and retires completed messages.
  void exchange();

  // Tests the messages in flight; false if none completed, else true with their steps in
  // `finished`, checked and no longer in `requests`.
  bool retire_completed();

  // The whole schedule now, one round after the other: a round's messages are posted in schedule
  // order, its local actions run while they travel, and the next round starts once all of them
  // completed. No dependency bookkeeping, no window, no arrival list: a blocking call has no one
  // to report arrivals to. Throws as progress() does (a size mismatch once every round ran).
  void run_in_rounds(ExecutionSetup s, const Group& g, int t);

  // A round of one message, or of one send and one receive, as one blocking MPI call (MPI_Send,
  // MPI_Ssend, MPI_Recv, MPI_Sendrecv), which is what the round-by-round run would wait for anyway
  // and costs less than posting and testing (docs/collectives.md "Engine"). False, with nothing
  // started, for other rounds (and a synchronous send with a receive: there is no synchronous
  // MPI_Sendrecv).
  bool exchanged_blocking(std::uint32_t first, std::uint32_t end);

  // Completes the messages in flight, combining what receive-reduces brought as it arrives, and
  // advances the process's other collectives while waiting (progress_all_collectives).
  void wait_for_round();

  // A completed message of step `id`: throws unless it succeeded; a receive that brought other
  // than the bytes it expects is remembered in size_mismatch. MPI completes a receive of a shorter
  // message without complaint (and a longer one cut to its size), so the schedule would end with
  // stale data where members disagree about a variable-size call's counts.
  void check_arrived(std::uint32_t id, const MPI_Status& status, bool in_status,
                     std::string_view call = "dash::comm engine: MPI_Testsome");

  bool complete() const { return unfinished == 0 && !setup.argument_check; }

  // The progress thread's share (BackgroundWork): skip a turn while the application progresses.
  bool progress_in_background() noexcept override;

  std::unique_lock<std::mutex> turn_if_shared() {
    return background != nullptr ? std::unique_lock(lock) : std::unique_lock<std::mutex>();
  }

  // After a failure the schedule cannot finish (peers may never send what it waits for): cancel
  // the receives (a cancelled receive completes at once) and let MPI retire the sends on its
  // own, instead of waiting forever.
  void abandon() noexcept;
};

}  // namespace dash::comm::detail
