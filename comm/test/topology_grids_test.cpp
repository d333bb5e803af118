// Network descriptors and the topology's views, without MPI: descriptors parse and print back,
// malformed ones are refused with the accepted forms, grids name the right node count (or one
// virtual node per rank), and a group sees a box of a grid as a grid that wraps only where it spans
// a whole dimension, and other node sets as a line along the grid's boustrophedon path.

#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/topology.hpp>

namespace {

using dash::comm::GridRouting;
using dash::comm::Network;
using dash::comm::NetworkKind;
using dash::comm::parse_network;
using dash::comm::RankPlace;
using dash::comm::Topology;

// `ranks` ranks, `per_node` on each node in rank order.
std::vector<RankPlace> places(int ranks, int per_node) {
  std::vector<RankPlace> result;
  for (int rank = 0; rank < ranks; ++rank) {
    result.push_back(RankPlace{rank / per_node, 0, 0, rank % per_node});
  }
  return result;
}

std::vector<int> all_ranks(int ranks) {
  std::vector<int> result(static_cast<std::size_t>(ranks));
  std::iota(result.begin(), result.end(), 0);
  return result;
}

TEST(Network, DescriptorsParseAndPrintBack) {
  for (const std::string text : {"flat", "torus:8x8x8", "mesh:4x2", "torus:16", "clos:T=16,mu=0.25", "clos:T=2,mu=1",
                                 "grid:4x2,wrap=10"}) {
    EXPECT_EQ(to_string(parse_network(text)), text);
  }
  const Network torus = parse_network("torus:8x16x32");
  EXPECT_EQ(torus.kind, NetworkKind::grid);
  EXPECT_EQ(torus.dims, (std::vector<int>{8, 16, 32}));
  EXPECT_EQ(torus.wrap, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(torus.grid_nodes(), 4096);
  const Network clos = parse_network("clos:T=4,mu=0.5");
  EXPECT_EQ(clos.kind, NetworkKind::clos);
  EXPECT_EQ(clos.nodes_per_leaf, 4);
  EXPECT_EQ(clos.bisection, 0.5);
  EXPECT_EQ(to_string(parse_network("grid:2x2,wrap=11")), "torus:2x2");
}

TEST(Network, GridsNameTheirRoutingAdaptiveByDefault) {
  for (const std::string text : {"torus:8x8x8,routing=deterministic", "mesh:4x2,routing=deterministic",
                                 "grid:4x2,wrap=10,routing=deterministic"}) {
    EXPECT_EQ(parse_network(text).routing, GridRouting::deterministic) << text;
    EXPECT_EQ(to_string(parse_network(text)), text);
  }
  EXPECT_EQ(parse_network("torus:8x8x8").routing, GridRouting::adaptive);
  EXPECT_EQ(parse_network("torus:8x8x8,routing=adaptive"), parse_network("torus:8x8x8"));
  EXPECT_EQ(to_string(parse_network("mesh:4x2,routing=adaptive")), "mesh:4x2");
  EXPECT_NE(parse_network("torus:4,routing=deterministic"), parse_network("torus:4"));
}

TEST(Network, MalformedDescriptorsAreRefusedWithTheAcceptedForms) {
  for (const std::string text : {"", "torus", "torus:", "torus:2x", "torus:0x4", "torus:-2", "torus:2y2", "ring:4",
                                 "mesh:4x2x", "clos:T=0,mu=0.5", "clos:T=4,mu=0", "clos:T=4,mu=1.5", "clos:T=4",
                                 "clos:mu=0.5,T=4", "grid:4x2", "grid:4x2,wrap=1", "grid:4x2,wrap=12",
                                 "torus:65536x65536", "Torus:2x2", "flat:1", "torus:4,routing=", "torus:4,routing=fixed",
                                 "torus:4,routing=deterministic,routing=adaptive", "grid:4x2,routing=deterministic,wrap=10",
                                 "clos:T=4,mu=0.5,routing=deterministic", "flat,routing=deterministic",
                                 "torus:4,Routing=adaptive"}) {
    SCOPED_TRACE(text);
    try {
      parse_network(text, "environment variable DASH_TOPOLOGY");
      ADD_FAILURE() << "accepted";
    } catch (const dash::InvalidArgument& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("environment variable DASH_TOPOLOGY"), std::string::npos) << message;
      EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
      EXPECT_NE(message.find("'torus:AxBx...'"), std::string::npos) << message;
    }
  }
}

TEST(Topology, GridsNameTheNodesOrOneVirtualNodePerRank) {
  const Topology two_nodes(places(8, 4), parse_network("torus:2"));
  EXPECT_EQ(two_nodes.nodes(), 2);
  EXPECT_FALSE(two_nodes.virtual_nodes());
  EXPECT_EQ(two_nodes.ranks_on_node(1), (std::vector<int>{4, 5, 6, 7}));

  const Topology virtual_torus(places(8, 8), parse_network("torus:2x2x2"));
  EXPECT_TRUE(virtual_torus.virtual_nodes());
  EXPECT_EQ(virtual_torus.nodes(), 8);
  EXPECT_EQ(virtual_torus.place(5).node, 5);
  EXPECT_EQ(virtual_torus.place(5).core, 5);  // the hardware place stays
  EXPECT_EQ(virtual_torus.node_coordinates(5), (std::vector<int>{1, 0, 1}));

  EXPECT_THROW(Topology(places(8, 4), parse_network("torus:3")), dash::InvalidArgument);
  EXPECT_THROW(Topology(places(8, 8), parse_network("mesh:4x4")), dash::InvalidArgument);
  EXPECT_THROW(Topology({RankPlace{0}, RankPlace{2}}, Network{}), dash::InvalidArgument);  // node 1 missing
  EXPECT_THROW(virtual_torus.place(8), dash::OutOfRange);
  EXPECT_THROW(virtual_torus.node_coordinates(-1), dash::OutOfRange);

  const Topology clos(places(16, 2), parse_network("clos:T=4,mu=0.25"));
  EXPECT_EQ(clos.nodes(), 8);
  EXPECT_EQ(clos.leaf(3), 0);
  EXPECT_EQ(clos.leaf(4), 1);
  EXPECT_TRUE(clos.node_coordinates(4).empty());
}

TEST(Topology, ABoxOfATorusWrapsOnlyWhereItSpansAWholeDimension) {
  const Topology torus(places(16, 1), parse_network("torus:4x4"));  // node = rank, row-major 4 x 4
  EXPECT_EQ(to_string(torus.view(all_ranks(16)).network), "torus:4x4");
  // Rows 1 and 2, all columns: the columns still wrap, the rows do not.
  const std::vector<int> two_rows{4, 5, 6, 7, 8, 9, 10, 11};
  const auto rows = torus.view(two_rows);
  EXPECT_EQ(to_string(rows.network), "grid:2x4,wrap=01");
  EXPECT_FALSE(rows.path_order);
  EXPECT_EQ(rows.nodes, two_rows);
  // A 2 x 2 block: a mesh.
  const std::vector<int> block{5, 6, 9, 10};
  EXPECT_EQ(to_string(torus.view(block).network), "mesh:2x2");
  // A whole row is a ring.
  EXPECT_EQ(to_string(torus.view(std::vector<int>{8, 9, 10, 11}).network), "torus:4");
  // One node, whatever the ranks on it: flat.
  EXPECT_EQ(to_string(torus.view(std::vector<int>{3}).network), "flat");
  const Topology mesh(places(8, 1), parse_network("mesh:2x4"));
  EXPECT_EQ(to_string(mesh.view(std::vector<int>{0, 1, 2, 3}).network), "mesh:4");
}

TEST(Topology, ViewsKeepTheGridsRouting) {
  const Topology torus(places(16, 1), parse_network("torus:4x4,routing=deterministic"));
  EXPECT_EQ(to_string(torus.view(std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11}).network),
            "grid:2x4,wrap=01,routing=deterministic");
  EXPECT_EQ(to_string(torus.view(std::vector<int>{8, 9, 10, 11}).network), "torus:4,routing=deterministic");
  EXPECT_EQ(to_string(torus.view(std::vector<int>{10, 0, 8, 4, 9}).network), "mesh:5,routing=deterministic");
  EXPECT_EQ(to_string(torus.view(std::vector<int>{3}).network), "flat");
}

TEST(Topology, NodesThatFormNoBoxAreLinedUpAlongThePath) {
  const Topology torus(places(16, 1), parse_network("torus:4x4"));
  // An L: (0,0) (1,0) (2,0) (2,1) (2,2).
  const auto l_shape = torus.view(std::vector<int>{10, 0, 8, 4, 9});
  EXPECT_TRUE(l_shape.path_order);
  EXPECT_EQ(to_string(l_shape.network), "mesh:5");
  // The boustrophedon path runs row 0 left to right, row 1 right to left, row 2 left to right.
  EXPECT_EQ(l_shape.nodes, (std::vector<int>{0, 4, 8, 9, 10}));
  const auto diagonal = torus.view(std::vector<int>{15, 0, 5});
  EXPECT_EQ(diagonal.nodes, (std::vector<int>{0, 5, 15}));
  // Along the whole grid, consecutive path nodes are neighbours (one step in one dimension).
  const Topology cube(places(27, 1), parse_network("mesh:3x3x3"));
  std::vector<int> all = all_ranks(27);
  all.erase(all.begin() + 13);  // not a box any more
  const auto path = cube.view(all);
  ASSERT_TRUE(path.path_order);
  for (std::size_t i = 1; i < path.nodes.size(); ++i) {
    const auto a = cube.node_coordinates(path.nodes[i - 1]);
    const auto b = cube.node_coordinates(path.nodes[i]);
    int distance = 0;
    for (std::size_t d = 0; d < 3; ++d) {
      distance += std::abs(a[d] - b[d]);
    }
    EXPECT_LE(distance, 2) << "between path nodes " << path.nodes[i - 1] << " and " << path.nodes[i];
  }
  EXPECT_THROW(torus.view(std::vector<int>{1, 1}), dash::InvalidArgument);
}

TEST(Topology, ClosAndFlatViews) {
  const Topology clos(places(16, 2), parse_network("clos:T=4,mu=0.25"));
  const auto view = clos.view(std::vector<int>{15, 0, 9});
  EXPECT_EQ(view.nodes, (std::vector<int>{0, 4, 7}));
  EXPECT_EQ(to_string(view.network), "clos:T=4,mu=0.25");
  const Topology flat(places(6, 3), Network{});
  EXPECT_EQ(flat.view(all_ranks(6)).nodes, (std::vector<int>{0, 1}));
  EXPECT_EQ(to_string(flat.view(all_ranks(6)).network), "flat");
  EXPECT_NE(flat.describe().find("6 ranks on 2 nodes; network flat"), std::string::npos) << flat.describe();
}

}  // namespace
