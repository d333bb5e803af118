#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm::detail {

namespace {

using schedule::Action;
using schedule::ActionKind;
using schedule::BlockSet;
using schedule::Buffer;

enum class StepState : std::uint8_t { waiting, posted, arrived, done };

struct Step {
  const Action* action = nullptr;
  std::uint32_t round = 0;
  int base_peer = -1;
  int unmet = 0;  // unfinished steps this one depends on
  std::vector<std::uint32_t> dependents;
  std::vector<std::uint32_t> final_output_blocks;  // output blocks this step leaves final
  StepState state = StepState::waiting;
  MPI_Datatype derived = MPI_DATATYPE_NULL;
  std::vector<std::byte> staging;
};

// A message's memory: either one contiguous range or a derived datatype over the buffer base.
struct MessageMemory {
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  MPI_Datatype derived = MPI_DATATYPE_NULL;
};

}  // namespace

struct Execution::Impl {
  ExecutionSetup setup;
  Group group;
  int tag;
  std::vector<std::byte> scratch;
  std::vector<Step> steps;
  std::vector<std::deque<std::uint32_t>> send_order;     // per peer: unposted sends
  std::vector<std::deque<std::uint32_t>> receive_order;  // per peer: unposted receives
  std::vector<std::size_t> unfinished_per_round;
  std::uint32_t lowest_round = 0;
  std::size_t sends_ahead = 0;     // in flight, from rounds above lowest_round
  std::size_t receives_ahead = 0;
  std::vector<MPI_Request> requests;
  std::vector<std::uint32_t> request_steps;
  std::vector<std::uint32_t> candidates;
  std::vector<std::uint32_t> held_by_window;
  std::deque<std::uint32_t> arrivals;
  std::size_t unfinished = 0;

  Impl(ExecutionSetup s, const Group& g, int t) : setup(std::move(s)), group(g), tag(t) {
    const auto scratch_bytes = setup.schedule.scratch_blocks == 0
                                   ? std::size_t{0}
                                   : setup.layout.offset(setup.schedule.scratch_blocks - 1) +
                                         setup.layout.bytes(setup.schedule.scratch_blocks - 1);
    scratch.resize(scratch_bytes);
    build_steps();
    if (setup.output_ready_at_start) {
      for (std::uint32_t b = 0; b < setup.output_blocks; ++b) {
        arrivals.push_back(b);
      }
    }
    for (std::uint32_t id = 0; id < static_cast<std::uint32_t>(steps.size()); ++id) {
      candidates.push_back(id);
    }
    pump();
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

  void build_steps() {
    const auto p = static_cast<std::size_t>(group.size());
    send_order.resize(p);
    receive_order.resize(p);
    const auto& rounds = setup.schedule.rounds;
    unfinished_per_round.assign(rounds.size(), 0);
    // Per (buffer, block): the last step that wrote it and the steps that read it since.
    std::unordered_map<std::uint64_t, std::uint32_t> last_writer;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> readers;
    std::vector<std::uint32_t> output_writer(setup.output_blocks, UINT32_MAX);
    auto key = [](Buffer buffer, std::uint32_t block) {
      return std::uint64_t{static_cast<std::uint8_t>(buffer)} << 32 | block;
    };
    for (std::uint32_t r = 0; r < rounds.size(); ++r) {
      for (const Action& action : rounds[r].actions) {
        const auto id = static_cast<std::uint32_t>(steps.size());
        Step& step = steps.emplace_back();
        step.action = &action;
        step.round = r;
        ++unfinished_per_round[r];
        ++unfinished;
        std::vector<std::uint32_t> prerequisites;
        auto read = [&](Buffer buffer, const BlockSet& blocks) {
          for (std::uint32_t t = 0; t < blocks.size(); ++t) {
            const std::uint64_t k = key(buffer, blocks[t]);
            if (const auto w = last_writer.find(k); w != last_writer.end()) {
              prerequisites.push_back(w->second);
            }
            readers[k].push_back(id);
          }
        };
        auto write = [&](Buffer buffer, const BlockSet& blocks) {
          for (std::uint32_t t = 0; t < blocks.size(); ++t) {
            const std::uint64_t k = key(buffer, blocks[t]);
            if (const auto w = last_writer.find(k); w != last_writer.end()) {
              prerequisites.push_back(w->second);
            }
            if (auto rd = readers.find(k); rd != readers.end()) {
              for (const std::uint32_t reader : rd->second) {
                if (reader != id) {
                  prerequisites.push_back(reader);
                }
              }
              rd->second.clear();
            }
            last_writer[k] = id;
            if (buffer == Buffer::output) {
              output_writer[blocks[t]] = id;
            }
          }
        };
        switch (action.kind) {
          case ActionKind::send:
            read(action.buffer, action.blocks);
            break;
          case ActionKind::receive:
            write(action.buffer, action.blocks);
            break;
          case ActionKind::receive_reduce:
          case ActionKind::reduce:
            if (action.kind == ActionKind::reduce) {
              read(action.source, action.source_blocks);
            }
            read(action.buffer, action.blocks);
            write(action.buffer, action.blocks);
            break;
          case ActionKind::copy:
            read(action.source, action.source_blocks);
            write(action.buffer, action.blocks);
            break;
        }
        std::sort(prerequisites.begin(), prerequisites.end());
        prerequisites.erase(std::unique(prerequisites.begin(), prerequisites.end()), prerequisites.end());
        step.unmet = static_cast<int>(prerequisites.size());
        for (const std::uint32_t before : prerequisites) {
          steps[before].dependents.push_back(id);
        }
        if (action.is_message()) {
          step.base_peer = group.base_rank(action.peer);
          auto& order = action.kind == ActionKind::send ? send_order : receive_order;
          order[static_cast<std::size_t>(action.peer)].push_back(id);
        }
      }
    }
    for (std::uint32_t b = 0; b < setup.output_blocks; ++b) {
      if (output_writer[b] != UINT32_MAX) {
        steps[output_writer[b]].final_output_blocks.push_back(b);
      }
    }
  }

  // The memory of `blocks` in `buffer` as one range, or as a derived datatype if it is scattered.
  MessageMemory memory_of(Buffer buffer, const BlockSet& blocks) {
    MessageMemory memory;
    memory.base = base_of(buffer);
    std::vector<std::pair<std::size_t, std::size_t>> ranges;  // (offset, bytes), merged
    for (std::uint32_t t = 0; t < blocks.size(); ++t) {
      const std::size_t offset = setup.layout.offset(blocks[t]);
      const std::size_t bytes = setup.layout.bytes(blocks[t]);
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
    if (ranges.size() == 1) {
      memory.base += ranges.front().first;
    } else if (ranges.size() > 1) {
      memory.derived = indexed_bytes(ranges);
    }
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

  bool may_run_ahead(const Step& step) const {
    if (step.round <= lowest_round) {
      return true;
    }
    return step.action->kind == ActionKind::send ? sends_ahead < setup.window.sends
                                                 : receives_ahead < setup.window.receives;
  }

  void track(std::uint32_t id, MPI_Request request) {
    requests.push_back(request);
    request_steps.push_back(id);
    Step& step = steps[id];
    step.state = StepState::posted;
    if (step.round > lowest_round) {
      ++(step.action->kind == ActionKind::send ? sends_ahead : receives_ahead);
    }
  }

  void post_send(std::uint32_t id) {
    Step& step = steps[id];
    const MessageMemory memory = memory_of(step.action->buffer, step.action->blocks);
    MPI_Request request = MPI_REQUEST_NULL;
    if (memory.derived != MPI_DATATYPE_NULL) {
      step.derived = memory.derived;
      check_mpi(MPI_Isend(memory.base, 1, memory.derived, step.base_peer, tag, group.comm(), &request),
                "dash::comm engine: MPI_Isend");
    } else {
      const MessageCount count(memory.bytes, MPI_BYTE, "dash::comm engine");
      check_mpi(MPI_Isend(memory.base, count.count(), count.type(), step.base_peer, tag, group.comm(), &request),
                "dash::comm engine: MPI_Isend");
    }
    track(id, request);
  }

  void post_receive(std::uint32_t id) {
    Step& step = steps[id];
    MPI_Request request = MPI_REQUEST_NULL;
    if (step.action->kind == ActionKind::receive_reduce) {
      std::size_t bytes = 0;
      for (std::uint32_t t = 0; t < step.action->blocks.size(); ++t) {
        bytes += setup.layout.bytes(step.action->blocks[t]);
      }
      step.staging.resize(bytes);
      const MessageCount count(bytes, MPI_BYTE, "dash::comm engine");
      check_mpi(MPI_Irecv(step.staging.data(), count.count(), count.type(), step.base_peer, tag, group.comm(),
                          &request),
                "dash::comm engine: MPI_Irecv");
    } else {
      const MessageMemory memory = memory_of(step.action->buffer, step.action->blocks);
      if (memory.derived != MPI_DATATYPE_NULL) {
        step.derived = memory.derived;
        check_mpi(MPI_Irecv(memory.base, 1, memory.derived, step.base_peer, tag, group.comm(), &request),
                  "dash::comm engine: MPI_Irecv");
      } else {
        const MessageCount count(memory.bytes, MPI_BYTE, "dash::comm engine");
        check_mpi(MPI_Irecv(memory.base, count.count(), count.type(), step.base_peer, tag, group.comm(), &request),
                  "dash::comm engine: MPI_Irecv");
      }
    }
    track(id, request);
  }

  void combine_into(const Action& action, const std::byte* incoming_base, Buffer incoming_buffer,
                    const BlockSet* incoming_blocks) {
    std::byte* target = base_of(action.buffer);
    const bool left = action.operand == schedule::Operand::incoming_left;
    std::size_t packed = 0;
    for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
      const std::uint32_t block = action.blocks[t];
      const std::byte* incoming = incoming_blocks == nullptr
                                      ? incoming_base + packed
                                      : base_of(incoming_buffer) + setup.layout.offset((*incoming_blocks)[t]);
      if (setup.layout.count(block) > 0) {
        setup.reduction.combine(setup.reduction.op, incoming, target + setup.layout.offset(block),
                                setup.layout.count(block), left);
      }
      packed += setup.layout.bytes(block);
    }
  }

  void run_local(std::uint32_t id) {
    const Action& action = *steps[id].action;
    if (action.kind == ActionKind::copy) {
      std::byte* target = base_of(action.buffer);
      const std::byte* source = base_of(action.source);
      for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
        const std::size_t bytes = setup.layout.bytes(action.blocks[t]);
        if (bytes > 0) {
          std::memmove(target + setup.layout.offset(action.blocks[t]),
                       source + setup.layout.offset(action.source_blocks[t]), bytes);
        }
      }
    } else {
      combine_into(action, nullptr, action.source, &action.source_blocks);
    }
    finish(id);
  }

  void finish(std::uint32_t id) {
    Step& step = steps[id];
    if (step.derived != MPI_DATATYPE_NULL) {
      MPI_Type_free(&step.derived);
    }
    step.staging.clear();
    step.staging.shrink_to_fit();
    step.state = StepState::done;
    --unfinished;
    for (const std::uint32_t block : step.final_output_blocks) {
      arrivals.push_back(block);
    }
    for (const std::uint32_t next : step.dependents) {
      if (--steps[next].unmet == 0) {
        candidates.push_back(next);
      }
    }
    if (--unfinished_per_round[step.round] == 0) {
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
    // Steps of the new lowest round no longer count against the window, and may have been
    // held back by it.
    for (const std::uint32_t id : request_steps) {
      const Step& step = steps[id];
      if (step.round > before && step.round <= lowest_round) {
        --(step.action->kind == ActionKind::send ? sends_ahead : receives_ahead);
      }
    }
    release_window();
  }

  void release_window() {
    candidates.insert(candidates.end(), held_by_window.begin(), held_by_window.end());
    held_by_window.clear();
  }

  // Starts what can start; returns once nothing more can without new messages.
  void pump() {
    while (!candidates.empty()) {
      const std::uint32_t id = candidates.back();
      candidates.pop_back();
      try_start(id);
    }
  }

  void try_start(std::uint32_t id) {
    Step& step = steps[id];
    const Action& action = *step.action;
    if (step.state == StepState::arrived) {
      if (step.unmet == 0) {
        combine_into(action, step.staging.data(), action.buffer, nullptr);
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
    const bool is_send = action.kind == ActionKind::send;
    auto& order = (is_send ? send_order : receive_order)[static_cast<std::size_t>(action.peer)];
    if (order.empty() || order.front() != id) {
      return;  // an earlier message to or from this peer goes first
    }
    const bool needs_inputs = action.kind != ActionKind::receive_reduce;
    if (needs_inputs && step.unmet != 0) {
      return;
    }
    if (!may_run_ahead(step)) {
      held_by_window.push_back(id);
      return;
    }
    if (is_send) {
      post_send(id);
    } else {
      post_receive(id);
    }
    order.pop_front();
    if (!order.empty()) {
      candidates.push_back(order.front());
    }
  }

  void on_completed(std::uint32_t id) {
    Step& step = steps[id];
    if (step.round > lowest_round) {
      --(step.action->kind == ActionKind::send ? sends_ahead : receives_ahead);
      release_window();
    }
    if (step.action->kind == ActionKind::receive_reduce) {
      step.state = StepState::arrived;
      candidates.push_back(id);
    } else {
      finish(id);
    }
  }

  bool progress() {
    pump();
    while (!requests.empty()) {
      std::vector<int> indices(requests.size());
      int completed = 0;
      check_mpi(MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &completed, indices.data(),
                             MPI_STATUSES_IGNORE),
                "dash::comm engine: MPI_Testsome");
      if (completed == MPI_UNDEFINED || completed == 0) {
        break;
      }
      std::vector<std::uint32_t> finished;
      for (int i = 0; i < completed; ++i) {
        finished.push_back(request_steps[static_cast<std::size_t>(indices[static_cast<std::size_t>(i)])]);
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
      for (const std::uint32_t id : finished) {
        on_completed(id);
      }
      pump();
    }
    return unfinished == 0;
  }
};

Execution::Execution(ExecutionSetup setup, const Group& group, int tag)
    : impl_(std::make_unique<Impl>(std::move(setup), group, tag)) {}

Execution::~Execution() {
  try {
    while (!impl_->progress()) {
    }
  } catch (const std::exception& error) {
    log(LogLevel::error, "a collective failed while its request was destroyed: ", error.what());
  }
}

bool Execution::progress() { return impl_->progress(); }

bool Execution::done() const noexcept { return impl_->unfinished == 0; }

std::optional<std::uint32_t> Execution::next_arrival() {
  if (impl_->arrivals.empty()) {
    return std::nullopt;
  }
  const std::uint32_t block = impl_->arrivals.front();
  impl_->arrivals.pop_front();
  return block;
}

}  // namespace dash::comm::detail
