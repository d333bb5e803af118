// cluster_latency: how long the smallest messages take between the hosts of a job: the round trip
// of 8 bytes between the first and the last rank, and an 8-byte allreduce over all ranks through
// MPI and through dash::comm. Every call is timed on its own; rank 0 prints the minimum, the median
// and the 90th percentile of each, after the nodes dash detected.
//
//   scripts/cluster --hosts 2x1 -- build/test/cluster/cluster_latency [calls, default 2000]
//
// docs/testing.md ("The virtual cluster") lists what it measured. CTest runs it only as a smoke
// test (test/cluster/CMakeLists.txt): timings are never checked.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

namespace {

// Each call of `step`, timed on its own, after as many untimed calls.
std::vector<double> time_calls(int calls, MPI_Comm comm, const std::function<void()>& step) {
  for (int i = 0; i < calls; ++i) {
    step();
  }
  MPI_Barrier(comm);
  std::vector<double> seconds(static_cast<std::size_t>(calls));
  for (double& time : seconds) {
    const double start = MPI_Wtime();
    step();
    time = MPI_Wtime() - start;
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds;
}

void print(const char* what, const std::vector<double>& sorted) {
  const auto at = [&](double fraction) {
    return 1e6 * sorted[static_cast<std::size_t>(fraction * static_cast<double>(sorted.size() - 1))];
  };
  std::printf("%-22s min %9.1f us   median %9.1f us   p90 %9.1f us\n", what, at(0), at(0.5), at(0.9));
}

}  // namespace

int main(int argc, char** argv) {
  dash::Environment environment(argc, argv);
  const int calls = argc > 1 ? std::atoi(argv[1]) : 2000;
  if (argc > 2 || calls < 1) {
    if (dash::myid() == 0) {
      std::fprintf(stderr, "cluster_latency: usage: cluster_latency [calls > 0]\n");
    }
    return 2;
  }
  const MPI_Comm comm = dash::comm::base_comm();
  const int me = dash::myid();
  const int last = static_cast<int>(dash::size()) - 1;
  double in = me + 1.0;
  double out = 0.0;
  std::vector<double> ours(1);
  const std::vector<double> mine{in};

  const auto round_trip = time_calls(calls, comm, [&] {
    if (me == 0 && last > 0) {
      MPI_Send(&in, 1, MPI_DOUBLE, last, 0, comm);
      MPI_Recv(&out, 1, MPI_DOUBLE, last, 0, comm, MPI_STATUS_IGNORE);
    } else if (me == last && last > 0) {
      MPI_Recv(&out, 1, MPI_DOUBLE, 0, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(&out, 1, MPI_DOUBLE, 0, 0, comm);
    }
  });
  const auto mpi_allreduce = time_calls(calls, comm, [&] { MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, comm); });
  const auto dash_allreduce = time_calls(calls, comm, [&] { dash::comm::allreduce(mine, ours, dash::plus{}); });

  if (me == 0) {
    const dash::comm::Locality& place = dash::comm::locality();
    std::printf("%d ranks on %d nodes, %d timed calls each\n", last + 1, place.node_count, calls);
    print("round trip 8 B", round_trip);
    print("MPI_Allreduce 8 B", mpi_allreduce);
    print("dash allreduce 8 B", dash_allreduce);
  }
  return 0;
}
