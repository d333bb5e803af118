// cluster_latency: how long messages take between the hosts of a job: the round trips of 8 bytes
// and of 1 MiB between the first and the last rank, and an 8-byte allreduce over all ranks through
// MPI and through dash::comm. Every call is timed on its own; rank 0 prints the minimum, the median
// and the 90th percentile of each, after the nodes dash detected, and the cost model's between-node
// parameters the round trips' medians give (one way is half a round trip: alpha_net from 8 bytes,
// beta_net from the further time per byte of 1 MiB).
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

double median(const std::vector<double>& sorted) { return sorted[(sorted.size() - 1) / 2]; }

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

  const auto round_trip_of = [&](std::vector<char>& message, int timed_calls) {
    const int bytes = static_cast<int>(message.size());
    return time_calls(timed_calls, comm, [&] {
      if (me == 0 && last > 0) {
        MPI_Send(message.data(), bytes, MPI_BYTE, last, 0, comm);
        MPI_Recv(message.data(), bytes, MPI_BYTE, last, 0, comm, MPI_STATUS_IGNORE);
      } else if (me == last && last > 0) {
        MPI_Recv(message.data(), bytes, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
        MPI_Send(message.data(), bytes, MPI_BYTE, 0, 0, comm);
      }
    });
  };
  constexpr std::size_t large_bytes = std::size_t{1} << 20;
  std::vector<char> small(8);
  std::vector<char> large(large_bytes);
  const auto round_trip = round_trip_of(small, calls);
  const auto large_round_trip = round_trip_of(large, std::max(calls / 20, 5));
  const auto mpi_allreduce = time_calls(calls, comm, [&] { MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, comm); });
  const auto dash_allreduce = time_calls(calls, comm, [&] { dash::comm::allreduce(mine, ours, dash::plus{}); });

  if (me == 0) {
    const dash::comm::Locality& place = dash::comm::locality();
    std::printf("%d ranks on %d nodes, %d timed calls each\n", last + 1, place.node_count, calls);
    print("round trip 8 B", round_trip);
    print("round trip 1 MiB", large_round_trip);
    print("MPI_Allreduce 8 B", mpi_allreduce);
    print("dash allreduce 8 B", dash_allreduce);
    const double alpha_net = median(round_trip) / 2;
    const double beta_net = std::max(median(large_round_trip) / 2 - alpha_net, 0.0) / static_cast<double>(large_bytes);
    std::printf("between these nodes: DASH_COST_MODEL=alpha_net=%.3g,beta_net=%.3g\n", alpha_net, beta_net);
  }
  return 0;
}
