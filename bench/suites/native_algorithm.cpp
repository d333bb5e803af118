#include "suites/native_algorithm.hpp"

#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::bench {

namespace {

// MPI_T must be initialised before control variables are used; it may be after MPI_Init.
void ensure_mpi_tool_interface() {
  static const bool initialised = [] {
    int provided = 0;
    return MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
  }();
  if (!initialised) {
    throw Exception("dash-bench: MPI_T_init_thread failed; native algorithms cannot be forced");
  }
}

int control_variable_index(const std::string& name) {
  ensure_mpi_tool_interface();
  int index = -1;
  if (MPI_T_cvar_get_index(name.c_str(), &index) != MPI_SUCCESS) {
    return -1;
  }
  return index;
}

int read_int(int index) {
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  int value = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) {
    return 0;
  }
  MPI_T_cvar_read(handle, &value);
  MPI_T_cvar_handle_free(&handle);
  return value;
}

void write_int(const std::string& name, int index, int value) {
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS ||
      MPI_T_cvar_write(handle, &value) != MPI_SUCCESS) {
    throw Exception("dash-bench: cannot set MPI control variable " + name + " = " + std::to_string(value));
  }
  MPI_T_cvar_handle_free(&handle);
}

}  // namespace

bool native_algorithms_forceable() {
  const int index = control_variable_index("coll_tuned_use_dynamic_rules");
  return index >= 0 && read_int(index) != 0;
}

MPI_Comm comm_with_native_algorithm(MPI_Comm base, std::string_view collective, int id) {
  if (!native_algorithms_forceable()) {
    throw Exception(
        "dash-bench: Open MPI's native algorithms can only be forced with "
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1 (dash-bench sets it when it launches itself)");
  }
  const std::string name = "coll_tuned_" + std::string(collective) + "_algorithm";
  const int index = control_variable_index(name);
  if (index < 0) {
    throw Exception("dash-bench: the MPI library has no control variable " + name);
  }
  // The tuned component reads the forced algorithm when a communicator is created.
  write_int(name, index, id);
  MPI_Comm comm = MPI_COMM_NULL;
  const int result = MPI_Comm_dup(base, &comm);
  write_int(name, index, 0);
  comm::check_mpi(result, "dash-bench: MPI_Comm_dup");
  return comm;
}

}  // namespace dash::bench
