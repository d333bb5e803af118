#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "runtime/collective_outcome.hpp"

namespace dash::comm::detail {

bool succeeded_on_every_member(int code, MPI_Comm comm) {
  const int failed_here = code != MPI_SUCCESS ? 1 : 0;
  int failed_somewhere = 0;
  check_mpi(MPI_Allreduce(&failed_here, &failed_somewhere, 1, MPI_INT, MPI_MAX, comm),
            "dash::comm: MPI_Allreduce (agreement after a collective call)");
  return failed_somewhere == 0;
}

void throw_failed_on_some_member(int code, std::string_view call) {
  check_mpi(code, call);
  throw MpiError(std::string(call), MPI_ERR_OTHER, MPI_ERR_OTHER,
                 "the call failed on another member of the communicator; this member unwinds with it");
}

}  // namespace dash::comm::detail
