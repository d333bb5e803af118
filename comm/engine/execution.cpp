// The execution engine (include/dash/comm/detail/execution.hpp, docs/collectives.md "Engine").
//
// Map: Execution::Impl, one call's state: start / pump / try_start / post_message / exchange (the
// event-driven engine with its window and fences), run_in_rounds / exchanged_blocking /
// wait_for_round (short blocking calls, round by round), check_arrived (sizes and errors of what
// arrived), abandon (after a failure); the process's live and idle states, progress of the others
// (progress_all_collectives, wait_until_tag_is_free, collectives_running); the Execution handle.

#include <algorithm>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/comm/detail/bulk_copy.hpp>
#include <dash/comm/detail/collective_arena.hpp>
#include <dash/comm/detail/execution.hpp>
#include <dash/comm/detail/received_bytes.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>

#include "plan.hpp"
#include "progress_thread.hpp"

namespace dash::comm::detail {

namespace {

using schedule::Action;
using schedule::ActionKind;
using schedule::BlockSet;
using schedule::Buffer;

constexpr std::uint32_t none = no_step;

enum class StepState : std::uint8_t { waiting, posted, arrived, done };

// A step's state in one execution of a plan->
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

}  // namespace

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
  void start(ExecutionSetup s, const Group& g, int t) {
    bind(std::move(s), g, t);
    background_error = nullptr;
    unfinished = steps.size();
    unfinished_per_round = plan->steps_per_round;
    lowest_round = 0;
    sends_ahead = 0;
    receives_ahead = 0;
    failed = false;
    held_by_window.clear();
    arrivals.clear();
    arrivals_taken = 0;
    if (setup.output_ready_at_start) {
      for (std::uint32_t b = 0; b < plan->output_blocks; ++b) {
        arrivals.push_back(b);
      }
    }
    candidates.clear();
    for (std::uint32_t id = 0; id < steps.size(); ++id) {
      RunningStep& step = steps[id];
      step.unmet = plan->steps[id].prerequisites;
      step.channel_open = plan->steps[id].first_in_channel;
      step.state = StepState::waiting;
      step.derived = MPI_DATATYPE_NULL;
      candidates.push_back(id);  // ascending: already a min-heap
    }
    advance_lowest_round();
    pump();
  }

  // Takes on a call: its setup, group and tag, scratch space and a state per step; no message in
  // flight, no size mismatch seen.
  void bind(ExecutionSetup s, const Group& g, int t) {
    setup = std::move(s);
    plan = setup.plan.get();
    group.emplace(g);
    tag = t;
    const std::uint32_t scratch_blocks = plan->schedule.scratch_blocks;
    scratch.resize(scratch_blocks == 0 ? 0
                                       : setup.output_layout.offset(scratch_blocks - 1) +
                                             setup.output_layout.bytes(scratch_blocks - 1));
    steps.resize(plan->steps.size());
    size_mismatch.clear();
    requests.clear();
    request_steps.clear();
  }

  // Drops the call's references (buffers, plan, group) once it is over.
  void release() {
    setup = ExecutionSetup{};
    plan = nullptr;
    group.reset();
  }

  std::byte* base_of(Buffer buffer) {
    switch (buffer) {
      case Buffer::input:
        return const_cast<std::byte*>(setup.input);  // MPI send buffers are const; never written
      case Buffer::output:
        return setup.output;
      case Buffer::scratch:
        break;
    }
    return scratch.data();
  }

  const BlockLayout& layout_of(Buffer buffer) const {
    return buffer == Buffer::input ? setup.input_layout : setup.output_layout;
  }

  // The memory of `blocks` in `buffer` as one range, or as a derived datatype if it is scattered.
  MessageMemory memory_of(Buffer buffer, const BlockSet& blocks) {
    MessageMemory memory;
    memory.base = base_of(buffer);
    const BlockLayout& layout = layout_of(buffer);
    // Most messages are one contiguous range: find it without allocating.
    std::size_t first = 0;
    std::size_t end = 0;
    bool started = false;
    bool contiguous = true;
    for (std::uint32_t t = 0; t < blocks.size() && contiguous; ++t) {
      const std::size_t offset = layout.offset(blocks[t]);
      const std::size_t bytes = layout.bytes(blocks[t]);
      if (bytes == 0) {
        continue;
      }
      if (!started) {
        first = offset;
        end = offset + bytes;
        started = true;
      } else if (offset == end) {
        end += bytes;
      } else {
        contiguous = false;
      }
      memory.bytes += bytes;
    }
    if (contiguous) {
      memory.base += first;
      return memory;
    }
    memory.bytes = 0;
    std::vector<std::pair<std::size_t, std::size_t>> ranges;  // (offset, bytes), merged
    for (std::uint32_t t = 0; t < blocks.size(); ++t) {
      const std::size_t offset = layout.offset(blocks[t]);
      const std::size_t bytes = layout.bytes(blocks[t]);
      memory.bytes += bytes;
      if (bytes == 0) {
        continue;
      }
      if (!ranges.empty() && ranges.back().first + ranges.back().second == offset) {
        ranges.back().second += bytes;
      } else {
        ranges.emplace_back(offset, bytes);
      }
    }
    memory.derived = indexed_bytes(ranges);
    return memory;
  }

  // A datatype of MPI_BYTE runs at the given offsets; runs beyond the int limit are split.
  static MPI_Datatype indexed_bytes(const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
    const auto limit = static_cast<std::size_t>(int_count_limit());
    std::vector<int> lengths;
    std::vector<MPI_Aint> displacements;
    for (auto [offset, bytes] : ranges) {
      while (bytes > 0) {
        const std::size_t piece = std::min(bytes, limit);
        lengths.push_back(static_cast<int>(piece));
        displacements.push_back(static_cast<MPI_Aint>(offset));
        offset += piece;
        bytes -= piece;
      }
    }
    MPI_Datatype type = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_create_hindexed(to_int_count(lengths.size(), "dash::comm collective", "message runs"),
                                       lengths.data(), displacements.data(), MPI_BYTE, &type),
              "dash::comm engine: MPI_Type_create_hindexed");
    check_mpi(MPI_Type_commit(&type), "dash::comm engine: MPI_Type_commit");
    return type;
  }

  bool is_send(std::uint32_t id) const { return plan->steps[id].action->kind == ActionKind::send; }

  bool may_run_ahead(std::uint32_t id) const {
    const std::uint32_t round = plan->steps[id].round;
    if (round <= lowest_round) {
      return true;
    }
    if (is_send(id)) {
      return plan->fence_of_round[round] <= lowest_round && sends_ahead < setup.window.sends;
    }
    return receives_ahead < setup.window.receives;
  }

  void track(std::uint32_t id, MPI_Request request) {
    requests.push_back(request);
    request_steps.push_back(id);
    steps[id].state = StepState::posted;
    if (plan->steps[id].round > lowest_round) {
      ++(is_send(id) ? sends_ahead : receives_ahead);
    }
  }

  // A message step's memory, peer and mode: receives that combine land in the step's staging; a
  // scattered block set gets a derived datatype (kept in the step until it completes).
  struct Message {
    std::byte* base = nullptr;
    int peer = 0;  // in the base communicator
    bool synchronous = false;
    MessageCount count;
  };

  Message message_of(std::uint32_t id) {
    const Action& action = *plan->steps[id].action;
    RunningStep& step = steps[id];
    const int peer = group->base_rank(action.peer);
    if (action.kind == ActionKind::receive_reduce) {
      std::size_t bytes = 0;
      for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
        bytes += layout_of(action.buffer).bytes(action.blocks[t]);
      }
      step.staging.resize(bytes);
      step.expected_bytes = bytes;
      return Message{step.staging.data(), peer, false, MessageCount(bytes, MPI_BYTE, "dash::comm engine")};
    }
    const MessageMemory memory = memory_of(action.buffer, action.blocks);
    const bool derived = memory.derived != MPI_DATATYPE_NULL;
    step.derived = memory.derived;
    if (action.kind != ActionKind::send) {
      step.expected_bytes = memory.bytes;
    }
    // Sends that a later fenced round waits for travel synchronously from synchronous_send_bytes on.
    const bool synchronous = action.kind == ActionKind::send && plan->awaited_by_fence[plan->steps[id].round] &&
                             memory.bytes >= setup.synchronous_send_bytes;
    return Message{memory.base, peer, synchronous,
                   MessageCount(derived ? 1 : memory.bytes, derived ? memory.derived : MPI_BYTE, "dash::comm engine")};
  }

  void post_message(std::uint32_t id) {
    const Message message = message_of(id);
    const MPI_Comm comm = group->comm();
    MPI_Request request = MPI_REQUEST_NULL;
    const int count = message.count.count();
    const MPI_Datatype type = message.count.type();
    if (plan->steps[id].action->kind != ActionKind::send) {
      check_mpi(MPI_Irecv(message.base, count, type, message.peer, tag, comm, &request), "dash::comm engine: MPI_Irecv");
    } else if (message.synchronous) {
      check_mpi(MPI_Issend(message.base, count, type, message.peer, tag, comm, &request),
                "dash::comm engine: MPI_Issend");
    } else {
      check_mpi(MPI_Isend(message.base, count, type, message.peer, tag, comm, &request), "dash::comm engine: MPI_Isend");
    }
    track(id, request);
  }

  void combine_into(const Action& action, const std::byte* packed_incoming, const BlockSet* incoming_blocks) {
    std::byte* target = base_of(action.buffer);
    const BlockLayout& target_layout = layout_of(action.buffer);
    const bool left = action.operand == schedule::Operand::incoming_left;
    std::size_t packed = 0;
    for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
      const std::uint32_t block = action.blocks[t];
      const std::size_t count = target_layout.count(block);
      if (count > 0) {
        const std::byte* incoming =
            incoming_blocks == nullptr
                ? packed_incoming + packed
                : base_of(action.source) + layout_of(action.source).offset((*incoming_blocks)[t]);
        setup.reduction.combine(setup.reduction.op, incoming, target + target_layout.offset(block), count, left);
      }
      packed += target_layout.bytes(block);
    }
  }

  void run_local(std::uint32_t id) {
    apply_local(*plan->steps[id].action);
    finish(id);
  }

  // A copy or reduce between the call's buffers.
  void apply_local(const Action& action) {
    if (action.kind == ActionKind::copy) {
      std::byte* target = base_of(action.buffer);
      const std::byte* source = base_of(action.source);
      const BlockLayout& target_layout = layout_of(action.buffer);
      const BlockLayout& source_layout = layout_of(action.source);
      for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
        const std::size_t bytes = target_layout.bytes(action.blocks[t]);
        if (bytes > 0) {
          bulk_move(target + target_layout.offset(action.blocks[t]),
                    source + source_layout.offset(action.source_blocks[t]), bytes);
        }
      }
    } else {
      combine_into(action, nullptr, &action.source_blocks);
    }
  }

  // Frees what a step's message held.
  void release_message(RunningStep& step) {
    if (step.derived != MPI_DATATYPE_NULL) {
      MPI_Type_free(&step.derived);
    }
    step.staging.clear();
  }

  void finish(std::uint32_t id) {
    RunningStep& step = steps[id];
    release_message(step);
    step.state = StepState::done;
    --unfinished;
    const PlannedStep& planned = plan->steps[id];
    for (const std::uint32_t block : planned.final_output_blocks) {  // usually one or none
      arrivals.push_back(block);
    }
    for (const std::uint32_t next : planned.dependents) {
      if (--steps[next].unmet == 0) {
        add_candidate(next);
      }
    }
    if (--unfinished_per_round[planned.round] == 0) {
      advance_lowest_round();
    }
  }

  void advance_lowest_round() {
    const std::uint32_t before = lowest_round;
    while (lowest_round < unfinished_per_round.size() && unfinished_per_round[lowest_round] == 0) {
      ++lowest_round;
    }
    if (lowest_round == before) {
      return;
    }
    // Steps of the new lowest round no longer count against the window, and may have been held
    // back by it.
    for (const std::uint32_t id : request_steps) {
      const std::uint32_t round = plan->steps[id].round;
      if (round > before && round <= lowest_round) {
        --(is_send(id) ? sends_ahead : receives_ahead);
      }
    }
    release_window();
  }

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
  void pump() {
    while (!candidates.empty()) {
      std::pop_heap(candidates.begin(), candidates.end(), std::greater<>());
      const std::uint32_t id = candidates.back();
      candidates.pop_back();
      try_start(id);
    }
  }

  void try_start(std::uint32_t id) {
    RunningStep& step = steps[id];
    const PlannedStep& planned = plan->steps[id];
    const Action& action = *planned.action;
    if (step.state == StepState::arrived) {
      if (step.unmet == 0) {
        combine_into(action, step.staging.data(), nullptr);
        finish(id);
      }
      return;
    }
    if (step.state != StepState::waiting) {
      return;
    }
    if (!action.is_message()) {
      if (step.unmet == 0) {
        run_local(id);
      }
      return;
    }
    // Receives that combine land in staging, so they need no inputs to be posted.
    const bool needs_inputs = action.kind != ActionKind::receive_reduce;
    if (!step.channel_open || (needs_inputs && step.unmet != 0)) {
      return;
    }
    if (!may_run_ahead(id)) {
      held_by_window.push_back(id);
      return;
    }
    post_message(id);
    if (planned.next_in_channel != none) {
      steps[planned.next_in_channel].channel_open = true;
      add_candidate(planned.next_in_channel);
    }
  }

  void on_completed(std::uint32_t id) {
    if (plan->steps[id].round > lowest_round) {
      --(is_send(id) ? sends_ahead : receives_ahead);
      release_window();
    }
    if (plan->steps[id].action->kind == ActionKind::receive_reduce) {
      steps[id].state = StepState::arrived;
      add_candidate(id);
    } else {
      finish(id);
    }
  }

  bool progress() {
    try {
      exchange();
    } catch (const MpiError&) {
      // Members that disagree about the arguments can make MPI fail first: the disagreement,
      // which the check reports on every member, is the cause.
      while (setup.argument_check && !setup.argument_check->test()) {
      }
      throw;
    }
    if (setup.argument_check && setup.argument_check->test()) {
      setup.argument_check.reset();
    }
    if (complete() && !size_mismatch.empty()) {
      throw InvalidArgument(std::exchange(size_mismatch, std::string()));
    }
    return complete();
  }

  // Posts what may start and retires completed messages.
  void exchange() {
    pump();
    while (retire_completed()) {
      for (const std::uint32_t id : finished) {
        on_completed(id);
      }
      pump();
    }
  }

  // Tests the messages in flight; false if none completed, else true with their steps in
  // `finished`, checked and no longer in `requests`.
  bool retire_completed() {
    if (requests.empty()) {
      return false;
    }
    completed_indices.resize(requests.size());
    completed_statuses.resize(requests.size());
    int completed = 0;
    const int code = MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &completed,
                                  completed_indices.data(), completed_statuses.data());
    if (code != MPI_ERR_IN_STATUS) {
      check_mpi(code, "dash::comm engine: MPI_Testsome");
    }
    if (completed == MPI_UNDEFINED || completed == 0) {
      return false;
    }
    finished.resize(static_cast<std::size_t>(completed));
    for (std::size_t i = 0; i < finished.size(); ++i) {
      finished[i] = request_steps[static_cast<std::size_t>(completed_indices[i])];
      check_arrived(finished[i], completed_statuses[i], code == MPI_ERR_IN_STATUS);
    }
    // Drop completed requests (MPI set them to MPI_REQUEST_NULL).
    std::size_t kept = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] != MPI_REQUEST_NULL) {
        requests[kept] = requests[i];
        request_steps[kept] = request_steps[i];
        ++kept;
      }
    }
    requests.resize(kept);
    request_steps.resize(kept);
    return true;
  }

  // The whole schedule now, one round after the other: a round's messages are posted in schedule
  // order, its local actions run while they travel, and the next round starts once all of them
  // completed. No dependency bookkeeping, no window, no arrival list: a blocking call has no one
  // to report arrivals to. Throws as progress() does (a size mismatch once every round ran).
  void run_in_rounds(ExecutionSetup s, const Group& g, int t) {
    bind(std::move(s), g, t);
    // With no other collective of this process running, nothing needs driving while MPI waits.
    const bool alone = !collectives_running();
    std::uint32_t first = 0;
    for (std::uint32_t r = 0; r < plan->steps_per_round.size(); ++r) {
      lowest_round = r;  // post_message counts nothing as running ahead
      const auto end = static_cast<std::uint32_t>(first + plan->steps_per_round[r]);
      if (!alone || !exchanged_blocking(first, end)) {
        for (std::uint32_t id = first; id < end; ++id) {
          if (plan->steps[id].action->is_message()) {
            post_message(id);
          }
        }
      }
      for (std::uint32_t id = first; id < end; ++id) {
        if (!plan->steps[id].action->is_message()) {
          apply_local(*plan->steps[id].action);
        }
      }
      wait_for_round();
      first = end;
    }
    if (!size_mismatch.empty()) {
      throw InvalidArgument(std::exchange(size_mismatch, std::string()));
    }
  }

  // A round of one message, or of one send and one receive, as one blocking MPI call (MPI_Send,
  // MPI_Ssend, MPI_Recv, MPI_Sendrecv), which is what the round-by-round run would wait for anyway:
  // under MPICH over TCP a broadcast's MPI_Recv took 0.5 us less than MPI_Irecv and a loop of
  // MPI_Testsome. False, with nothing started, for other rounds (and a synchronous send with a
  // receive: there is no synchronous MPI_Sendrecv).
  bool exchanged_blocking(std::uint32_t first, std::uint32_t end) {
    std::uint32_t send = none;
    std::uint32_t receive = none;
    for (std::uint32_t id = first; id < end; ++id) {
      const Action& action = *plan->steps[id].action;
      if (!action.is_message()) {
        continue;
      }
      std::uint32_t& slot = action.kind == ActionKind::send ? send : receive;
      if (slot != none) {
        return false;
      }
      slot = id;
    }
    if (send == none && receive == none) {
      return true;
    }
    const MPI_Comm comm = group->comm();
    if (receive == none) {
      const Message out = message_of(send);
      const int code = out.synchronous ? MPI_Ssend(out.base, out.count.count(), out.count.type(), out.peer, tag, comm)
                                       : MPI_Send(out.base, out.count.count(), out.count.type(), out.peer, tag, comm);
      release_message(steps[send]);
      check_mpi(code, "dash::comm engine: MPI_Send");
      return true;
    }
    MPI_Status status;
    int code = MPI_SUCCESS;
    const Message in = message_of(receive);
    if (send == none) {
      code = MPI_Recv(in.base, in.count.count(), in.count.type(), in.peer, tag, comm, &status);
    } else {
      const Message out = message_of(send);
      if (out.synchronous) {
        release_message(steps[send]);
        release_message(steps[receive]);
        return false;
      }
      code = MPI_Sendrecv(out.base, out.count.count(), out.count.type(), out.peer, tag, in.base, in.count.count(),
                          in.count.type(), in.peer, tag, comm, &status);
      release_message(steps[send]);
    }
    // check_arrived judges the receive by its status: a message longer than the receive completes
    // it with MPI_ERR_TRUNCATE, any other error throws.
    status.MPI_ERROR = code;
    check_arrived(receive, status, true, send == none ? "dash::comm engine: MPI_Recv" : "dash::comm engine: MPI_Sendrecv");
    const Action& action = *plan->steps[receive].action;
    if (action.kind == ActionKind::receive_reduce) {
      combine_into(action, steps[receive].staging.data(), nullptr);
    }
    release_message(steps[receive]);
    return true;
  }

  // Completes the messages in flight, combining what receive-reduces brought as it arrives, and
  // advances the process's other collectives while waiting (progress_all_collectives).
  void wait_for_round() {
    unsigned idle_polls = 0;
    while (!requests.empty()) {
      if (!retire_completed()) {
        constexpr unsigned others_every_polls = 8;
        if (++idle_polls % others_every_polls == 0) {
          progress_all_collectives(this, nullptr);
        }
        continue;
      }
      for (const std::uint32_t id : finished) {
        const Action& action = *plan->steps[id].action;
        if (action.kind == ActionKind::receive_reduce) {
          combine_into(action, steps[id].staging.data(), nullptr);
        }
        release_message(steps[id]);
      }
    }
  }

  // A completed message of step `id`: throws unless it succeeded; a receive that brought other
  // than the bytes it expects is remembered in size_mismatch. MPI completes a receive of a shorter
  // message without complaint (and a longer one cut to its size), so the schedule would end with
  // stale data where members disagree about a variable-size call's counts.
  void check_arrived(std::uint32_t id, const MPI_Status& status, bool in_status,
                     std::string_view call = "dash::comm engine: MPI_Testsome") {
    const int error = in_status ? status.MPI_ERROR : MPI_SUCCESS;
    int error_class = MPI_SUCCESS;
    if (error != MPI_SUCCESS) {
      MPI_Error_class(error, &error_class);
      if (error_class != MPI_ERR_TRUNCATE) {
        check_mpi(error, call);
      }
    }
    if (is_send(id) || !size_mismatch.empty()) {
      return;
    }
    const std::size_t expected = steps[id].expected_bytes;
    const std::string received = unexpected_received_bytes(status, error_class == MPI_ERR_TRUNCATE, expected);
    if (received.empty()) {
      return;
    }
    const int peer = plan->steps[id].action->peer;
    size_mismatch = std::string(setup.function) + ": member " + std::to_string(peer) + " sent this member " +
                    (received == "more" ? "more than" : received + " of") + " the " + std::to_string(expected) +
                    " bytes its schedule expects: the members disagree about the call's sizes (in a variable-size "
                    "call, what member q sends member r must be what r expects from q)";
  }

  bool complete() const { return unfinished == 0 && !setup.argument_check; }

  // The progress thread's share (BackgroundWork): skip a turn while the application progresses.
  bool progress_in_background() noexcept override {
    const std::unique_lock turn(lock, std::try_to_lock);
    if (!turn.owns_lock()) {
      return false;
    }
    if (failed || background_error) {
      return true;
    }
    try {
      return progress();
    } catch (...) {
      background_error = std::current_exception();
      return true;
    }
  }

  std::unique_lock<std::mutex> turn_if_shared() {
    return background != nullptr ? std::unique_lock(lock) : std::unique_lock<std::mutex>();
  }

  // After a failure the schedule cannot finish (peers may never send what it waits for): cancel
  // the receives (a cancelled receive completes at once) and let MPI retire the sends on its
  // own, instead of waiting forever.
  void abandon() noexcept {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] == MPI_REQUEST_NULL) {
        continue;  // completed by the MPI_Testsome that failed
      }
      if (is_send(request_steps[i])) {
        MPI_Request_free(&requests[i]);
      } else {
        MPI_Cancel(&requests[i]);
        MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
      }
    }
    requests.clear();
    request_steps.clear();
    for (RunningStep& step : steps) {
      if (step.derived != MPI_DATATYPE_NULL) {
        MPI_Type_free(&step.derived);
      }
    }
    setup.argument_check.reset();
  }
};

// Finished executions' state objects, reused by the next calls (collectives are called from one
// thread at a time, docs/configuration.md).
std::vector<std::unique_ptr<Execution::Impl>>& Execution::idle_states() {
  static std::vector<std::unique_ptr<Impl>> states;
  return states;
}

std::vector<Execution::Impl*>& Execution::live_schedules() {
  static std::vector<Impl*> live;
  return live;
}

namespace {

// Set while progress_all_collectives runs (a schedule or run it advances must not come back here)
// and while an OthersWait lives.
bool others_wait = false;

}  // namespace

OthersWait::OthersWait() noexcept : was_(std::exchange(others_wait, true)) {}
OthersWait::~OthersWait() { others_wait = was_; }

void progress_all_collectives(const void* waiting_schedule, const CollectiveRun* waiting_run) {
  if (others_wait) {
    return;
  }
  const OthersWait driving;
  for (Execution::Impl* impl : Execution::live_schedules()) {
    // A schedule the progress thread holds is its to drive; a failed one waits for its owner.
    if (impl == waiting_schedule || impl->background != nullptr || impl->failed || impl->background_error ||
        impl->complete()) {
      continue;
    }
    try {
      impl->progress();
    } catch (...) {
      impl->background_error = std::current_exception();  // rethrown where its owner progresses
    }
  }
  if (CollectiveArena* arena = collective_arena()) {
    arena->progress_others(waiting_run);
  }
}

void wait_until_tag_is_free(int tag) {
  const auto running_on_tag = [tag] {
    for (Execution::Impl* impl : Execution::live_schedules()) {
      const auto turn = impl->turn_if_shared();
      const bool check_on_tag = impl->setup.argument_check && impl->setup.argument_check->tag() == tag;
      if (!impl->failed && !impl->complete() && (impl->tag == tag || check_on_tag)) {
        return true;
      }
    }
    return false;
  };
  while (running_on_tag()) {
    if (others_wait) {
      throw InvalidState("dash::comm: a collective needs tag " + std::to_string(tag) +
                         ", which a collective started earlier on its group still uses; every tag of the "
                         "group's tag space is taken by a running collective");
    }
    progress_all_collectives(nullptr, nullptr);
  }
}

bool collectives_running() {
  for (Execution::Impl* impl : Execution::live_schedules()) {
    const auto turn = impl->turn_if_shared();
    if (!impl->failed && !impl->complete()) {
      return true;
    }
  }
  const CollectiveArena* arena = collective_arena();
  return arena != nullptr && arena->has_unfinished_runs();
}

Execution::Execution() noexcept = default;

Execution::Execution(ExecutionSetup setup, const Group& group, int tag) {
  auto& idle = idle_states();
  if (idle.empty()) {
    impl_ = std::make_unique<Impl>();
  } else {
    impl_ = std::move(idle.back());
    idle.pop_back();
  }
  impl_->start(std::move(setup), group, tag);
  live_schedules().push_back(impl_.get());
  if (ProgressThread* thread = progress_thread(); thread != nullptr && !impl_->complete()) {
    impl_->background = thread;
    thread->attach(*impl_);
  }
}

void Execution::run_in_rounds(ExecutionSetup setup, const Group& group, int tag) {
  auto& idle = idle_states();
  std::unique_ptr<Impl> impl;
  if (idle.empty()) {
    impl = std::make_unique<Impl>();
  } else {
    impl = std::move(idle.back());
    idle.pop_back();
  }
  try {
    impl->run_in_rounds(std::move(setup), group, tag);
  } catch (...) {
    impl->abandon();
    throw;
  }
  impl->release();
  idle.push_back(std::move(impl));
}

Execution::Execution(std::unique_ptr<DirectRun> run) noexcept : direct_(std::move(run)) {}

Execution::Execution(Execution&& other) noexcept = default;

Execution& Execution::operator=(Execution&& other) noexcept {
  if (this != &other) {
    Execution finished(std::move(*this));  // completes the collective this handle held
    impl_ = std::move(other.impl_);
    direct_ = std::move(other.direct_);
  }
  return *this;
}

Execution::~Execution() {
  if (direct_ != nullptr) {
    try {
      while (!direct_->progress()) {
      }
    } catch (const std::exception& error) {
      log(LogLevel::error, "a collective failed while its request was destroyed: ", error.what());
    }
    return;
  }
  if (impl_ == nullptr) {
    return;
  }
  if (impl_->background != nullptr) {
    impl_->background->detach(*impl_);
    impl_->background = nullptr;
  }
  std::erase(live_schedules(), impl_.get());
  if (!impl_->failed && !impl_->background_error) {
    try {
      while (!impl_->progress()) {
      }
      impl_->release();
      constexpr std::size_t max_idle_states = 16;
      if (idle_states().size() < max_idle_states) {
        idle_states().push_back(std::move(impl_));
      }
      return;
    } catch (const std::exception& error) {
      log(LogLevel::error, "a collective failed while its request was destroyed: ", error.what());
    }
  }
  impl_->abandon();
}

bool Execution::progress() {
  if (direct_ != nullptr) {
    return direct_->progress();
  }
  if (impl_ == nullptr) {
    return true;
  }
  Impl& impl = *impl_;
  const auto turn = impl.turn_if_shared();
  if (impl.background_error) {
    impl.failed = true;
    std::rethrow_exception(std::exchange(impl.background_error, nullptr));
  }
  try {
    if (impl.progress()) {
      return true;
    }
  } catch (...) {
    impl.failed = true;
    throw;
  }
  // Other members may wait for a collective this process started before or after this one; every
  // few polls is enough.
  constexpr unsigned others_every_polls = 8;
  if (++impl.polls % others_every_polls == 0) {
    progress_all_collectives(&impl, nullptr);
  }
  return false;
}

bool Execution::done() const noexcept {
  if (direct_ != nullptr) {
    return direct_->done();
  }
  if (impl_ == nullptr) {
    return true;
  }
  const auto turn = impl_->turn_if_shared();
  return impl_->complete();
}

std::optional<std::uint32_t> Execution::next_arrival() {
  if (direct_ != nullptr) {
    return direct_->next_arrival();
  }
  if (impl_ == nullptr) {
    return std::nullopt;
  }
  const auto turn = impl_->turn_if_shared();
  if (impl_->arrivals_taken == impl_->arrivals.size()) {
    return std::nullopt;
  }
  return impl_->arrivals[impl_->arrivals_taken++];
}

}  // namespace dash::comm::detail
