#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <sys/ioctl.h>
#include <unistd.h>

#include <mpi.h>

#include <dash/comm/abort_job.hpp>

namespace dash::comm {

namespace {

void wait_until_read(int descriptor) {
  for (int polls = 0; polls < 1000; ++polls) {
    int unread = 0;
    if (ioctl(descriptor, FIONREAD, &unread) != 0 || unread == 0) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

void abort_job(int code, std::string_view message) {
  std::fprintf(stderr, "%.*s\n", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  wait_until_read(STDERR_FILENO);
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized != 0 && finalized == 0) {
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  std::_Exit(code);
}

}  // namespace dash::comm
