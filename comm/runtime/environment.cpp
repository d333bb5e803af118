// The runtime environment (include/dash/comm/environment.hpp; docs/configuration.md, "Initialisation
// and ownership of MPI").
//
// Map: thread-level conversions; what init sets before MPI starts (the one-sided components) and
// around it (error handlers on the predefined communicators); init (MPI, the base communicator,
// then peer progress, table window, nodes, node hierarchy, arena and progress thread) and finalize
// (the same in reverse); barrier, Environment. The runtime state they set is runtime.cpp's, which
// every other part reads: this file is the only one that knows every part.

#include <cstdlib>
#include <string>
#include <utility>

#include <mpi.h>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/table_window.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/peer_progress.hpp>

#include "arena/collective_arena.hpp"
#include "engine/progress_thread.hpp"
#include "runtime/log_identity.hpp"
#include "runtime/runtime_state.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash {

namespace {

using comm::detail::active_runtime;
using comm::detail::RuntimePhase;
using Runtime = comm::detail::RuntimeState;

Runtime& runtime() { return comm::detail::runtime_state(); }

int to_mpi_thread_level(comm::ThreadLevel level) {
  switch (level) {
    case comm::ThreadLevel::single:
      return MPI_THREAD_SINGLE;
    case comm::ThreadLevel::funneled:
      return MPI_THREAD_FUNNELED;
    case comm::ThreadLevel::serialized:
      return MPI_THREAD_SERIALIZED;
    case comm::ThreadLevel::multiple:
      break;
  }
  return MPI_THREAD_MULTIPLE;
}

comm::ThreadLevel from_mpi_thread_level(int level) {
  if (level >= MPI_THREAD_MULTIPLE) {
    return comm::ThreadLevel::multiple;
  }
  if (level >= MPI_THREAD_SERIALIZED) {
    return comm::ThreadLevel::serialized;
  }
  if (level >= MPI_THREAD_FUNNELED) {
    return comm::ThreadLevel::funneled;
  }
  return comm::ThreadLevel::single;
}

// Open MPI 4.1's one-sided components break RMA atomics on a node (both seen here with 4.1.4):
// osc/rdma crashes in MPI_Fetch_and_op / MPI_Compare_and_swap over the vader BTL's emulated
// atomics, and osc/ucx adds floating-point operands as integers in MPI_Fetch_and_op(MPI_SUM).
// osc/sm (shared windows) and osc/pt2pt (everything else) are correct, so before MPI starts we
// select those unless the user chose components. Nothing can be done once the application has
// initialised MPI itself (docs/configuration.md says to pass --mca osc sm,pt2pt then).
void avoid_broken_one_sided_component() {
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
  if (std::getenv("OMPI_MCA_osc") == nullptr) {
    setenv("OMPI_MCA_osc", "sm,pt2pt", 0);
  }
#endif
}

// Errors that MPI raises on no communicator of dash's go to MPI_COMM_WORLD's handler (MPICH
// raises a request's completion error in MPI_Test and MPI_Testsome there) or, since MPI 4.0,
// MPI_COMM_SELF's. With MPI_ERRORS_RETURN on both, they come back as codes that dash turns into
// exceptions instead of aborting the job. finalize gives the application its handlers back.
void return_errors_on_predefined_communicators(Runtime& state) {
  comm::check_mpi(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &state.world_handler),
                  "dash::init: MPI_Comm_get_errhandler(MPI_COMM_WORLD)");
  comm::check_mpi(MPI_Comm_get_errhandler(MPI_COMM_SELF, &state.self_handler),
                  "dash::init: MPI_Comm_get_errhandler(MPI_COMM_SELF)");
  comm::check_mpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
                  "dash::init: MPI_Comm_set_errhandler(MPI_COMM_WORLD)");
  comm::check_mpi(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
                  "dash::init: MPI_Comm_set_errhandler(MPI_COMM_SELF)");
}

void restore_predefined_error_handlers(Runtime& state) {
  for (auto [comm, handler] : {std::pair{MPI_COMM_WORLD, &state.world_handler},
                               std::pair{MPI_COMM_SELF, &state.self_handler}}) {
    if (*handler != MPI_ERRHANDLER_NULL) {
      MPI_Comm_set_errhandler(comm, *handler);
      MPI_Errhandler_free(handler);
    }
  }
}

}  // namespace

void init() { init(nullptr, nullptr); }

void init(int* argc, char*** argv) {
  Runtime& state = runtime();
  if (state.phase == RuntimePhase::active) {
    throw InvalidState(
        "dash::init: the library is already initialised (dash::init was called twice without "
        "dash::finalize in between)");
  }
  int mpi_finalized = 0;
  comm::check_mpi(MPI_Finalized(&mpi_finalized), "dash::init: MPI_Finalized");
  if (mpi_finalized) {
    throw InvalidState(
        "dash::init: MPI has already been finalised in this process and cannot be initialised "
        "again");
  }
  const comm::Config config = comm::config_from_environment();

  if (config.progress_thread && config.thread_level_from_environment &&
      config.thread_level != comm::ThreadLevel::multiple) {
    throw InvalidState(std::string("dash::init: DASH_PROGRESS_THREAD=1 needs MPI thread level 'multiple', but "
                                   "DASH_THREAD_LEVEL asks for '") +
                       std::string(comm::to_string(config.thread_level)) + "'");
  }
  const comm::ThreadLevel wanted =
      config.progress_thread ? comm::ThreadLevel::multiple : config.thread_level;

  int mpi_initialized = 0;
  comm::check_mpi(MPI_Initialized(&mpi_initialized), "dash::init: MPI_Initialized");
  int provided = MPI_THREAD_SINGLE;
  bool owns_mpi = false;
  if (mpi_initialized) {
    comm::check_mpi(MPI_Query_thread(&provided), "dash::init: MPI_Query_thread");
  } else {
    avoid_broken_one_sided_component();
    comm::check_mpi(MPI_Init_thread(argc, argv, to_mpi_thread_level(wanted), &provided),
                    "dash::init: MPI_Init_thread");
    owns_mpi = true;
  }
  const comm::ThreadLevel provided_level = from_mpi_thread_level(provided);
  if (config.thread_level_from_environment && provided_level < config.thread_level) {
    if (owns_mpi) {
      MPI_Finalize();
    }
    throw InvalidState(std::string("dash::init: DASH_THREAD_LEVEL asks for MPI thread level '") +
                       std::string(comm::to_string(config.thread_level)) + "' but MPI provides only '" +
                       std::string(comm::to_string(provided_level)) + "'");
  }
  if (config.progress_thread && provided_level != comm::ThreadLevel::multiple) {
    if (owns_mpi) {
      MPI_Finalize();
    }
    throw InvalidState(std::string("dash::init: DASH_PROGRESS_THREAD=1 needs MPI thread level 'multiple' but MPI "
                                   "provides only '") +
                       std::string(comm::to_string(provided_level)) + "'");
  }

  MPI_Comm comm = MPI_COMM_NULL;
  comm::check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "dash::init: MPI_Comm_dup");
  comm::check_mpi(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN),
                  "dash::init: MPI_Comm_set_errhandler");
  int rank = 0;
  int size = 0;
  comm::check_mpi(MPI_Comm_rank(comm, &rank), "dash::init: MPI_Comm_rank");
  comm::check_mpi(MPI_Comm_size(comm, &size), "dash::init: MPI_Comm_size");

  ++state.generation;
  state.phase = RuntimePhase::active;
  state.owns_mpi = owns_mpi;
  state.comm = comm;
  state.rank = rank;
  state.size = size;
  state.provided = provided_level;
  state.config = config;
  return_errors_on_predefined_communicators(state);

  comm::set_log_level(config.log_level);
  comm::detail::set_log_identity(rank, size);
  if (rank == 0) {
    for (const std::string& name : comm::unknown_dash_variables()) {
      comm::log(comm::LogLevel::warn, "unknown environment variable ", name,
                " is ignored (docs/configuration.md lists the variables dash reads)");
    }
  }
  comm::log(comm::LogLevel::info, "initialised on ", size, " processes; MPI thread level '",
            comm::to_string(provided_level), "'", owns_mpi ? "" : " (MPI initialised by the application)");
  try {
    comm::detail::open_peer_progress();
    comm::open_table_window(config.table_window_bytes);
    comm::detail::detect_nodes();
    comm::detail::open_node_hierarchy();
    comm::detail::open_collective_arena();
    if (config.progress_thread) {
      comm::detail::start_progress_thread();
    }
  } catch (...) {
    finalize();  // what opened closes again; MPI ends too if dash started it, as after other init errors
    throw;
  }
}

void finalize() {
  Runtime& state = runtime();
  if (state.phase != RuntimePhase::active) {
    active_runtime("dash::finalize");
  }
  if (comm::detail::collectives_running()) {
    throw InvalidState("dash::finalize: a collective this process started is still running; wait for its request "
                       "first (MPI_Finalize needs all communication complete). The library stays initialised");
  }
  comm::detail::stop_progress_thread();
  comm::detail::close_collective_arena();
  comm::detail::close_node_hierarchy();
  comm::close_table_window();
  comm::detail::close_peer_progress();
  int mpi_finalized = 0;
  MPI_Finalized(&mpi_finalized);
  if (mpi_finalized) {
    state.phase = RuntimePhase::finalized;
    throw InvalidState(
        "dash::finalize: MPI was finalised before dash::finalize; call dash::finalize first");
  }
  state.phase = RuntimePhase::finalized;
  comm::detail::clear_log_identity();
  restore_predefined_error_handlers(state);
  comm::check_mpi(MPI_Comm_free(&state.comm), "dash::finalize: MPI_Comm_free");
  if (state.owns_mpi) {
    comm::check_mpi(MPI_Finalize(), "dash::finalize: MPI_Finalize");
  }
}

void barrier() {
  comm::check_mpi(MPI_Barrier(active_runtime("dash::barrier").comm), "dash::barrier: MPI_Barrier");
}

Environment::Environment() { init(); }

Environment::Environment(int& argc, char**& argv) { init(&argc, &argv); }

Environment::~Environment() {
  try {
    finalize();
  } catch (const Exception& error) {
    comm::log(comm::LogLevel::error, "dash::Environment::~Environment: ", error.what());
  }
}

}  // namespace dash
