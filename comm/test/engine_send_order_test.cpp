// The engine starts what is ready in schedule order: a rank whose sends become ready together (a
// tree's inner rank once its parent's message arrived) posts them in the order of its rounds, so
// the largest subtree is served first. This program interposes the send calls (the PMPI profiling
// interface) and compares the destinations of a broadcast's payload messages with the schedule.
// Posted from a stack, an inner rank of the binomial tree of 8 served its children smallest
// subtree first, which under SMPI made the 512-rank broadcast take 37 start-ups instead of 9.
// Sends that a later fenced round waits for go synchronous (MPI_Issend) from alpha / beta bytes, so
// that the fence holds the next send until the data left (a buffered send completes at once).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/config.hpp>
#include <dash/comm/schedule/collective.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "interposed_sends.hpp"
#include "selection/algorithm_costs.hpp"

namespace {

// Destinations of this process's sends (MPI_Isend, MPI_Issend, MPI_Send, MPI_Ssend, MPI_Sendrecv)
// of exactly `recorded_bytes` bytes (the payload: the cross-rank argument check sends hashes of
// another size), while recorded_bytes > 0, and whether each was synchronous.
std::vector<int> destinations;
std::vector<bool> synchronous;
int recorded_bytes = 0;

}  // namespace

void record_send(int count, MPI_Datatype type, int destination, MPI_Comm, bool is_synchronous) {
  int type_bytes = 0;
  PMPI_Type_size(type, &type_bytes);
  if (recorded_bytes > 0 && count * type_bytes == recorded_bytes) {
    destinations.push_back(destination);
    synchronous.push_back(is_synchronous);
  }
}

namespace {

using dash::comm::Coll;
using dash::comm::Group;

dash::comm::schedule::Schedule broadcast_schedule(const std::string& algorithm, int root) {
  dash::comm::CollectiveShape shape;
  shape.collective = Coll::bcast;
  shape.size = static_cast<int>(dash::size());
  shape.root = root;
  return dash::comm::detail::schedule_generator(Coll::bcast, algorithm)(shape, dash::myid());
}

// This rank's sends of `algorithm`'s broadcast from `root`, in the order of its rounds.
std::vector<int> scheduled_sends(const std::string& algorithm, int root) {
  std::vector<int> sends;
  for (const auto& round : broadcast_schedule(algorithm, root).rounds) {
    for (const auto& action : round.actions) {
      if (action.kind == dash::comm::schedule::ActionKind::send) {
        sends.push_back(action.peer);
      }
    }
  }
  return sends;
}

// Per send of the schedule: whether a later round is fenced (the engine then waits for it).
std::vector<bool> sends_a_fence_waits_for(const std::string& algorithm, int root) {
  const auto rounds = broadcast_schedule(algorithm, root).rounds;
  std::vector<bool> awaited;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const bool fence_follows =
        std::any_of(rounds.begin() + static_cast<std::ptrdiff_t>(r) + 1, rounds.end(),
                    [](const auto& round) { return round.fence; });
    for (const auto& action : rounds[r].actions) {
      if (action.kind == dash::comm::schedule::ActionKind::send) {
        awaited.push_back(fence_follows);
      }
    }
  }
  return awaited;
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

TEST(EngineSendOrder, SendsAFenceWaitsForAreSynchronousFromAlphaOverBetaBytes) {
  const auto& cost = dash::comm::config().cost_parameters;
  const auto threshold = static_cast<std::size_t>(std::ceil(cost.alpha / cost.beta));
  ASSERT_GT(threshold, sizeof(double)) << "the test needs a buffered size below alpha / beta";
  const int last = static_cast<int>(dash::size()) - 1;
  for (const std::size_t elements : {threshold / sizeof(double) - 1, threshold / sizeof(double) + 1}) {
    const bool long_enough = elements * sizeof(double) >= threshold;
    for (const int root : {0, last}) {
      std::vector<double> buffer(elements, dash::myid() == root ? 2.5 : 0.0);
      dash::comm::Options options;
      options.algorithm = "binomial";
      destinations.clear();
      synchronous.clear();
      recorded_bytes = static_cast<int>(elements * sizeof(double));
      dash::comm::bcast(buffer, root, Group::world(), options);
      recorded_bytes = 0;
      std::vector<bool> expected = sends_a_fence_waits_for("binomial", root);
      if (!long_enough) {
        expected.assign(expected.size(), false);
      }
      EXPECT_EQ(synchronous, expected) << elements << " doubles from root " << root;
      EXPECT_EQ(buffer, std::vector<double>(elements, 2.5)) << elements << " doubles from root " << root;
    }
  }
}

}  // namespace
