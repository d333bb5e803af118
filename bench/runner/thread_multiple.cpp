#include "runner/thread_multiple.hpp"

#include <algorithm>
#include <cstdlib>

#include <mpi.h>

#include <dash/comm/mpi_call.hpp>

namespace dash::bench {

ThreadMultipleMpi::ThreadMultipleMpi(const std::vector<const Case*>& cases, int& argc, char**& argv) {
  if (std::none_of(cases.begin(), cases.end(), [](const Case* bench_case) { return bench_case->needs_thread_multiple; })) {
    return;
  }
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
  // dash::init would pick Open MPI 4's osc/sm and osc/pt2pt, but osc/pt2pt refuses windows under
  // MPI_THREAD_MULTIPLE, so no dash container could be allocated. osc/rdma and osc/ucx accept them
  // (rdma not in a job of one process: it needs a BTL to every peer, and "self" has none). Their
  // faults are in RMA atomics (docs/configuration.md), which only dash::Atomic uses, and the cases
  // that need this level (halo) do not. A user's own choice of components wins.
  setenv("OMPI_MCA_osc", "sm,rdma,ucx", 0);
#endif
  int provided = MPI_THREAD_SINGLE;
  comm::check_mpi(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "dash-bench: MPI_Init_thread");
  initialised_ = true;
}

ThreadMultipleMpi::~ThreadMultipleMpi() {
  if (initialised_) {
    MPI_Finalize();
  }
}

}  // namespace dash::bench
