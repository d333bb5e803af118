// The network a group whose members sit alone on their nodes is priced on (comm/topology/group_network.hpp):
// its view of the grid where its ranks follow the view's node order, the Clos leaves it fills alike,
// and why not elsewhere.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/network.hpp>

#include "topology/group_network.hpp"

namespace {

using dash::comm::parse_network;
using dash::comm::detail::priced_network;

// The descriptor a group on `nodes` of `network` is priced on, or why it is not.
std::string priced(const char* network, std::vector<int> nodes) {
  const auto result = priced_network(parse_network(network), nodes);
  return result.network ? to_string(*result.network) : "not: " + result.why_not;
}

TEST(GroupNetwork, GridGroupsArePricedOnTheirViewInRankOrder) {
  EXPECT_EQ(priced("torus:4x4", {4, 5, 6, 7}), "torus:4");            // a row
  EXPECT_EQ(priced("torus:4x4", {1, 5, 9, 13}), "torus:4");           // a column
  EXPECT_EQ(priced("torus:4x4", {0, 1}), "mesh:2");                   // part of a row
  EXPECT_EQ(priced("torus:4x4", {0, 1, 4, 5}), "mesh:2x2");           // a block
  EXPECT_EQ(priced("torus:4x4", {0, 1, 2, 3, 4, 5, 6, 7}), "grid:2x4,wrap=01");
  EXPECT_EQ(priced("torus:4x4,routing=deterministic", {4, 5, 6, 7}), "torus:4,routing=deterministic");
  EXPECT_EQ(priced("mesh:4x2", {0, 2, 4, 6}), "mesh:4");
  // No box: the nodes lined up along the grid's boustrophedon path, connected as a line.
  EXPECT_EQ(priced("torus:4x4", {0, 6}), "mesh:2");
}

TEST(GroupNetwork, RanksOutOfTheViewsOrderAreNotPriced) {
  const std::string why = "not: the group's ranks do not follow its nodes' order on the grid (row-major over a box "
                          "of it, or along its path)";
  EXPECT_EQ(priced("torus:4x4", {7, 6, 5, 4}), why);
  EXPECT_EQ(priced("torus:4x4", {0, 4, 1, 5}), why);
}

TEST(GroupNetwork, ClosGroupsKeepTheLeavesTheyFillAlike) {
  EXPECT_EQ(priced("clos:T=4,mu=0.25", {0, 1, 2, 3}), "clos:T=4,mu=0.25");  // one leaf
  EXPECT_EQ(priced("clos:T=4,mu=0.25", {0, 4, 8, 12}), "clos:T=1,mu=1");   // one per leaf: full uplinks each
  EXPECT_EQ(priced("clos:T=4,mu=0.25", {1, 0, 5, 4}), "clos:T=2,mu=0.5");
  const std::string why = "not: the group's ranks do not fill the Clos leaves they use alike (as many of them on each "
                          "leaf, at consecutive ranks)";
  EXPECT_EQ(priced("clos:T=4,mu=0.25", {0, 1, 4}), why);
  EXPECT_EQ(priced("clos:T=4,mu=0.25", {0, 4, 1, 5}), why);
}

TEST(GroupNetwork, NoNetworkOrOneNodeIsNotPriced) {
  EXPECT_EQ(priced("flat", {0, 1}), "not: DASH_TOPOLOGY names no network (flat): every candidate is priced by its "
                                    "closed form");
  EXPECT_EQ(priced("torus:2x2", {3}), "not: the group spans one node of the network");
}

}  // namespace
