#pragma once
// The runtime environment: initialisation, finalisation and the world's ranks.
//
// dash::init initialises MPI unless the application already did; in the latter case dash adopts
// MPI and leaves MPI_Finalize to the application. Either way the library works on its own
// duplicate of MPI_COMM_WORLD (base_comm()) with MPI_ERRORS_RETURN, so MPI failures surface as
// dash::MpiError and library traffic never matches application messages.
//
// Misuse throws dash::InvalidState: init twice, finalize without init or while a collective this
// process started is still running (its request not yet complete), any call that needs the
// library before init or after finalize. When dash initialised MPI itself, dash::finalize calls
// MPI_Finalize and the library cannot be initialised again in that process; when the application
// owns MPI, init/finalize may be repeated while MPI is alive.

#include <dash/comm/runtime.hpp>

namespace dash {

// Collective over MPI_COMM_WORLD.
void init(int* argc, char*** argv);
void init();
// Collective over MPI_COMM_WORLD. Frees the library's communicators; calls MPI_Finalize if
// dash::init initialised MPI.
void finalize();

// is_initialized, is_finalized, myid, size: runtime.hpp.

// Collective over all processes; latency ~ ceil(log2 P) message rounds, no payload.
void barrier();

// RAII form: init in the constructor, finalize in the destructor.
class Environment {
public:
  Environment();
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Environment(Environment&&) = delete;
  Environment& operator=(Environment&&) = delete;
};

}  // namespace dash

// dash::comm::base_comm, provided_thread_level, owns_mpi, config: runtime.hpp.
