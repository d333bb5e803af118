// dash::comm::Topology::detect on a real job: every rank's place is the one the rank detected
// itself, nodes match MPI_Comm_split_type's; under DASH_TOPOLOGY (the CTest entries set torus,
// mesh and Clos descriptors) the network is the descriptor's, and groups see their part of it.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/topology.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::comm::NetworkKind;

TEST(Topology, DetectGivesEveryRankItsOwnPlace) {
  const auto topology = dash::comm::Topology::detect();
  const auto& here = dash::comm::locality();
  const int me = dash::myid();
  const auto& place = topology.place(me);
  bool ok = topology.ranks() == static_cast<int>(dash::size()) && place.package == here.package &&
            place.numa_domain == here.numa_domain && place.core == here.core &&
            topology.network() == dash::comm::config().network;
  if (topology.virtual_nodes()) {
    ok = ok && place.node == me && topology.nodes() == topology.ranks();
  } else {
    ok = ok && place.node == here.node && topology.nodes() == here.node_count &&
         static_cast<int>(topology.ranks_on_node(here.node).size()) == here.node_size;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << topology.describe();
}

TEST(Topology, GroupsSeeTheirPartOfTheNetwork) {
  const auto topology = dash::comm::Topology::detect();
  const int ranks = topology.ranks();
  std::vector<int> first_half;
  for (int rank = 0; rank < (ranks + 1) / 2; ++rank) {
    first_half.push_back(rank);
  }
  const auto view = topology.view(first_half);
  const auto& network = topology.network();
  bool ok = true;
  std::string expected;
  if (network.kind == NetworkKind::grid && topology.virtual_nodes() && network.dims.size() >= 2 &&
      network.dims[0] == 2) {
    // The first half of a 2 x ... grid is its row 0: a grid of the other dimensions, wrapping
    // where the whole grid does (it spans them completely).
    dash::comm::Network rest;
    rest.kind = NetworkKind::grid;
    for (std::size_t d = 1; d < network.dims.size(); ++d) {
      if (network.dims[d] > 1) {
        rest.dims.push_back(network.dims[d]);
        rest.wrap.push_back(network.wrap[d]);
      }
    }
    expected = to_string(rest);
    ok = to_string(view.network) == expected && !view.path_order;
  } else if (network.kind == NetworkKind::clos && ranks > 1) {
    expected = to_string(network);
    ok = view.network == network || view.nodes.size() == 1;
  } else if (network.kind == NetworkKind::flat) {
    expected = "flat";
    ok = view.network.kind == NetworkKind::flat;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << to_string(view.network) << ", expected " << expected;
}

}  // namespace
