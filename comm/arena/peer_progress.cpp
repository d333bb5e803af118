#include <thread>

#include <mpi.h>

#include <dash/comm/mpi_call.hpp>
#include <dash/comm/peer_progress.hpp>
#include <dash/comm/runtime.hpp>

namespace dash::comm {
namespace {

// Not MPI_COMM_SELF: MPICH's ch4 device answers probes on communicators of one process from its
// own queue without entering the network's progress engine, so a peer's MPI_Get from this
// process's window did not complete (mpi_team deadlocked at 3 ranks). Not the world group's
// communicator either: a probe that matches a waiting message returns before the engine runs.
// No message is ever sent on this one.
MPI_Comm probe_comm = MPI_COMM_NULL;

}  // namespace

void drive_peer_progress() {
  if (!dash::is_initialized() || probe_comm == MPI_COMM_NULL) {
    return;
  }
  int flag = 0;
  check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, probe_comm, &flag, MPI_STATUS_IGNORE),
            "dash::comm::drive_peer_progress: MPI_Iprobe");
}

void yield_to_peers() {
  drive_peer_progress();
  std::this_thread::yield();
}

namespace detail {

void open_peer_progress() {
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &probe_comm), "dash::init: MPI_Comm_dup (peer progress)");
}

void close_peer_progress() {
  if (probe_comm != MPI_COMM_NULL) {
    check_mpi(MPI_Comm_free(&probe_comm), "dash::finalize: MPI_Comm_free (peer progress)");
  }
}

}  // namespace detail
}  // namespace dash::comm
