// Short blocking calls whose plan runs in lockstep, one round after the other
// (Execution::run_in_rounds; docs/collectives.md "Engine").

#include <string>
#include <utility>

#include <mpi.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "engine/execution_state.hpp"

namespace dash::comm::detail {

using schedule::Action;
using schedule::ActionKind;

void Execution::Impl::run_in_rounds(ExecutionSetup s, const Group& g, int t) {
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

bool Execution::Impl::exchanged_blocking(std::uint32_t first, std::uint32_t end) {
  std::uint32_t send = no_step;
  std::uint32_t receive = no_step;
  for (std::uint32_t id = first; id < end; ++id) {
    const Action& action = *plan->steps[id].action;
    if (!action.is_message()) {
      continue;
    }
    std::uint32_t& slot = action.kind == ActionKind::send ? send : receive;
    if (slot != no_step) {
      return false;
    }
    slot = id;
  }
  if (send == no_step && receive == no_step) {
    return true;
  }
  const MPI_Comm comm = group->comm();
  if (receive == no_step) {
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
  if (send == no_step) {
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
  check_arrived(receive, status, true, send == no_step ? "dash::comm engine: MPI_Recv" : "dash::comm engine: MPI_Sendrecv");
  const Action& action = *plan->steps[receive].action;
  if (action.kind == ActionKind::receive_reduce) {
    combine_into(action, steps[receive].staging.data(), nullptr);
  }
  release_message(steps[receive]);
  return true;
}

void Execution::Impl::wait_for_round() {
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

}  // namespace dash::comm::detail
