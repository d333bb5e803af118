#pragma once
// Collective MPI calls that may fail on some members only.
//
// A window creation or an allocation can fail on one member (its memory, its registration with the
// network) while the others succeed. A member that throws at once leaves the others inside the
// next collective call, waiting for it: the job hangs. So every such call is followed by an
// agreement, and all members unwind the same way.

#include <string_view>

#include <mpi.h>

namespace dash::comm::detail {

// Collective over `comm`: true when `code` (each member's result of the same collective call) is
// MPI_SUCCESS on every member. Cost: one allreduce of one int.
bool succeeded_on_every_member(int code, MPI_Comm comm);

// After an agreement that `call` failed somewhere: throws dash::MpiError, with this member's own
// error if `code` failed here, otherwise naming the call as failed on another member.
[[noreturn]] void throw_failed_on_some_member(int code, std::string_view call);

}  // namespace dash::comm::detail
