#include "runner/job_abort.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

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

void exit_if_finalize_hangs(int code) {
  std::thread([code] {
    std::this_thread::sleep_for(std::chrono::minutes(1));
    std::fprintf(stderr, "dash-bench: MPI_Finalize has not returned for a minute (all results are written); "
                         "exiting with code %d\n", code);
    std::fflush(stderr);
    std::_Exit(code);
  }).detach();
}

}  // namespace dash::bench
