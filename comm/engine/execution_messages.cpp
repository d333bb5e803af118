// The engine's messages: their memory (one range or a derived datatype), posting, completion
// and its checks, and abandoning the messages of a failed call.

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/mpi_call.hpp>

#include "engine/execution_state.hpp"
#include "engine/received_bytes.hpp"

namespace dash::comm::detail {

using schedule::Action;
using schedule::ActionKind;
using schedule::BlockSet;
using schedule::Buffer;

inline MessageMemory Execution::Impl::memory_of(Buffer buffer, const BlockSet& blocks) {
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

MPI_Datatype Execution::Impl::indexed_bytes(const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
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

Execution::Impl::Message Execution::Impl::message_of(std::uint32_t id) {
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

void Execution::Impl::post_message(std::uint32_t id) {
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

bool Execution::Impl::retire_completed() {
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

void Execution::Impl::check_arrived(std::uint32_t id, const MPI_Status& status, bool in_status,
                   std::string_view call) {
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

void Execution::Impl::abandon() noexcept {
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

}  // namespace dash::comm::detail
