#pragma once
// The "header" of a results file: where, how and with what the numbers were measured.

#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "runner/sweep.hpp"

namespace dash::bench {

// Call on rank 0 after MPI is initialised. `command` is the dash-bench command line.
nlohmann::json environment_header(MPI_Comm world, const RunOptions& options,
                                  const std::vector<std::string>& command);

// The CMake build type dash-bench was compiled as (e.g. "Release").
std::string build_type();

}  // namespace dash::bench
