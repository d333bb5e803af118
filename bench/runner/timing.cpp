#include "runner/timing.hpp"

#include <dash/comm/mpi_call.hpp>

namespace dash::bench {

double time_slowest_rank(MPI_Comm comm, const std::function<void()>& work) {
  comm::check_mpi(MPI_Barrier(comm), "dash-bench: MPI_Barrier");
  const double start = MPI_Wtime();
  work();
  double elapsed = MPI_Wtime() - start;
  double slowest = 0.0;
  comm::check_mpi(MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm),
                  "dash-bench: MPI_Reduce");
  return slowest;
}

}  // namespace dash::bench
