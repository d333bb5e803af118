// Splitting a team never creates an MPI communicator or group (docs/design.md §2): this program
// interposes MPI's communicator- and group-creation functions (the PMPI profiling interface) and
// counts the calls made while teams are split with every variant of the service. It also checks
// that a distributed table keeps a process's memory at ceil(n/P') rows plus the cache.

#include <algorithm>
#include <atomic>
#include <bit>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

std::atomic<int> creations{0};

}  // namespace

extern "C" {

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* created) {
  ++creations;
  return PMPI_Comm_split(comm, color, key, created);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* created) {
  ++creations;
  return PMPI_Comm_split_type(comm, type, key, info, created);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* created) {
  ++creations;
  return PMPI_Comm_create(comm, group, created);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* created) {
  ++creations;
  return PMPI_Comm_create_group(comm, group, tag, created);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* created) {
  ++creations;
  return PMPI_Comm_dup(comm, created);
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* created) {
  ++creations;
  return PMPI_Group_incl(group, n, ranks, created);
}

}  // extern "C"

namespace {

using dash::SplitAlgorithm;
using dash::Team;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

TEST(TeamSplit, CreatesNoCommunicatorOrGroup) {
  const int before = creations.load();
  for (const SplitAlgorithm algorithm :
       {SplitAlgorithm::automatic, SplitAlgorithm::conventional, SplitAlgorithm::merge_per_step,
        SplitAlgorithm::parallel_sort_full_table, SplitAlgorithm::parallel_sort_distributed_table}) {
    Team& half = Team::All().split(P() > 1 ? 2 : 1);
    Team& parity = Team::All().split_by(me() % 2, -me(), {algorithm, 0});
    Team& nested = half.split_by(0, -half.myid(), {algorithm, 2});
    // Table holders other than the sorters: the rows move to them point-to-point.
    Team& spread = half.split_by(0, -half.myid(), {algorithm, 2, static_cast<int>(half.size())});
    std::vector<int> one{1};
    std::vector<int> sum(1);
    dash::comm::allreduce(one, sum, dash::plus{}, nested);
    EXPECT_EQ(sum[0], static_cast<int>(half.size()));
    dash::comm::allreduce(one, sum, dash::plus{}, spread);
    EXPECT_EQ(sum[0], static_cast<int>(half.size()));
    parity.free();
    half.free();
  }
  EXPECT_EQ(creations.load(), before) << "a split called MPI's communicator or group creation";
  // The interposition works: asking for a communicator does create one.
  Team& reversed = Team::All().split_by(0, -me());
  reversed.mpi_comm();
  EXPECT_GT(creations.load(), before);
  reversed.free();
}

TEST(TeamSplit, DistributedTableMemoryIsASliceAndTheCache) {
  for (const int sorters : {1, 2, 4}) {
    // P' = 0: the sorters hold the table (P' = p); else P' holders, below, at and above p.
    for (const int holders : {0, 1, 2, 3, 2 * sorters, P()}) {
      if (holders > P()) {
        continue;
      }
      Team& team =
          Team::All().split_by(0, -me(), {SplitAlgorithm::parallel_sort_distributed_table, sorters, holders});
      std::vector<int> mine{me()};
      std::vector<int> gathered(team.size());
      dash::comm::allgather(mine, gathered, team);  // translates every rank of the team
      const int p = std::min(sorters, static_cast<int>(std::bit_floor(static_cast<unsigned>(P()))));
      const int table_group = holders == 0 ? p : holders;
      const dash::TeamStats stats = team.stats();
      EXPECT_LE(stats.table_rows, static_cast<std::size_t>((P() + table_group - 1) / table_group))
          << sorters << " sorters, " << holders << " holders";
      EXPECT_LE(stats.cache_entries, stats.cache_capacity);
      team.free();
    }
  }
}

}  // namespace
