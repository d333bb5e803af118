#pragma once
// Timing one repetition across ranks.

#include <functional>

#include <mpi.h>

namespace dash::bench {

// Collective over `comm`: lines the ranks up with a barrier, runs `work` (which may do nothing
// on idle ranks) and returns on rank 0 the MPI_Wtime duration of the slowest rank, the time the
// job as a whole needed. Other ranks get 0.
double time_slowest_rank(MPI_Comm comm, const std::function<void()>& work);

}  // namespace dash::bench
