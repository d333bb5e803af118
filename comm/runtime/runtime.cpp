// The runtime state (include/dash/comm/runtime.hpp, runtime_state.hpp).

#include <dash/comm/runtime.hpp>

#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "runtime/runtime_state.hpp"

namespace dash::comm::detail {

RuntimeState& runtime_state() {
  static RuntimeState state;
  return state;
}

const RuntimeState& active_runtime(std::string_view function) {
  const RuntimeState& state = runtime_state();
  switch (state.phase) {
    case RuntimePhase::active:
      return state;
    case RuntimePhase::never_initialized:
      throw InvalidState(std::string(function) +
                         ": the library is not initialised; call dash::init or create a "
                         "dash::Environment first");
    case RuntimePhase::finalized:
      break;
  }
  throw InvalidState(std::string(function) +
                     ": the library has been finalised (dash::finalize was called)");
}

}  // namespace dash::comm::detail

namespace dash {

bool is_initialized() noexcept { return comm::detail::runtime_state().phase == comm::detail::RuntimePhase::active; }

bool is_finalized() noexcept {
  return comm::detail::runtime_state().phase == comm::detail::RuntimePhase::finalized;
}

int myid() { return comm::detail::active_runtime("dash::myid").rank; }

std::size_t size() { return static_cast<std::size_t>(comm::detail::active_runtime("dash::size").size); }

}  // namespace dash

namespace dash::comm {

MPI_Comm base_comm() { return detail::active_runtime("dash::comm::base_comm").comm; }

ThreadLevel provided_thread_level() { return detail::active_runtime("dash::comm::provided_thread_level").provided; }

bool owns_mpi() { return detail::active_runtime("dash::comm::owns_mpi").owns_mpi; }

const Config& config() { return detail::active_runtime("dash::comm::config").config; }

unsigned runtime_generation() { return detail::active_runtime("dash::comm::runtime_generation").generation; }

int tag_upper_bound() {
  int* upper_bound = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(base_comm(), MPI_TAG_UB, &upper_bound, &found),
            "dash::comm::tag_upper_bound: MPI_Comm_get_attr");
  return found != 0 && upper_bound != nullptr ? *upper_bound : 32767;
}

}  // namespace dash::comm
