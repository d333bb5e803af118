#pragma once
// The library's process-wide runtime state: whether it is initialised, the base communicator, the
// world's ranks, MPI's thread level and ownership, the configuration dash::init read, and which
// initialisation is running. dash::init and dash::finalize (environment.hpp) set it; every part
// of the library reads it here, so that no part depends on the code that starts them all.
//
// The accessors throw dash::InvalidState before dash::init and after dash::finalize.

#include <cstddef>

#include <mpi.h>

#include <dash/comm/config.hpp>

namespace dash {

bool is_initialized() noexcept;
// True once dash::finalize has run and the library has not been initialised again since.
bool is_finalized() noexcept;

// This process's rank in MPI_COMM_WORLD and the number of processes.
int myid();
std::size_t size();

}  // namespace dash

namespace dash::comm {

// The library's own duplicate of MPI_COMM_WORLD (MPI_ERRORS_RETURN).
MPI_Comm base_comm();
// The thread support MPI actually provides.
ThreadLevel provided_thread_level();
// True when dash::init called MPI_Init_thread (and dash::finalize will call MPI_Finalize).
bool owns_mpi();
// The configuration read by dash::init.
const Config& config();
// Which initialisation of the library is running (1 for the first; an application that owns MPI
// may finalise and initialise dash again): caches of what one run decided compare it, in this
// layer and above.
unsigned runtime_generation();
// The largest tag the base communicator carries (its MPI_TAG_UB; MPI guarantees at least 32767).
int tag_upper_bound();

}  // namespace dash::comm
