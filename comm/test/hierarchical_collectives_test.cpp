// The hierarchical collectives (arena on each node, inter-node stage on the rails;
// comm/arena/shared_memory_run.hpp) against the MPI library's own result. The nodes are emulated
// with DASH_NODE_SIZE (comm/test/CMakeLists.txt runs this file with several node sizes): regular
// jobs run every case, irregular ones and one-node jobs check that the algorithms are refused with
// the reason and that the library's own choice still serves the call.
//
// Map: hierarchical() and the refusal helpers (what explain() says where the job is not regular);
// then the tests: emulated nodes, allreduce, reduce from every root, allgather, bcast from every
// root, interleaved requests, arrivals, rails priced on the network, the refusals' reasons.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "topology/node_hierarchy.hpp"

#include "arena_inputs.hpp"
#include "dash_testing.hpp"

namespace {

using dash::comm::Coll;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
MPI_Comm world() { return dash::comm::base_comm(); }

Options hierarchical() {
  Options options;
  options.algorithm = "hierarchical";
  return options;
}

// Why explain() says the hierarchical algorithm cannot serve `collective`; empty when it can.
std::string refusal(Coll collective, bool commutative = true) {
  for (const dash::comm::Candidate& candidate :
       dash::comm::explain(collective, 1 << 20, Group::world(), commutative).candidates) {
    if (candidate.algorithm == "hierarchical") {
      return candidate.unfit;
    }
  }
  return "not registered";
}

// The same answer on every rank: the hierarchy's regularity is agreed on at dash::init.
bool regular_nodes() { return refusal(Coll::allreduce).empty(); }

// Where the job is not regular (one node, or nodes of different sizes), forcing the algorithm
// must throw with explain()'s reason, and the case checks that instead of the results.
bool refused_here(Coll collective) {
  if (regular_nodes()) {
    return false;
  }
  std::vector<double> in(4, 1.0);
  std::vector<double> out(4 * static_cast<std::size_t>(P()));
  const std::string expected = "algorithm 'hierarchical' (forced by Options::algorithm) cannot serve this call: " +
                               refusal(collective);
  try {
    switch (collective) {
      case Coll::reduce:
        dash::comm::reduce(in, std::span<double>(out).first(4), dash::plus{}, 0, Group::world(), hierarchical());
        break;
      case Coll::allgather:
        dash::comm::allgather(in, out, Group::world(), hierarchical());
        break;
      case Coll::bcast:
        dash::comm::bcast(in, 0, Group::world(), hierarchical());
        break;
      default:
        dash::comm::allreduce(in, std::span<double>(out).first(4), dash::plus{}, Group::world(), hierarchical());
        break;
    }
    ADD_FAILURE() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
  }
  return true;
}

using dash::testing::exact_doubles;
using dash::testing::rank_integers;
constexpr std::size_t many = dash::testing::many_arena_chunks;

// DASH_NODE_SIZE=k cuts the machine's node into nodes of k consecutive ranks.
TEST(HierarchicalCollectives, EmulatedNodesAreConsecutiveRanks) {
  const char* setting = std::getenv("DASH_NODE_SIZE");
  ASSERT_NE(setting, nullptr) << "run with DASH_NODE_SIZE (comm/test/CMakeLists.txt)";
  const int k = std::stoi(setting);
  const dash::comm::Locality& place = dash::comm::locality();
  EXPECT_EQ(place.node, me() / k);
  EXPECT_EQ(place.node_rank, me() % k);
  EXPECT_EQ(place.node_size, std::min(k, P() - me() / k * k));
  EXPECT_EQ(place.node_count, (P() + k - 1) / k);
}

TEST(HierarchicalCollectives, AllreduceMatchesMpi) {
  if (refused_here(Coll::allreduce)) {
    return;
  }
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{32768}, many}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<double> in = exact_doubles(n, me());
    std::vector<double> ours(n, -1);
    std::vector<double> theirs(n, -2);
    dash::comm::allreduce(in, ours, dash::plus{}, Group::world(), hierarchical());
    MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, world());
    EXPECT_EQ(ours, theirs);
    const std::vector<std::int64_t> ints = rank_integers(n, me());
    std::vector<std::int64_t> maxima(n, -1);
    std::vector<std::int64_t> expected(n, -2);
    dash::comm::allreduce(ints, maxima, dash::max{}, Group::world(), hierarchical());
    MPI_Allreduce(ints.data(), expected.data(), static_cast<int>(n), MPI_INT64_T, MPI_MAX, world());
    EXPECT_EQ(maxima, expected);
  }
}

// Every root: the root's node gathers the pieces the rails reduced; the others' outputs may be empty.
TEST(HierarchicalCollectives, ReduceMatchesMpiForEveryRoot) {
  if (refused_here(Coll::reduce)) {
    return;
  }
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, many}) {
    for (int root = 0; root < P(); ++root) {
      SCOPED_TRACE("n=" + std::to_string(n) + " root=" + std::to_string(root));
      const std::vector<double> in = exact_doubles(n, me());
      std::vector<double> ours(me() == root ? n : 0, -1);
      std::vector<double> theirs(me() == root ? n : 0, -2);
      dash::comm::reduce(in, ours, dash::plus{}, root, Group::world(), hierarchical());
      MPI_Reduce(in.data(), theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, root, world());
      EXPECT_EQ(ours, theirs);
      const std::vector<std::int64_t> ints = rank_integers(n, me());
      std::vector<std::int64_t> maxima(me() == root ? n : 0, -1);
      std::vector<std::int64_t> expected(me() == root ? n : 0, -2);
      dash::comm::reduce(ints, maxima, dash::max{}, root, Group::world(), hierarchical());
      MPI_Reduce(ints.data(), expected.data(), static_cast<int>(n), MPI_INT64_T, MPI_MAX, root, world());
      EXPECT_EQ(maxima, expected);
    }
  }
}

// Blocks of one element up to several chunks (a slot holds one chunk of every node's block).
TEST(HierarchicalCollectives, AllgatherMatchesMpi) {
  if (refused_here(Coll::allgather)) {
    return;
  }
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, many}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<std::int64_t> in = rank_integers(n, me());
    std::vector<std::int64_t> ours(n * static_cast<std::size_t>(P()), -1);
    std::vector<std::int64_t> theirs(ours.size(), -2);
    dash::comm::allgather(in, ours, Group::world(), hierarchical());
    MPI_Allgather(in.data(), static_cast<int>(n), MPI_INT64_T, theirs.data(), static_cast<int>(n), MPI_INT64_T,
                  world());
    EXPECT_EQ(ours, theirs);
  }
}

TEST(HierarchicalCollectives, BcastFromEveryRoot) {
  if (refused_here(Coll::bcast)) {
    return;
  }
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, many}) {
    for (int root = 0; root < P(); ++root) {
      SCOPED_TRACE("n=" + std::to_string(n) + " root=" + std::to_string(root));
      std::vector<double> buffer = me() == root ? exact_doubles(n, root) : std::vector<double>(n, -3);
      dash::comm::bcast(buffer, root, Group::world(), hierarchical());
      EXPECT_EQ(buffer, exact_doubles(n, root));
    }
  }
}

// Hierarchical collectives and the library's own choice in flight together, waited for in reverse
// order: waiting on the last must drive the earlier ones, whose chunks hold the node arena's slots.
TEST(HierarchicalCollectives, InterleavedRequestsCompleteInAnyOrder) {
  if (refused_here(Coll::allreduce)) {
    return;
  }
  const std::vector<double> a = exact_doubles(many, me());
  const std::vector<double> b = exact_doubles(many, me() + 7);
  std::vector<double> sum_a(many);
  std::vector<double> sum_b(many);
  std::vector<double> broadcast = me() == P() - 1 ? exact_doubles(many, P()) : std::vector<double>(many, -3);
  std::vector<double> gathered(many * static_cast<std::size_t>(P()));
  std::vector<double> gathered_by_messages(gathered.size());
  auto first = dash::comm::iallreduce(a, sum_a, dash::plus{}, Group::world(), hierarchical());
  auto second = dash::comm::ibcast(broadcast, P() - 1, Group::world(), hierarchical());
  std::vector<double> reduced(me() == 0 ? many : 0);
  auto reduction = dash::comm::ireduce(a, reduced, dash::plus{}, 0, Group::world(), hierarchical());
  auto third = dash::comm::iallgather(a, gathered, Group::world(), hierarchical());
  auto fourth = dash::comm::iallreduce(b, sum_b, dash::plus{}, Group::world(), hierarchical());
  auto fifth = dash::comm::iallgather(b, gathered_by_messages, Group::world(), Options{});
  fifth.wait();
  fourth.wait();
  third.wait();
  reduction.wait();
  second.wait();
  first.wait();
  std::vector<double> expected_a(many);
  std::vector<double> expected_b(many);
  MPI_Allreduce(a.data(), expected_a.data(), static_cast<int>(many), MPI_DOUBLE, MPI_SUM, world());
  MPI_Allreduce(b.data(), expected_b.data(), static_cast<int>(many), MPI_DOUBLE, MPI_SUM, world());
  EXPECT_EQ(sum_a, expected_a);
  if (me() == 0) {
    EXPECT_EQ(reduced, expected_a);
  }
  EXPECT_EQ(sum_b, expected_b);
  EXPECT_EQ(broadcast, exact_doubles(many, P()));
  for (int r = 0; r < P(); ++r) {
    const std::vector<double> block(gathered.begin() + static_cast<std::ptrdiff_t>(many) * r,
                                    gathered.begin() + static_cast<std::ptrdiff_t>(many) * (r + 1));
    EXPECT_EQ(block, exact_doubles(many, r)) << "block " << r;
    const std::vector<double> other(gathered_by_messages.begin() + static_cast<std::ptrdiff_t>(many) * r,
                                    gathered_by_messages.begin() + static_cast<std::ptrdiff_t>(many) * (r + 1));
    EXPECT_EQ(other, exact_doubles(many, r + 7)) << "block " << r;
  }
}

// Arrivals of a hierarchical allreduce cover the output once, each final when it arrives.
TEST(HierarchicalCollectives, ArrivalsCoverTheOutputOnce) {
  if (refused_here(Coll::allreduce)) {
    return;
  }
  const std::vector<double> in = exact_doubles(many, me());
  std::vector<double> expected(many);
  MPI_Allreduce(in.data(), expected.data(), static_cast<int>(many), MPI_DOUBLE, MPI_SUM, world());
  std::vector<double> out(many);
  std::vector<int> seen(many, 0);
  bool values_final = true;
  dash::comm::iallreduce(in, out, dash::plus{}, Group::world(), hierarchical())
      .for_each_arrival([&](const auto& arrival) {
        const auto first = static_cast<std::size_t>(arrival.data - out.data());
        for (std::size_t i = first; i < first + arrival.count; ++i) {
          ++seen[i];
          values_final = values_final && out[i] == expected[i];
        }
      });
  EXPECT_TRUE(values_final);
  EXPECT_EQ(seen, std::vector<int>(many, 1));
}

// Under DASH_TOPOLOGY a rail's rank i is node i of the network: its calls are priced there and may
// run the topology-aware schedules; without a network they are no candidates on a rail. The cases
// above check the results under the network runs too (comm/test/CMakeLists.txt): with the default
// cost parameters and nodes of two on torus:2x2 the rails allreduce pieces from 2 KiB and broadcast
// chunks of 128 KiB in distance-halving order (docs/collectives.md, "Rails on a network").
TEST(HierarchicalCollectives, RailsArePricedOnTheNetwork) {
  const dash::comm::detail::NodeHierarchy& hierarchy = dash::comm::detail::node_hierarchy();
  if (!regular_nodes()) {
    return;
  }
  const dash::comm::Network& network = dash::comm::config().network;
  const bool priced = network.kind == dash::comm::NetworkKind::clos ||
                      (network.kind == dash::comm::NetworkKind::grid && network.grid_nodes() == hierarchy.nodes);
  const Group& rail = *hierarchy.rail;
  for (const dash::comm::Candidate& candidate : dash::comm::explain(Coll::allreduce, 1 << 20, rail).candidates) {
    if (candidate.algorithm != "distance_halving" || (hierarchy.nodes & (hierarchy.nodes - 1)) != 0) {
      continue;
    }
    SCOPED_TRACE(candidate.algorithm);
    if (priced) {
      EXPECT_EQ(candidate.unfit, "");
      EXPECT_GT(candidate.predicted_seconds, 0);
    } else {
      EXPECT_NE(candidate.unfit.find("or a hierarchical collective's rails"), std::string::npos)
          << candidate.unfit;
    }
  }
}

TEST(HierarchicalCollectives, RefusalsNameTheReason) {
  const dash::comm::Locality& place = dash::comm::locality();
  std::vector<double> in(4, 1.0);
  std::vector<double> out(4);
  std::string expected;
  if (place.node_count == 1) {
    expected = "it needs a job on several nodes (DASH_NODE_SIZE emulates them on one machine)";
  } else if (!regular_nodes()) {
    expected = "it needs nodes of one size holding consecutive ranks";
  } else {
    expected = "it combines node by node, so it needs a commutative operation";
  }
  EXPECT_EQ(refusal(Coll::allreduce, regular_nodes() ? false : true), expected);
  try {
    dash::comm::allreduce(in, out, dash::comm::non_commutative([](double x, double y) { return x + y; }),
                          Group::world(), hierarchical());
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "dash::comm::allreduce: algorithm 'hierarchical' (forced by "
                                         "Options::algorithm) cannot serve this call: " + expected);
  }
  // Several nodes: the single-node arena is refused, and the library's choice serves every call.
  if (place.node_count > 1) {
    for (const dash::comm::Candidate& candidate :
         dash::comm::explain(Coll::allreduce, 1 << 20, Group::world()).candidates) {
      if (candidate.algorithm == "shared_memory") {
        EXPECT_EQ(candidate.unfit,
                  "it needs all processes of the job on one node (the hierarchical algorithms serve jobs on several)");
      }
    }
  }
  const std::vector<double> values = exact_doubles(many, me());
  std::vector<double> ours(many);
  std::vector<double> theirs(many);
  dash::comm::allreduce(values, ours, dash::plus{}, Group::world());
  MPI_Allreduce(values.data(), theirs.data(), static_cast<int>(many), MPI_DOUBLE, MPI_SUM, world());
  EXPECT_EQ(ours, theirs);
}

}  // namespace
