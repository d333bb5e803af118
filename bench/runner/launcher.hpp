#pragma once
// Starting dash-bench under an MPI launcher when the user ran it directly.

namespace dash::bench {

// True when an MPI launcher (mpiexec/mpirun/srun) started this process.
bool started_by_mpi_launcher();

// Replaces this process by `mpiexec -n <ranks> <this executable> <the same arguments>`, using
// the mpiexec found when the project was configured. Throws dash::Exception if exec fails.
[[noreturn]] void relaunch_under_mpiexec(int ranks, int argc, char** argv);

}  // namespace dash::bench
