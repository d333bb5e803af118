#include "runner/launcher.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <dash/comm/exception.hpp>

// DASH_BENCH_* macros: defined at configure time by bench/CMakeLists.txt.

namespace dash::bench {

namespace {

// The running executable, so that the relaunch does not depend on PATH or the working directory.
std::string own_executable(const char* argv0) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string(argv0) : self.string();
}

// The launcher's own command and flags, and the environment of the MPI in use.
std::vector<std::string> mpiexec_command(int ranks) {
  std::vector<std::string> command{DASH_BENCH_MPIEXEC, DASH_BENCH_MPIEXEC_NUMPROC_FLAG, std::to_string(ranks)};
#if DASH_BENCH_MPI_OPENMPI
  // Open MPI refuses more ranks than it counts slots (cores) without --oversubscribe, and
  // refuses to run as root unless told that this is intended.
  command.emplace_back("--oversubscribe");
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
#elif DASH_BENCH_MPI_MPICH
  // MPICH's Hydra places any number of ranks and runs as root, but binds nothing by default
  // (Open MPI binds to cores): unbound ranks migrate, and the timings of the shared-memory paths
  // scatter. One core each when there are enough.
  if (static_cast<unsigned>(ranks) <= std::thread::hardware_concurrency()) {
    command.emplace_back("-bind-to");
    command.emplace_back("core");
  }
#endif
  return command;
}

}  // namespace

bool started_by_mpi_launcher() {
  // Open MPI sets OMPI_COMM_WORLD_SIZE, MPICH/Hydra and Slurm PMI_SIZE, PMIx launchers PMIX_RANK.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(name) != nullptr) {
      return true;
    }
  }
  return false;
}

void relaunch(int ranks, const std::string& hosts, int argc, char** argv) {
#if DASH_BENCH_MPI_OPENMPI
  // The coll suite forces Open MPI's native algorithms one by one through MPI_T, which the
  // tuned component honours only with dynamic rules on; its default decision is unchanged.
  setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0);
#endif
  // scripts/cluster starts the emulated hosts and the launcher with the flags they need.
  std::vector<std::string> command =
      hosts.empty() ? mpiexec_command(ranks)
                    : std::vector<std::string>{DASH_BENCH_CLUSTER_SCRIPT, "--mpi", DASH_BENCH_MPI_IMPLEMENTATION,
                                               "--hosts", hosts, "--"};
  command.push_back(own_executable(argv[0]));
  for (int index = 1; index < argc; ++index) {
    command.emplace_back(argv[index]);
  }

  std::string shown;
  std::vector<char*> arguments;
  for (std::string& word : command) {
    shown += (shown.empty() ? "" : " ") + word;
    arguments.push_back(word.data());
  }
  arguments.push_back(nullptr);
  std::fprintf(stderr, "dash-bench: launching %s\n", shown.c_str());
  std::fflush(stderr);
  execvp(arguments[0], arguments.data());
  throw Exception("dash-bench: cannot start '" + command[0] + "': " + std::strerror(errno) +
                  (hosts.empty() ? "; start dash-bench under mpiexec yourself, e.g. mpiexec -n 2 dash-bench run ..."
                                 : "; start it yourself: scripts/cluster --hosts " + hosts + " -- dash-bench run ..."));
}

}  // namespace dash::bench
