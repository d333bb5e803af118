// 01_hello: start dash, and let every process say where it runs.
//
//   mpirun -n 2 ./hello
//
// Each rank reports its rank, the node it runs on, its rank among the processes of that node and
// the cores it is bound to. Lines are gathered to rank 0 and printed in rank order.

#include <sched.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

namespace {

// The CPUs this process may run on, as a compact list such as "0-3,8".
std::string core_binding() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) {
    return "unknown";
  }
  std::string text;
  constexpr std::size_t none = CPU_SETSIZE;
  std::size_t first = none;
  auto close_run = [&](std::size_t last) {
    if (first == none) {
      return;
    }
    text += (text.empty() ? "" : ",") + std::to_string(first);
    if (last > first) {
      text += "-" + std::to_string(last);
    }
    first = none;
  };
  for (std::size_t cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) {
      if (first == none) {
        first = cpu;
      }
    } else if (cpu > 0) {
      close_run(cpu - 1);
    }
  }
  close_run(CPU_SETSIZE - 1);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  dash::Environment env(argc, argv);
  const MPI_Comm world = dash::comm::base_comm();

  char node[MPI_MAX_PROCESSOR_NAME] = {};
  int node_name_length = 0;
  dash::comm::check_mpi(MPI_Get_processor_name(node, &node_name_length), "MPI_Get_processor_name");

  MPI_Comm node_comm = MPI_COMM_NULL;
  dash::comm::check_mpi(
      MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, dash::myid(), MPI_INFO_NULL, &node_comm),
      "MPI_Comm_split_type");
  int node_rank = 0;
  int node_size = 0;
  MPI_Comm_rank(node_comm, &node_rank);
  MPI_Comm_size(node_comm, &node_size);
  MPI_Comm_free(&node_comm);

  const std::string text = "hello from rank " + std::to_string(dash::myid()) + " of " +
                           std::to_string(dash::size()) + " on " + node + " (rank " +
                           std::to_string(node_rank) + " of " + std::to_string(node_size) +
                           " on this node), cores " + core_binding();
  constexpr int line_length = 256;
  char line[line_length] = {};
  text.copy(line, line_length - 1);

  std::vector<char> lines(dash::myid() == 0 ? dash::size() * std::size_t{line_length} : 0);
  dash::comm::check_mpi(MPI_Gather(line, line_length, MPI_CHAR, lines.data(), line_length, MPI_CHAR,
                                   0, world),
                        "MPI_Gather");
  if (dash::myid() == 0) {
    for (std::size_t r = 0; r < dash::size(); ++r) {
      std::printf("%s\n", &lines[r * std::size_t{line_length}]);
    }
  }
  dash::barrier();
  return 0;
}
