// The engine starts what is ready in schedule order: a rank whose sends become ready together (a
// tree's inner rank once its parent's message arrived) posts them in the order of its rounds, so
// the largest subtree is served first. This program interposes MPI_Isend (the PMPI profiling
// interface) and compares the destinations of a broadcast's payload messages with the schedule.
// Posted from a stack, an inner rank of the binomial tree of 8 served its children smallest
// subtree first, which under SMPI made the 512-rank broadcast take 37 start-ups instead of 9.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/detail/algorithm_costs.hpp>
#include <dash/comm/schedule/collective.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

// Destinations of this process's MPI_Isend calls of exactly `recorded_bytes` bytes (the payload:
// the cross-rank argument check sends digests of another size), while recorded_bytes > 0.
std::vector<int> destinations;
int recorded_bytes = 0;

}  // namespace

extern "C" int MPI_Isend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  int type_bytes = 0;
  PMPI_Type_size(type, &type_bytes);
  if (recorded_bytes > 0 && count * type_bytes == recorded_bytes) {
    destinations.push_back(destination);
  }
  return PMPI_Isend(buffer, count, type, destination, tag, comm, request);
}

namespace {

using dash::comm::Coll;
using dash::comm::Group;

// This rank's sends of `algorithm`'s broadcast from `root`, in the order of its rounds.
std::vector<int> scheduled_sends(const std::string& algorithm, int root) {
  dash::comm::CollectiveShape shape;
  shape.collective = Coll::bcast;
  shape.size = static_cast<int>(dash::size());
  shape.root = root;
  const auto generate = dash::comm::detail::schedule_generator(Coll::bcast, algorithm);
  std::vector<int> sends;
  for (const auto& round : generate(shape, dash::myid()).rounds) {
    for (const auto& action : round.actions) {
      if (action.kind == dash::comm::schedule::ActionKind::send) {
        sends.push_back(action.peer);
      }
    }
  }
  return sends;
}

TEST(EngineSendOrder, ATreesReadySendsLeaveInTheOrderOfItsRounds) {
  const int last = static_cast<int>(dash::size()) - 1;
  for (const std::string algorithm : {"binomial", "kary_tree"}) {
    for (const int root : {0, last}) {
      std::vector<double> buffer(5, dash::myid() == root ? 2.5 : 0.0);
      dash::comm::Options options;
      options.algorithm = algorithm;
      destinations.clear();
      recorded_bytes = static_cast<int>(buffer.size() * sizeof(double));
      dash::comm::bcast(buffer, root, Group::world(), options);
      recorded_bytes = 0;
      EXPECT_EQ(destinations, scheduled_sends(algorithm, root)) << algorithm << " from root " << root;
      EXPECT_EQ(buffer, std::vector<double>(5, 2.5)) << algorithm << " from root " << root;
    }
  }
}

}  // namespace
