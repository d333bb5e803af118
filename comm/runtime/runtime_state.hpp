#pragma once
// The runtime state behind runtime.hpp, which dash::init and dash::finalize (environment.cpp) set.

#include <string_view>

#include <mpi.h>

#include <dash/comm/config.hpp>

namespace dash::comm::detail {

enum class RuntimePhase { never_initialized, active, finalized };

// init/finalize are called from the main thread only (docs/configuration.md), so no lock.
struct RuntimeState {
  RuntimePhase phase = RuntimePhase::never_initialized;
  bool owns_mpi = false;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = -1;
  int size = 0;
  ThreadLevel provided = ThreadLevel::single;
  Config config;
  unsigned generation = 0;  // initialisations so far
  // The application's handlers of MPI_COMM_WORLD and MPI_COMM_SELF, restored by finalize.
  MPI_Errhandler world_handler = MPI_ERRHANDLER_NULL;
  MPI_Errhandler self_handler = MPI_ERRHANDLER_NULL;
};

RuntimeState& runtime_state();

// The state while the library is initialised; else throws dash::InvalidState naming `function`.
const RuntimeState& active_runtime(std::string_view function);

}  // namespace dash::comm::detail
