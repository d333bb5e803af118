#include "runner/job_abort.hpp"

#include <cstdio>
#include <cstdlib>

#include <mpi.h>

namespace dash::bench {

void abort_job(const std::exception& error) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "dash-bench: error on rank %d: %s\n", rank, error.what());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

}  // namespace dash::bench
