// 02_teams: split the processes into teams and run collectives on each.
//
//   mpirun -n 4 ./teams
//
// Team::All() is split twice: into two contiguous halves (DASH's split(n)), and by parity of the
// rank with reversed order inside each team (MPI_Comm_split semantics through split_by). Each team
// sums its members' ranks with an allreduce; no MPI communicator is created for either split.

#include <cstdio>
#include <string>
#include <vector>

#include <dash/dash.hpp>

namespace {

// "2 3" for a team of base ranks 2 and 3.
std::string members(const dash::Team& team) {
  std::string text;
  for (int r = 0; r < static_cast<int>(team.size()); ++r) {
    text += (r == 0 ? "" : " ") + std::to_string(team.global_rank(r));
  }
  return text;
}

long sum_of_ranks(const dash::Team& team) {
  std::vector<long> mine{dash::myid()};
  std::vector<long> sum(1);
  dash::comm::allreduce(mine, sum, dash::plus{}, team);
  return sum[0];
}

}  // namespace

int main(int argc, char** argv) {
  dash::Environment env(argc, argv);
  dash::Team& all = dash::Team::All();

  dash::Team& half = all.split(all.size() > 1 ? 2 : 1);
  dash::Team& parity = all.split_by(dash::myid() % 2, -dash::myid());
  const long half_sum = sum_of_ranks(half);
  const long parity_sum = sum_of_ranks(parity);

  for (int rank = 0; rank < static_cast<int>(all.size()); ++rank) {
    if (rank == all.myid()) {
      std::printf("rank %d: half {%s} (my rank %d, sum %ld); parity {%s} (my rank %d, sum %ld, kept as %s)\n",
                  dash::myid(), members(half).c_str(), half.myid(), half_sum, members(parity).c_str(),
                  parity.myid(), parity_sum, std::string(parity.stats().representation).c_str());
      std::fflush(stdout);
    }
    all.barrier();
  }
  parity.free();
  half.free();
}
