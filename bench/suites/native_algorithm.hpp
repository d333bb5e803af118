#pragma once
// Communicators on which Open MPI runs one of its own collective algorithms, chosen by ID
// (references/native_algorithms.md), so our algorithms can be compared with each of them.

#include <string>
#include <string_view>

#include <mpi.h>

namespace dash::bench {

// True when the MPI library lets us force its algorithms: Open MPI's tuned component with
// dynamic rules enabled (OMPI_MCA_coll_tuned_use_dynamic_rules=1 at launch).
bool native_algorithms_forceable();

// A duplicate of `base` whose `collective` (e.g. "allreduce") runs Open MPI's algorithm `id`.
// Throws dash::Exception naming the control variable if it cannot be forced. Free with
// MPI_Comm_free.
MPI_Comm comm_with_native_algorithm(MPI_Comm base, std::string_view collective, int id);

}  // namespace dash::bench
