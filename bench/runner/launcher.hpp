#pragma once
// Starting dash-bench under an MPI launcher when the user ran it directly.

#include <string>

namespace dash::bench {

// True when an MPI launcher (mpiexec/mpirun/srun) started this process.
bool started_by_mpi_launcher();

// Replaces this process by `mpiexec -n <ranks> <this executable> <the same arguments>`, using
// the mpiexec found when the project was configured. With a host layout (--hosts, e.g. "2x1"), by
// `scripts/cluster --mpi <the MPI> --hosts <layout> -- <this executable> <the same arguments>`
// instead: the job runs across emulated hosts. Throws dash::Exception if exec fails.
[[noreturn]] void relaunch(int ranks, const std::string& hosts, int argc, char** argv);

}  // namespace dash::bench
