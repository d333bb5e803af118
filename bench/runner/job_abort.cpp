#include "runner/job_abort.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <mpi.h>

#include <dash/comm/abort_job.hpp>

namespace dash::bench {

void abort_job(const std::exception& error) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  comm::abort_job(2, "dash-bench: error on rank " + std::to_string(rank) + ": " + error.what());
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
