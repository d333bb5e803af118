// The execution engine (include/dash/comm/detail/execution.hpp, docs/collectives.md "Engine").
//
// Map: Execution::Impl's event-driven engine (execution_state.hpp): start / bind / release, the
// window (may_run_ahead, track), local actions (combine_into, apply_local), finish and the lowest
// round, the candidate heap (pump, try_start), completions (on_completed, progress, exchange), the
// progress thread's share; then the process's live and idle states, progress of the others
// (progress_all_collectives, wait_until_tag_is_free, collectives_running) and the Execution
// handle; last Group::next_tag, which waits for its tag to come free. Messages are
// execution_messages.cpp's, the round-by-round runner round_runner.cpp's.

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

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>

#include "arena/collective_arena.hpp"
#include "engine/bulk_copy.hpp"
#include "engine/execution_state.hpp"
#include "engine/plan_steps.hpp"
#include "engine/progress_thread.hpp"
#include "engine/received_bytes.hpp"
#include "groups/group_state.hpp"

namespace dash::comm::detail {

using schedule::Action;
using schedule::ActionKind;
using schedule::BlockSet;

void Execution::Impl::start(ExecutionSetup s, const Group& g, int t) {
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

void Execution::Impl::bind(ExecutionSetup s, const Group& g, int t) {
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

bool Execution::Impl::may_run_ahead(std::uint32_t id) const {
  const std::uint32_t round = plan->steps[id].round;
  if (round <= lowest_round) {
    return true;
  }
  if (is_send(id)) {
    return plan->fence_of_round[round] <= lowest_round && sends_ahead < setup.window.sends;
  }
  return receives_ahead < setup.window.receives;
}

void Execution::Impl::track(std::uint32_t id, MPI_Request request) {
  requests.push_back(request);
  request_steps.push_back(id);
  steps[id].state = StepState::posted;
  if (plan->steps[id].round > lowest_round) {
    ++(is_send(id) ? sends_ahead : receives_ahead);
  }
}

void Execution::Impl::combine_into(const Action& action, const std::byte* packed_incoming, const BlockSet* incoming_blocks) {
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

void Execution::Impl::apply_local(const Action& action) {
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

void Execution::Impl::finish(std::uint32_t id) {
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

void Execution::Impl::advance_lowest_round() {
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

void Execution::Impl::pump() {
  while (!candidates.empty()) {
    std::pop_heap(candidates.begin(), candidates.end(), std::greater<>());
    const std::uint32_t id = candidates.back();
    candidates.pop_back();
    try_start(id);
  }
}

void Execution::Impl::try_start(std::uint32_t id) {
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
  if (planned.next_in_channel != no_step) {
    steps[planned.next_in_channel].channel_open = true;
    add_candidate(planned.next_in_channel);
  }
}

void Execution::Impl::on_completed(std::uint32_t id) {
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

bool Execution::Impl::progress() {
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

void Execution::Impl::exchange() {
  pump();
  while (retire_completed()) {
    for (const std::uint32_t id : finished) {
      on_completed(id);
    }
    pump();
  }
}

bool Execution::Impl::progress_in_background() noexcept {
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

namespace dash::comm {

// Defined beside the engine it waits for: the group, below the engine, only holds the sequence.
int Group::next_tag() const {
  State& state = detail::GroupAccess::state(*this);
  const auto offset = static_cast<int>(state.sequence++ % static_cast<unsigned long long>(state.tags.count));
  const int tag = state.tags.first + offset;
  detail::wait_until_tag_is_free(tag);  // the sequence wrapped onto a collective still running
  return tag;
}

}  // namespace dash::comm
