#include <thread>

#include <mpi.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/peer_progress.hpp>

namespace dash::comm {

void drive_peer_progress() {
  if (!dash::is_initialized()) {
    return;
  }
  // MPI_COMM_SELF: probing matches nothing that anyone sends to this process by mistake, and any
  // call into MPI runs its progress engine for every communicator and window.
  // (On a communicator where a message waits, a probe may match at once and skip the engine.)
  int flag = 0;
  check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE),
            "dash::comm::drive_peer_progress: MPI_Iprobe");
}

void yield_to_peers() {
  drive_peer_progress();
  std::this_thread::yield();
}

}  // namespace dash::comm
