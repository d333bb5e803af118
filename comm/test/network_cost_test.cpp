// The congestion-aware network cost (network_cost.hpp): hand-counted link loads on small networks,
// and the golden numbers of Sack 2011 §3.5.6 and predictions recomputed from its model (bandwidth
// terms in nδ with one block of n bytes per rank). Sack 2011 writes tori as XxYxZ with X fastest;
// our grids number the last dimension fastest, so its XxYxZ is our torus ZxYxX.
//
// Map: the shape and one-round schedule helpers; small networks counted by hand (flat, stages,
// chains and trees, half rings, XOR stages, routing order, one port, permutations, deterministic
// routing, local work, Clos uplinks, bad arguments); the golden numbers on BG/P tori (the 8x8x8
// counts, the recomputed table, its orders); the Clos closed forms and speed-up.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/network_cost.hpp>
#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/recursive_doubling_order.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/verifier.hpp>

#include "selection/algorithm_costs.hpp"

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

CollectiveShape allgather_shape(int p) {
  CollectiveShape shape;
  shape.collective = Coll::allgather;
  shape.size = p;
  shape.segments = 1;
  return shape;
}

// A one-round schedule per rank, from a list of (from, to, blocks) messages.
struct Message {
  int from;
  int to;
  std::uint32_t blocks;
};

NetworkCostTerms cost_of_stage(int p, const std::vector<Message>& messages, const Network& network,
                               NetworkCostOptions options = {}) {
  return network_cost(
      allgather_shape(p),
      [&](int rank) {
        Schedule schedule;
        Round& round = schedule.add_round();
        for (const Message& message : messages) {
          if (message.from == rank) {
            round.actions.push_back(Action::send_to(message.to, Buffer::input, BlockSet::range(0, message.blocks)));
          }
        }
        return schedule;
      },
      network, options);
}

NetworkCostTerms cost_of(const CollectiveShape& shape, Schedule (*generator)(const CollectiveShape&, int),
                         const Network& network) {
  return network_cost(shape, [&](int rank) { return generator(shape, rank); }, network);
}

NetworkCostTerms ordered_allgather_cost(const Network& network, std::span<const int> order) {
  const CollectiveShape shape = allgather_shape(network.kind == NetworkKind::grid ? network.grid_nodes() : 1 << order.size());
  return network_cost(
      shape, [&](int rank) { return allgather_recursive_doubling_ordered(shape, rank, order); }, network);
}

// ---------------------------------------------------------------------------------------------
// Small networks, counted by hand.

// A transpose of an 8x8 grid: (row, column) sends one block to (column, row).
std::vector<Message> transpose_8x8() {
  std::vector<Message> transpose;
  for (int row = 0; row < 8; ++row) {
    for (int column = 0; column < 8; ++column) {
      if (row != column) {
        transpose.push_back({8 * row + column, 8 * column + row, 1});
      }
    }
  }
  return transpose;
}

TEST(NetworkCost, FlatChargesTheBusiestNodesSendsOrReceives) {
  // Rank 0 sends 3 + 2 blocks; rank 3 receives 4 + 2.
  const std::vector<Message> stage = {{0, 1, 3}, {0, 2, 2}, {1, 3, 4}, {2, 3, 2}};
  const NetworkCostTerms terms = cost_of_stage(4, stage, parse_network("flat"));
  EXPECT_EQ(terms.startups, 2);
  EXPECT_EQ(terms.link_blocks, 6);
  EXPECT_EQ(terms.stage_link_blocks, std::vector<double>{6});
}

TEST(NetworkCost, SumsStagesAndCountsStartupsPerStage) {
  // Ring allgather on a ring of 8: 7 stages of one block on one link each.
  const NetworkCostTerms terms = cost_of(allgather_shape(8), allgather_ring, parse_network("torus:8"));
  EXPECT_EQ(terms.startups, 7);
  EXPECT_EQ(terms.link_blocks, 7);
  EXPECT_EQ(terms.stage_link_blocks, std::vector<double>(7, 1.0));
}

TEST(NetworkCost, ChainsAndTreesTakeAStagePerHopOfTheirLongestPath) {
  // A rank forwards only what it received: the pipelined chain of 8 ranks with 4 segments takes
  // p + S - 2 = 10 stages of one block (Kowalewski 2021 Eq. 4.5), not the 5 rounds of its longest
  // schedule; the binomial tree of 8 takes lg 8 = 3.
  CollectiveShape shape;
  shape.collective = Coll::bcast;
  shape.size = 8;
  shape.segments = 4;
  const NetworkCostTerms chain = cost_of(shape, bcast_pipelined_chain, parse_network("flat"));
  EXPECT_EQ(chain.startups, 10);
  EXPECT_EQ(chain.link_blocks, 10);
  shape.segments = 1;
  const NetworkCostTerms tree = cost_of(shape, bcast_binomial, parse_network("flat"));
  EXPECT_EQ(tree.startups, 3);
  EXPECT_EQ(tree.link_blocks, 3);
}

TEST(NetworkCost, SplitsHalfRingTransfersOverBothDirections) {
  // One message half-way round a ring of 8: half a block on each way's links. One port still
  // sends the whole block; multi-port sees the links only.
  const std::vector<Message> stage = {{0, 4, 1}};
  EXPECT_EQ(cost_of_stage(8, stage, parse_network("torus:8")).link_blocks, 1);
  EXPECT_EQ(cost_of_stage(8, stage, parse_network("torus:8"), {.multi_port = true}).link_blocks, 0.5);
  // On a mesh it takes the only way: four hops, one block each.
  EXPECT_EQ(cost_of_stage(8, stage, parse_network("mesh:8"), {.multi_port = true}).link_blocks, 1);
}

TEST(NetworkCost, XorStagesCongestAsThePublishedCounts) {
  // Sack 2011 §3.3: within a torus dimension of 8, XOR 1 is congestion-free, XOR 2 has congestion 2
  // and XOR 4 (half the ring) p/4 = 2 using the wrap links; a mesh doubles the last one.
  auto xor_stage = [](int p, int bit) {
    std::vector<Message> stage;
    for (int i = 0; i < p; ++i) {
      stage.push_back({i, i ^ (1 << bit), 1});
    }
    return stage;
  };
  EXPECT_EQ(cost_of_stage(8, xor_stage(8, 0), parse_network("torus:8")).link_blocks, 1);
  EXPECT_EQ(cost_of_stage(8, xor_stage(8, 1), parse_network("torus:8")).link_blocks, 2);
  EXPECT_EQ(cost_of_stage(8, xor_stage(8, 2), parse_network("torus:8")).link_blocks, 2);
  EXPECT_EQ(cost_of_stage(8, xor_stage(8, 2), parse_network("mesh:8")).link_blocks, 4);
  // 32: congestion 1, 2, 4, 8 and 32/4 = 8.
  for (const auto& [bit, want] : {std::pair{0, 1.0}, {1, 2.0}, {2, 4.0}, {3, 8.0}, {4, 8.0}}) {
    EXPECT_EQ(cost_of_stage(32, xor_stage(32, bit), parse_network("torus:32")).link_blocks, want) << "bit " << bit;
  }
}

TEST(NetworkCost, RoutesTheLastDimensionFirst) {
  // On a 4x4 mesh, (0,0) -> (1,1) goes to (0,1) first, then shares the link (0,1) -> (1,1) with
  // the message from (0,1). Routing the first dimension first would keep them apart.
  const std::vector<Message> stage = {{0, 5, 1}, {1, 5, 1}};
  EXPECT_EQ(cost_of_stage(16, stage, parse_network("mesh:4x4"), {.multi_port = true}).link_blocks, 2);
  // Not shared when the second message comes from (1,0) instead.
  const std::vector<Message> apart = {{0, 5, 1}, {4, 5, 1}};
  EXPECT_EQ(cost_of_stage(16, apart, parse_network("mesh:4x4"), {.multi_port = true}).link_blocks, 1);
}

TEST(NetworkCost, OnePortSerialisesAGridNodesMessages) {
  // Node 5 of a 4x4 torus sends one block to each neighbour: one link each, but one port.
  const std::vector<Message> stage = {{5, 1, 1}, {5, 4, 1}, {5, 6, 1}, {5, 9, 1}};
  EXPECT_EQ(cost_of_stage(16, stage, parse_network("torus:4x4")).link_blocks, 4);
  EXPECT_EQ(cost_of_stage(16, stage, parse_network("torus:4x4"), {.multi_port = true}).link_blocks, 1);
  const NetworkCostOptions six_port{.multi_port = true, .multi_port_efficiency = 0.5};
  EXPECT_EQ(cost_of_stage(16, stage, parse_network("torus:4x4"), six_port).link_blocks, 2);
  EXPECT_EQ(cost_of_stage(16, stage, parse_network("torus:4x4"), six_port).startups, 4);
}

TEST(NetworkCost, ChargesPermutationsAtMostTheBisectionTime) {
  // A transpose of an 8x8 mesh, routed last dimension first, gathers row 0's 7 messages on the
  // link into (0,0); through the narrowest bisection (8 links each way) any permutation of 64
  // one-block messages takes 64/16 = 4.
  const std::vector<Message> transpose = transpose_8x8();
  EXPECT_EQ(cost_of_stage(64, transpose, parse_network("mesh:8x8")).link_blocks, 4);
  // The same messages as one rank's fan-out are no permutation: routed, 7 blocks through one port.
  std::vector<Message> fan_out;
  for (int column = 1; column < 8; ++column) {
    fan_out.push_back({0, 8 * column, 1});
  }
  EXPECT_EQ(cost_of_stage(64, fan_out, parse_network("mesh:8x8")).link_blocks, 7);
  // On a 2x2x2 torus the bisection (8 links each way) would pass 8 messages in half a message's
  // time, but one port needs the whole time for its message.
  EXPECT_EQ(cost_of_stage(8, {{0, 1, 3}}, parse_network("torus:2x2x2")).link_blocks, 3);
}

TEST(NetworkCost, DeterministicRoutingSendsHalfRingsOneWay) {
  const Network ring = parse_network("torus:8,routing=deterministic");
  const NetworkCostOptions multi_port{.multi_port = true};
  // A whole block on one way's links: up from 0, and down from the middle coordinate 4 (SimGrid's
  // rule), so both messages of the pair 0 <-> 4 leave on different links.
  EXPECT_EQ(cost_of_stage(8, {{0, 4, 1}}, ring, multi_port).link_blocks, 1);
  EXPECT_EQ(cost_of_stage(8, {{0, 4, 1}, {4, 0, 1}}, ring, multi_port).link_blocks, 1);
  // From 1 and from 5 both go up, on disjoint links (1 -> 2 ... 4 -> 5 and 5 -> 6 ... 0 -> 1).
  EXPECT_EQ(cost_of_stage(8, {{1, 5, 1}, {5, 1, 1}}, ring, multi_port).link_blocks, 1);
  // XOR 4 on a ring of 8: every node but 4 sends up, so the link 2 -> 3 carries the messages of
  // 7, 0, 1 and 2: 4 blocks, where splitting half rings gives Sack's p/4 = 2.
  std::vector<Message> xor_4;
  for (int i = 0; i < 8; ++i) {
    xor_4.push_back({i, i ^ 4, 1});
  }
  EXPECT_EQ(cost_of_stage(8, xor_4, ring, multi_port).link_blocks, 4);
  EXPECT_EQ(cost_of_stage(8, xor_4, parse_network("torus:8"), multi_port).link_blocks, 2);
  EXPECT_EQ(cost_of_stage(8, xor_4, parse_network("torus:8,routing=adaptive"), multi_port).link_blocks, 2);
}

TEST(NetworkCost, DeterministicRoutingChargesPermutationsTheirRoutedLoad) {
  // The 8x8 mesh transpose of ChargesPermutationsAtMostTheBisectionTime: 7 blocks on the link into
  // (0,0) as routed, no bisection bound.
  const std::vector<Message> transpose = transpose_8x8();
  EXPECT_EQ(cost_of_stage(64, transpose, parse_network("mesh:8x8,routing=deterministic")).link_blocks, 7);
}

// Local work: lockstep schedules on powers of two combine along the critical path what the busiest
// rank combines in each stage, so the stage sums equal the verifier's critical path and the closed
// forms (with the extra steps of other group sizes the two measures part: Rabenseifner at p = 12
// sums 20 blocks over the stages, its critical path 17); copies are the busiest rank's, as the
// closed forms count them.
TEST(NetworkCost, CountsCombiningPerStageAndTheBusiestRanksCopies) {
  struct Case {
    Coll collective;
    Schedule (*generate)(const CollectiveShape&, int);
    const dash::comm::detail::AlgorithmCost& cost;
    bool p_segments;
  };
  using namespace dash::comm::detail;
  const Case cases[] = {
      {Coll::allreduce, allreduce_recursive_doubling, allreduce_recursive_doubling_cost, false},
      {Coll::allreduce, allreduce_rabenseifner, allreduce_rabenseifner_cost, true},
      {Coll::allreduce, allreduce_ring, allreduce_ring_cost, true},
      {Coll::reduce_scatter, reduce_scatter_recursive_halving, reduce_scatter_recursive_halving_cost, false},
      {Coll::reduce_scatter, reduce_scatter_ring, reduce_scatter_ring_cost, false},
  };
  for (const Case& c : cases) {
    for (const int p : {2, 4, 8, 16, 32}) {
      CollectiveShape shape;
      shape.collective = c.collective;
      shape.size = p;
      shape.segments = c.p_segments ? static_cast<std::uint32_t>(p) : 1;
      SCOPED_TRACE(std::string(to_string(c.collective)) + " p=" + std::to_string(p) + " S=" +
                   std::to_string(shape.segments));
      const auto schedule_of = [&](int rank) { return c.generate(shape, rank); };
      const NetworkCostTerms terms = network_cost(shape, schedule_of, parse_network("flat"));
      const VerificationReport report = verify(shape, schedule_of);
      ASSERT_TRUE(report.ok) << report.error;
      const dash::comm::CostTerms closed = c.cost.terms(CostShape{p, shape.segments});
      EXPECT_EQ(terms.reduced_blocks, report.metrics.critical_reduced_blocks);
      EXPECT_EQ(terms.reduced_blocks, closed.reduced_blocks);
      EXPECT_EQ(terms.copied_blocks, closed.copied_blocks);
      EXPECT_GT(terms.reduced_blocks, 0);
    }
  }
}

TEST(NetworkCost, ClosChargesLeafUplinksAtMuTimesT) {
  // T = 4, µ = 0.5: 2 uplinks' worth per leaf. All of leaf 0 sending to leaf 1 takes 4/2 = 2
  // block times; traffic inside a leaf only the injection time; one node's fan-out its port.
  const Network clos = parse_network("clos:T=4,mu=0.5");
  EXPECT_EQ(cost_of_stage(8, {{0, 4, 1}, {1, 5, 1}, {2, 6, 1}, {3, 7, 1}}, clos).link_blocks, 2);
  EXPECT_EQ(cost_of_stage(8, {{0, 4, 1}, {1, 5, 1}}, clos).link_blocks, 1);
  EXPECT_EQ(cost_of_stage(8, {{0, 1, 1}, {1, 0, 1}, {2, 3, 1}, {3, 2, 1}}, clos).link_blocks, 1);
  EXPECT_EQ(cost_of_stage(8, {{0, 1, 1}, {0, 2, 1}, {0, 5, 1}}, clos).link_blocks, 3);
  // Messages to oneself cost a start-up and no bandwidth.
  const NetworkCostTerms self = cost_of_stage(8, {{3, 3, 5}}, clos);
  EXPECT_EQ(self.startups, 1);
  EXPECT_EQ(self.link_blocks, 0);
}

TEST(NetworkCost, RejectsInconsistentArguments) {
  auto expect_error = [](const Network& network, NetworkCostOptions options, const std::string& message) {
    try {
      cost_of_stage(8, {{0, 1, 1}}, network, options);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  };
  expect_error(parse_network("torus:4x4"), {},
               "dash::comm::network_cost: invalid argument 'network' = 'torus:4x4'; expected a grid of shape.size = 8 "
               "nodes (one rank per node)");
  Network clos = parse_network("clos:T=4,mu=0.5");
  clos.bisection = 0;
  expect_error(clos, {}, "dash::comm::network_cost: invalid argument 'network.bisection' = 0; expected a ratio µ in (0, 1]");
  clos = parse_network("clos:T=4,mu=0.5");
  clos.nodes_per_leaf = 0;
  expect_error(clos, {}, "dash::comm::network_cost: invalid argument 'network.nodes_per_leaf' = 0; expected at least 1");
  expect_error(parse_network("flat"), {.multi_port = true, .multi_port_efficiency = 1.5},
               "dash::comm::network_cost: invalid argument 'options.multi_port_efficiency' = 1.5; expected a fraction in "
               "(0, 1]");
  Network unknown_routing = parse_network("torus:8");
  unknown_routing.routing = static_cast<GridRouting>(7);
  expect_error(unknown_routing, {},
               "dash::comm::network_cost: invalid argument 'network.routing' = 7; expected GridRouting::adaptive or "
               "GridRouting::deterministic");
  try {
    // Each rank receives in round 0 what the other sends in round 1.
    network_cost(
        allgather_shape(2),
        [](int rank) {
          Schedule schedule;
          schedule.add_round().actions.push_back(Action::receive_from(1 - rank, Buffer::output, BlockSet::range(0, 1)));
          schedule.add_round().actions.push_back(Action::send_to(1 - rank, Buffer::input, BlockSet::range(0, 1)));
          return schedule;
        },
        parse_network("flat"));
    ADD_FAILURE() << "schedules that deadlock were accepted";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "dash::comm::network_cost: invalid argument 'schedule_of(0) round 0' = 'a "
                                         "round in a cycle of rounds waiting for each other'; expected schedules "
                                         "that cannot deadlock");
  }
  try {
    cost_of_stage(8, {{2, 8, 1}}, parse_network("flat"));
    ADD_FAILURE() << "a peer outside the group was accepted";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "dash::comm::network_cost: invalid argument 'schedule_of(2) round 0 send peer' "
                                         "= 8; expected a rank in [0, 8)");
  }
}

// ---------------------------------------------------------------------------------------------
// Golden numbers on BG/P tori (Sack 2011 §3.5.6, and predictions recomputed from its model).

// Sack's XxYxZ torus.
Network bgp_torus(int x, int y, int z) {
  return parse_network("torus:" + std::to_string(z) + "x" + std::to_string(y) + "x" + std::to_string(x));
}

// The orders of the recomputed table: torus_order's turns with each turn's bits ascending.
std::vector<int> published_table_order(std::span<const int> dims) {
  std::vector<int> order = torus_order(dims);
  std::vector<int> bits;
  for (const int d : dims) {
    bits.push_back(std::countr_zero(static_cast<unsigned>(d)));
  }
  auto turn_begin = order.begin();
  for (int left = *std::max_element(bits.begin(), bits.end()); left >= 1; --left) {
    const auto turn_size = std::count_if(bits.begin(), bits.end(), [left](int b) { return b >= left; });
    std::sort(turn_begin, turn_begin + turn_size);
    turn_begin += turn_size;
  }
  return order;
}

TEST(NetworkCostGolden, Torus8x8x8MatchesThePublishedCounts) {
  const Network torus = bgp_torus(8, 8, 8);
  const CollectiveShape shape = allgather_shape(512);
  // Distance doubling (the minimal generator): n(1+p+p^2)(5/24 p^2 - 1/3) = 949, 9 stages.
  const NetworkCostTerms doubling = cost_of(shape, allgather_recursive_doubling, torus);
  EXPECT_EQ(doubling.link_blocks, 949);
  EXPECT_EQ(doubling.startups, 9);
  // Distance halving + bit-reverse pre-swap: 730 + the swap's bisection charge 8/4 = 2.
  const NetworkCostTerms halving = ordered_allgather_cost(torus, distance_halving_order(512));
  EXPECT_EQ(halving.link_blocks, 732);
  EXPECT_EQ(halving.startups, 10);
  // Torus-optimal (Sack 2011 §3.5.6, first example): 10α + 576nδ, stage by stage as Sack counts it.
  const std::vector<int> dims = {8, 8, 8};
  const std::vector<int> order = torus_order(dims);
  EXPECT_EQ(order, (std::vector<int>{2, 5, 8, 1, 4, 7, 0, 3, 6}));
  const NetworkCostTerms optimal = ordered_allgather_cost(torus, order);
  EXPECT_EQ(optimal.link_blocks, 576);
  EXPECT_EQ(optimal.startups, 10);
  EXPECT_EQ(optimal.stage_link_blocks, (std::vector<double>{2, 2, 4, 8, 16, 32, 64, 64, 128, 256}));
  // 1-port ring: 511 uncongested stages of one block.
  const NetworkCostTerms ring = cost_of(shape, allgather_ring, torus);
  EXPECT_EQ(ring.link_blocks, 511);
  EXPECT_EQ(ring.startups, 511);
}

// One row of the table recomputed from Sack 2011's model: rd-doubling, rd-halving (+swap) and
// rd-optimal (+swap) in nδ, the last with the table's order; ours is torus_order's.
struct TableRow {
  int x, y, z;
  double doubling;
  double halving;
  double published_optimal;
  double our_optimal;
};

void PrintTo(const TableRow& row, std::ostream* out) { *out << row.x << "x" << row.y << "x" << row.z; }

class PublishedTable : public testing::TestWithParam<TableRow> {};

TEST_P(PublishedTable, ReproducesTheRow) {
  const TableRow& row = GetParam();
  const Network torus = bgp_torus(row.x, row.y, row.z);
  const int p = row.x * row.y * row.z;
  const int stages = std::countr_zero(static_cast<unsigned>(p));
  EXPECT_EQ(cost_of(allgather_shape(p), allgather_recursive_doubling, torus).link_blocks, row.doubling);
  const NetworkCostTerms halving = ordered_allgather_cost(torus, distance_halving_order(p));
  EXPECT_EQ(halving.link_blocks, row.halving);
  EXPECT_EQ(halving.startups, stages + 1);
  const std::vector<int> dims = {row.z, row.y, row.x};
  EXPECT_EQ(ordered_allgather_cost(torus, published_table_order(dims)).link_blocks, row.published_optimal);
  const NetworkCostTerms optimal = ordered_allgather_cost(torus, torus_order(dims));
  EXPECT_EQ(optimal.link_blocks, row.our_optimal);
  EXPECT_EQ(optimal.startups, stages + 1);
}

// Non-cubic rows: that table's order puts each turn's smaller dimensions first, ours the larger.
INSTANTIATE_TEST_SUITE_P(BgpPartitions, PublishedTable,
                         testing::Values(TableRow{8, 8, 8, 949, 732, 576, 576}, TableRow{8, 8, 16, 3509, 1472, 1172, 1160},
                                         TableRow{8, 8, 32, 13749, 2960, 2360, 2336},
                                         TableRow{8, 16, 32, 27701, 6096, 4744, 4688}));
// P = 8192 .. 32768: several seconds each in unoptimised builds.
INSTANTIATE_TEST_SUITE_P(LargeGroups, PublishedTable,
                         testing::Values(TableRow{8, 32, 32, 56245, 12624, 9504, 9408},
                                         TableRow{16, 32, 32, 112517, 31056, 19056, 19008},
                                         TableRow{32, 32, 32, 225141, 76112, 38144, 38144}));

TEST(NetworkCostGolden, PublishedTableOrders) {
  auto published_order = [](std::vector<int> dims) { return published_table_order(dims); };
  EXPECT_EQ(published_order({8, 8, 8}), (std::vector<int>{2, 5, 8, 1, 4, 7, 0, 3, 6}));
  EXPECT_EQ(published_order({16, 8, 8}), (std::vector<int>{9, 2, 5, 8, 1, 4, 7, 0, 3, 6}));
  const std::vector<int> z32 = published_order({32, 8, 8});
  EXPECT_EQ(std::vector<int>(z32.begin(), z32.begin() + 5), (std::vector<int>{10, 9, 2, 5, 8}));
  EXPECT_EQ(published_order({32, 16, 8}), (std::vector<int>{11, 6, 10, 2, 5, 9, 1, 4, 8, 0, 3, 7}));
  const std::vector<int> cube = published_order({32, 32, 32});
  EXPECT_EQ(std::vector<int>(cube.begin(), cube.begin() + 6), (std::vector<int>{4, 9, 14, 3, 8, 13}));
  EXPECT_EQ(std::vector<int>(cube.end() - 3, cube.end()), (std::vector<int>{0, 5, 10}));
}

// ---------------------------------------------------------------------------------------------
// Clos closed forms (Sack 2011 §3.3, §3.4.1), in nδ.

struct ClosCosts {
  double doubling;
  double halving_with_swap;
};

ClosCosts clos_costs(int p, int t, double mu) {
  const Network clos = parse_network("clos:T=" + std::to_string(t) + ",mu=" + std::to_string(mu));
  const std::vector<int> doubling = distance_doubling_order(p);
  const std::vector<int> halving = distance_halving_order(p);
  return {ordered_allgather_cost(clos, doubling).link_blocks, ordered_allgather_cost(clos, halving).link_blocks};
}

TEST(NetworkCostGolden, ClosMatchesTheClosedForms) {
  // P = 1024, T = 16: distance doubling n{(T-1) + (P-T)/µ}; distance halving
  // n{(1/µ)(P/T - 1) + (P - P/T)} plus the swap, α + (n/µ)δ: some leaf sends all its nodes' inputs
  // out. The minimal generator costs the same as the ordered one with the identity order.
  for (const double mu : {0.25, 0.5, 1.0}) {
    const ClosCosts costs = clos_costs(1024, 16, mu);
    EXPECT_EQ(costs.doubling, 15 + 1008 / mu) << "mu " << mu;
    EXPECT_EQ(costs.halving_with_swap, 63 / mu + 960 + 1 / mu) << "mu " << mu;
  }
  const Network clos = parse_network("clos:T=16,mu=0.25");
  EXPECT_EQ(cost_of(allgather_shape(1024), allgather_recursive_doubling, clos).link_blocks, 15 + 1008 / 0.25);
}

TEST(NetworkCostGolden, ClosSpeedupAtQuarterBisection) {
  // P = 32768, µ = 0.25: the 3.4-3.8x of Sack 2011's Clos formulas for T = 16 .. 64 (3.37, 3.65,
  // 3.82 unrounded).
  const int p = 32768;
  for (const auto& [t, rounded] : {std::pair{16, 3.4}, {32, 3.7}, {64, 3.8}}) {
    const ClosCosts costs = clos_costs(p, t, 0.25);
    EXPECT_EQ(costs.doubling, (t - 1) + (p - t) / 0.25) << "T " << t;
    EXPECT_EQ(costs.halving_with_swap, (p / t - 1) / 0.25 + (p - p / t) + 1 / 0.25) << "T " << t;
    EXPECT_EQ(std::round(10 * costs.doubling / costs.halving_with_swap) / 10, rounded) << "T " << t;
  }
}

}  // namespace
