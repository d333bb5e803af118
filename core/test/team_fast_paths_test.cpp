// Teams on the fast paths across nodes (docs/collectives.md "Teams on the fast paths"), on
// emulated nodes (DASH_NODE_SIZE) and on the virtual cluster's hosts: the rows and columns of a
// process grid, teams that span the nodes with several members on each, and teams the hierarchy
// cannot serve; under DASH_TOPOLOGY, teams priced on their view of the network. explain() names the
// path that serves each team or says why none does, and
// allreduce, reduce, bcast and allgather on them match MPI's on a communicator of the same members
// in the same order, from 8 B to a few MiB in several element types. Interposed send calls
// count the messages between nodes: a hierarchical team's calls cross them on its rails only, one
// message per node pair for an 8-byte allreduce where a flat algorithm sends one per rank pair.
//
// Map: the interposed sends (Sent, record_send); TeamAndReference, Places and regular_node_size;
// options and expect_collectives_match; the tests: grid rows and columns, teams spanning the nodes,
// unaligned and uneven teams refused; priced_view and the teams priced on the network; Crossings and
// the messages a hierarchical call sends between nodes.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/topology.hpp>
#include <dash/dash.hpp>

#include "arena_inputs.hpp"
#include "dash_testing.hpp"
#include "interposed_sends.hpp"
#include "reference_comm.hpp"

namespace {

// Destination and size of this process's sends (MPI_Isend, MPI_Issend, MPI_Send, MPI_Ssend,
// MPI_Sendrecv) on the library's base communicator while `recording`.
struct Sent {
  int destination;
  int bytes;
};
std::vector<Sent> sent;
bool recording = false;

}  // namespace

void record_send(int count, MPI_Datatype type, int destination, MPI_Comm comm, bool) {
  if (!recording || comm != dash::comm::base_comm()) {
    return;
  }
  int type_bytes = 0;
  PMPI_Type_size(type, &type_bytes);
  sent.push_back({destination, count * type_bytes});
}

namespace {

using dash::Team;
using dash::comm::Coll;
using dash::comm::Options;
using dash::testing::exact_doubles;
using dash::testing::rank_integers;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

using dash::testing::ReferenceComm;

// A team made by split_by(color, key) with its reference communicator.
struct TeamAndReference {
  TeamAndReference(int color, int key) : team(Team::All().split_by(color, key)), reference(color, key) {}
  ~TeamAndReference() { team.free(); }
  TeamAndReference(const TeamAndReference&) = delete;
  TeamAndReference& operator=(const TeamAndReference&) = delete;
  Team& team;
  ReferenceComm reference;
};

// Each process's node and rank on it, indexed by base rank.
struct Places {
  std::vector<int> node;
  std::vector<int> node_rank;
};

Places places() {
  const dash::comm::Locality& here = dash::comm::locality();
  const std::array<int, 2> mine{here.node, here.node_rank};
  std::vector<int> all(2 * static_cast<std::size_t>(P()));
  MPI_Allgather(mine.data(), 2, MPI_INT, all.data(), 2, MPI_INT, dash::comm::base_comm());
  Places result;
  for (int rank = 0; rank < P(); ++rank) {
    result.node.push_back(all[2 * static_cast<std::size_t>(rank)]);
    result.node_rank.push_back(all[2 * static_cast<std::size_t>(rank) + 1]);
  }
  return result;
}

// Nodes of one size k holding consecutive ranks (the emulated nodes, the cluster's KxN hosts): the
// size, else 0.
int regular_node_size() {
  const dash::comm::Locality& here = dash::comm::locality();
  const std::array<int, 2> mine{here.node_size, -here.node_size};
  std::array<int, 2> least{};
  MPI_Allreduce(mine.data(), least.data(), 2, MPI_INT, MPI_MIN, dash::comm::base_comm());
  return least[0] == -least[1] && P() % least[0] == 0 ? least[0] : 0;
}

dash::comm::Choice explained(const Team& team) { return dash::comm::explain(Coll::allreduce, 1 << 20, team.group()); }

// DASH_TOPOLOGY names a network; the shared-memory paths then step aside for teams priced on it.
bool on_a_network() { return dash::comm::config().network.kind != dash::comm::NetworkKind::flat; }

Options forced(const char* algorithm) {
  Options options;
  options.algorithm = algorithm;
  return options;
}

// One cache line, a remainder chunk, several arena chunks, and 4 MiB of doubles.
const std::vector<std::size_t> sizes = {1, 7, 1000, dash::testing::many_arena_chunks, std::size_t{1} << 19};

// `options` where they force an algorithm `collective` has, else the library's choice (reduce has
// no shared_memory algorithm).
Options for_operation(const Options& options, Coll collective) {
  const std::vector<std::string_view> names = dash::comm::algorithms(collective);
  return std::find(names.begin(), names.end(), options.algorithm) != names.end() ? options : Options{};
}

// allreduce, reduce (every root of short vectors, the last root of long ones), bcast (likewise) and
// allgather on `team` with `options`, in doubles, 64-bit and 32-bit integers and floats, against
// MPI's on `reference`.
void expect_collectives_match(const Team& team, MPI_Comm reference, const Options& options) {
  const int p = static_cast<int>(team.size());
  const int rank = team.myid();
  const Options reduce_options = for_operation(options, Coll::reduce);
  for (const std::size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n) + " " + (options.algorithm.empty() ? "library's choice" : options.algorithm));
    const int count = static_cast<int>(n);
    const std::vector<double> doubles = exact_doubles(n, me());
    std::vector<double> sum(n, -1);
    std::vector<double> expected_sum(n, -2);
    dash::comm::allreduce(doubles, sum, dash::plus{}, team.group(), options);
    MPI_Allreduce(doubles.data(), expected_sum.data(), count, MPI_DOUBLE, MPI_SUM, reference);
    EXPECT_EQ(sum, expected_sum) << "allreduce of doubles";

    const std::vector<std::int64_t> longs = rank_integers(n, me());
    std::vector<std::int64_t> largest(n, -1);
    std::vector<std::int64_t> expected_largest(n, -2);
    dash::comm::allreduce(longs, largest, dash::max{}, team.group(), options);
    MPI_Allreduce(longs.data(), expected_largest.data(), count, MPI_INT64_T, MPI_MAX, reference);
    EXPECT_EQ(largest, expected_largest) << "allreduce of int64";

    std::vector<std::int32_t> ints(n);
    std::vector<float> floats(n);
    for (std::size_t i = 0; i < n; ++i) {
      ints[i] = static_cast<std::int32_t>(i % 4099) - 17 * me();
      floats[i] = static_cast<float>(i % 257) + 0.25F * static_cast<float>(me());
    }
    std::vector<std::int32_t> smallest(n, -1);
    std::vector<std::int32_t> expected_smallest(n, -2);
    dash::comm::allreduce(ints, smallest, dash::min{}, team.group(), options);
    MPI_Allreduce(ints.data(), expected_smallest.data(), count, MPI_INT32_T, MPI_MIN, reference);
    EXPECT_EQ(smallest, expected_smallest) << "allreduce of int32";
    std::vector<float> float_sum(n, -1);
    std::vector<float> expected_float_sum(n, -2);
    dash::comm::allreduce(floats, float_sum, dash::plus{}, team.group(), options);
    MPI_Allreduce(floats.data(), expected_float_sum.data(), count, MPI_FLOAT, MPI_SUM, reference);
    EXPECT_EQ(float_sum, expected_float_sum) << "allreduce of floats";

    const int first_root = n < 2000 ? 0 : p - 1;
    for (int root = first_root; root < p; ++root) {
      std::vector<double> reduced(rank == root ? n : 0, -1);
      std::vector<double> expected_reduced(rank == root ? n : 0, -2);
      dash::comm::reduce(doubles, reduced, dash::plus{}, root, team.group(), reduce_options);
      MPI_Reduce(doubles.data(), expected_reduced.data(), count, MPI_DOUBLE, MPI_SUM, root, reference);
      EXPECT_EQ(reduced, expected_reduced) << "reduce to " << root;

      std::vector<std::int64_t> broadcast = rank == root ? longs : std::vector<std::int64_t>(n, -3);
      std::vector<std::int64_t> expected_broadcast = broadcast;
      dash::comm::bcast(broadcast, root, team.group(), options);
      MPI_Bcast(expected_broadcast.data(), count, MPI_INT64_T, root, reference);
      EXPECT_EQ(broadcast, expected_broadcast) << "bcast from " << root;
    }

    const std::size_t block = std::min<std::size_t>(n, std::size_t{1} << 17);  // outputs of p blocks
    const std::vector<std::int32_t> mine(ints.begin(), ints.begin() + static_cast<std::ptrdiff_t>(block));
    std::vector<std::int32_t> gathered(block * static_cast<std::size_t>(p), -1);
    std::vector<std::int32_t> expected_gathered(gathered.size(), -2);
    dash::comm::allgather(mine, gathered, team.group(), options);
    MPI_Allgather(mine.data(), static_cast<int>(block), MPI_INT32_T, expected_gathered.data(), static_cast<int>(block),
                  MPI_INT32_T, reference);
    EXPECT_EQ(gathered, expected_gathered) << "allgather";
  }
}

// The rows and columns of a process grid with one row per node: the rows share a node and run in
// its arena, the columns have one member per node and run between the nodes on messages.
TEST(TeamFastPaths, GridRowsRunInTheArenaAndColumnsBetweenTheNodes) {
  const int k = regular_node_size();
  const int nodes = dash::comm::locality().node_count;
  if (k == 0) {
    GTEST_SKIP() << "nodes of different sizes";
  }
  // On a network the columns (and, with a node per rank, the rows) are priced there instead
  // (TeamsArePricedOnTheirViewOfTheNetwork).
  const bool shared_memory = dash::comm::config().shared_memory_access && !on_a_network();
  {
    TeamAndReference row(me() / k, me());
    const dash::comm::Choice choice = explained(row.team);
    if (!on_a_network()) {
      EXPECT_EQ(choice.arena.serves, shared_memory && k > 1) << choice.arena.detail;
    }
    if (shared_memory && k > 1) {
      EXPECT_EQ(choice.arena.detail.rfind("arena channel 1 of the node, where the group's " + std::to_string(k) +
                                              " members meet",
                                          0),
                0)
          << choice.arena.detail;
    }
    EXPECT_FALSE(choice.hierarchy.serves);
    if (shared_memory) {
      EXPECT_EQ(choice.hierarchy.detail,
                "it needs a team on several nodes (the team's members share one, where the node arena serves it)");
    }
    expect_collectives_match(row.team, row.reference.get(), Options{});
    if (choice.arena.serves) {
      expect_collectives_match(row.team, row.reference.get(), forced("shared_memory"));
    }
  }
  {
    TeamAndReference column(me() % k, me());
    const dash::comm::Choice choice = explained(column.team);
    EXPECT_FALSE(choice.arena.serves);
    EXPECT_FALSE(choice.hierarchy.serves);
    if (shared_memory && nodes > 1) {
      EXPECT_EQ(choice.arena.detail, "the team's members span " + std::to_string(nodes) +
                                         " nodes (the hierarchical algorithms serve teams on several)");
      EXPECT_EQ(choice.hierarchy.detail, "the team's members are alone on their nodes, so no node has two to combine "
                                         "in shared memory (its calls run between the nodes on messages)");
    }
    expect_collectives_match(column.team, column.reference.get(), Options{});
  }
}

// Teams of several members on each of several nodes, in team rank order and reversed, and (with
// nodes of four) every other member of each node: the hierarchical algorithms serve them. On nodes
// of different sizes the whole job as a team is refused, and says why.
TEST(TeamFastPaths, TeamsSpanningTheNodesRunHierarchically) {
  const int k = regular_node_size();
  const int nodes = dash::comm::locality().node_count;
  const bool shared_memory = dash::comm::config().shared_memory_access;
  // A network of a node per rank prices every team on it instead.
  const bool node_per_rank = on_a_network() && dash::comm::Topology::detect().virtual_nodes();
  const bool served = shared_memory && k > 1 && nodes > 1 && !node_per_rank;
  const int node_size = dash::comm::locality().node_size;
  std::array<int, 2> sizes_here{node_size, -node_size};
  std::array<int, 2> least{};
  MPI_Allreduce(sizes_here.data(), least.data(), 2, MPI_INT, MPI_MIN, dash::comm::base_comm());
  const auto check = [&](int color, int key, int members_per_node) {
    TeamAndReference spanning(color, key);
    const dash::comm::Choice choice = explained(spanning.team);
    EXPECT_EQ(choice.hierarchy.serves, served) << choice.hierarchy.detail;
    if (shared_memory && nodes > 1 && k == 0 && !on_a_network()) {
      EXPECT_EQ(choice.hierarchy.detail, "the team's nodes hold different numbers of its members (" +
                                             std::to_string(least[0]) + " to " + std::to_string(-least[1]) + ")");
    }
    if (served) {
      EXPECT_EQ(choice.hierarchy.detail.rfind(std::to_string(nodes) + " nodes of " + std::to_string(members_per_node) +
                                                  " members: each node's members meet in arena channel ",
                                              0),
                0)
          << choice.hierarchy.detail;
      expect_collectives_match(spanning.team, spanning.reference.get(), forced("hierarchical"));
    }
    expect_collectives_match(spanning.team, spanning.reference.get(), Options{});
  };
  check(0, me(), std::max(k, 1));
  check(0, -me(), std::max(k, 1));
  if (k % 2 == 0 && k >= 4) {
    check(me() % 2, me(), k / 2);
  }
}

// Teams whose members on a node are not consecutive team ranks, or whose nodes hold different
// numbers of members: the hierarchy says why it cannot serve them, and the library's choice does.
TEST(TeamFastPaths, UnalignedAndUnevenTeamsAreRefusedWithTheReason) {
  const int k = regular_node_size();
  const int nodes = dash::comm::locality().node_count;
  if (!dash::comm::config().shared_memory_access || k < 2 || nodes < 2 || on_a_network()) {
    GTEST_SKIP() << "needs several nodes of several processes each, and no network";
  }
  {
    // Round robin: team rank r on node r % nodes.
    TeamAndReference interleaved(0, dash::comm::locality().node_rank * nodes + dash::comm::locality().node);
    const dash::comm::Choice choice = explained(interleaved.team);
    EXPECT_FALSE(choice.hierarchy.serves);
    EXPECT_EQ(choice.hierarchy.detail, "the team's members on each node must hold consecutive team ranks, its j-th "
                                       "node ranks j k .. j k + k - 1 (k = " + std::to_string(k) + " per node)");
    EXPECT_THROW(dash::comm::allreduce(std::vector<double>(4, 1.0), std::vector<double>(4), dash::plus{},
                                       interleaved.team.group(), forced("hierarchical")),
                 dash::InvalidArgument);
    expect_collectives_match(interleaved.team, interleaved.reference.get(), Options{});
  }
  {
    // Node 0 whole, one member of every other node.
    const bool member = dash::comm::locality().node == 0 || dash::comm::locality().node_rank == 0;
    TeamAndReference uneven(member ? 0 : 1, me());
    if (member) {
      const dash::comm::Choice choice = explained(uneven.team);
      EXPECT_FALSE(choice.hierarchy.serves);
      EXPECT_EQ(choice.hierarchy.detail, "the team's nodes hold different numbers of its members (1 to " +
                                             std::to_string(k) + ")");
    }
    expect_collectives_match(uneven.team, uneven.reference.get(), Options{});
  }
}

// The descriptor of the view of DASH_TOPOLOGY's network that the base ranks `ranks` span, where
// they sit alone on its nodes in the view's order (docs/topology.md "A group's view"; Clos views
// keep the leaves the ranks fill alike: as many on each, at consecutive ranks); nothing otherwise.
std::optional<std::string> priced_view(const dash::comm::Topology& topology, const std::vector<int>& ranks) {
  // A Clos network names no node count: on a job of one node its ranks stand for its nodes, as a
  // grid's do when it names as many nodes as there are ranks.
  const dash::comm::Network& network = topology.network();
  const bool node_per_rank =
      topology.virtual_nodes() || (network.kind == dash::comm::NetworkKind::clos && topology.nodes() == 1);
  std::vector<int> nodes;
  for (const int rank : ranks) {
    nodes.push_back(node_per_rank ? rank : topology.place(rank).node);
  }
  std::vector<int> distinct = nodes;
  std::sort(distinct.begin(), distinct.end());
  if (ranks.size() < 2 || std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end()) {
    return std::nullopt;
  }
  if (network.kind == dash::comm::NetworkKind::clos) {
    const int leaf_size = network.nodes_per_leaf;
    std::vector<int> runs{1};
    std::vector<int> leaves{nodes[0] / leaf_size};
    for (std::size_t i = 1; i < nodes.size(); ++i) {
      if (nodes[i] / leaf_size == leaves.back()) {
        ++runs.back();
      } else if (std::find(leaves.begin(), leaves.end(), nodes[i] / leaf_size) != leaves.end()) {
        return std::nullopt;
      } else {
        leaves.push_back(nodes[i] / leaf_size);
        runs.push_back(1);
      }
    }
    if (std::any_of(runs.begin(), runs.end(), [&](int run) { return run != runs[0]; })) {
      return std::nullopt;
    }
    dash::comm::Network leaves_used = network;
    leaves_used.nodes_per_leaf = runs[0];
    leaves_used.bisection = std::min(1.0, network.bisection * leaf_size / runs[0]);
    return to_string(leaves_used);
  }
  const dash::comm::TopologyView view = topology.view(ranks);
  return view.nodes == nodes ? std::optional<std::string>(to_string(view.network)) : std::nullopt;
}

// Under DASH_TOPOLOGY (core/test/CMakeLists.txt runs this file on torus:2x2 and clos:T=2,mu=0.5 with
// a node per rank, on emulated nodes of two on torus:2x2, and on the cluster's hosts on torus:2): a
// team whose members sit alone on their nodes is priced on its view of the network, rank i on node
// i, where its ranks follow the view's order, and the topology-aware algorithms become its
// candidates; a hierarchical team's rails are priced on the view of its nodes. Each result still
// matches MPI's.
TEST(TeamFastPaths, TeamsArePricedOnTheirViewOfTheNetwork) {
  if (!on_a_network()) {
    TeamAndReference whole(0, me());
    const dash::comm::Choice choice = explained(whole.team);
    EXPECT_FALSE(choice.network.serves);
    EXPECT_EQ(choice.network.detail, "DASH_TOPOLOGY names no network (flat): every candidate is priced by its closed "
                                     "form");
    return;
  }
  const dash::comm::Topology topology = dash::comm::Topology::detect();
  const int k = std::max(regular_node_size(), 1);
  const auto check = [&](int color, int key) {
    TeamAndReference team(color, key);
    const int size = static_cast<int>(team.team.size());
    std::vector<int> ranks;
    for (int r = 0; r < size; ++r) {
      ranks.push_back(team.team.global_rank(r));
    }
    const dash::comm::Choice choice = explained(team.team);
    SCOPED_TRACE("team of color " + std::to_string(color) + ", " + choice.network.detail);
    if (const std::optional<std::string> view = priced_view(topology, ranks)) {
      EXPECT_TRUE(choice.network.serves);
      EXPECT_EQ(choice.network.detail, "its ranks are priced as the nodes of " + *view);
      EXPECT_EQ(choice.arena.detail, "the group's ranks stand for the nodes of DASH_TOPOLOGY's network");
      for (const dash::comm::Candidate& candidate : choice.candidates) {
        if (candidate.algorithm == "distance_halving" && (size & (size - 1)) == 0) {
          EXPECT_EQ(candidate.unfit, "");
        }
      }
    } else if (choice.hierarchy.serves) {
      // "<nodes> nodes of <k> members: ...": node j's first member is team rank j k.
      int team_nodes = 0;
      int per_node = 0;
      ASSERT_EQ(std::sscanf(choice.hierarchy.detail.c_str(), "%d nodes of %d members", &team_nodes, &per_node), 2);
      std::vector<int> firsts;
      for (int node = 0; node < team_nodes; ++node) {
        firsts.push_back(ranks[static_cast<std::size_t>(node * per_node)]);
      }
      const std::optional<std::string> rails = priced_view(topology, firsts);
      EXPECT_EQ(choice.network.serves, rails.has_value());
      if (rails) {
        EXPECT_EQ(choice.network.detail, "its rails are priced as the nodes of " + *rails);
      }
    } else {
      EXPECT_FALSE(choice.network.serves);
    }
    expect_collectives_match(team.team, team.reference.get(), Options{});
  };
  check(me() / k, me());   // rows of a grid with a row per node
  check(me() % k, me());   // its columns
  check(0, me());          // everybody
  check(0, -me());         // everybody, reversed
  check(me() % 2, me());   // every other rank
}

// The messages a collective on `team` sends between nodes, counted over the whole job, and whether
// every one of them went between members of the same node rank (the rails).
struct Crossings {
  int messages = 0;
  bool on_rails = true;
};

template <class Call>
Crossings crossings(const Places& where, Call call) {
  sent.clear();
  recording = true;
  call();
  recording = false;
  int crossing = 0;
  int off_rails = 0;
  for (const Sent& message : sent) {
    // The cross-rank argument check sends hashes of 16 bytes; the payloads below have other sizes.
    const auto to = static_cast<std::size_t>(message.destination);
    const auto from = static_cast<std::size_t>(me());
    if (message.bytes == 16 || where.node[to] == where.node[from]) {
      continue;
    }
    ++crossing;
    off_rails += where.node_rank[to] == where.node_rank[from] ? 0 : 1;
  }
  std::array<int, 2> mine{crossing, off_rails};
  std::array<int, 2> total{};
  MPI_Allreduce(mine.data(), total.data(), 2, MPI_INT, MPI_SUM, dash::comm::base_comm());
  return {total[0], total[1] == 0};
}

// A team on two nodes of k members each: an 8-byte allreduce crosses between the nodes once each
// way (the member of node rank 0 of each node, whose piece is all of it), where recursive doubling
// over its 2k members sends one message per rank pair across (k each way); an 8-byte broadcast
// crosses once. Long vectors cross on every rail, each member's piece between members of its node
// rank only.
TEST(TeamFastPaths, HierarchicalCallsCrossBetweenNodesOnTheRails) {
  const int k = regular_node_size();
  if (!dash::comm::config().shared_memory_access || k < 2 || dash::comm::locality().node_count != 2) {
    GTEST_SKIP() << "needs two nodes of several processes each";
  }
  const Places where = places();
  TeamAndReference spanning(0, me());
  const dash::comm::Group& group = spanning.team.group();
  ASSERT_TRUE(explained(spanning.team).hierarchy.serves);
  const std::vector<double> one{me() + 0.5};
  std::vector<double> sum(1);
  const Crossings hierarchical = crossings(where, [&] {
    dash::comm::allreduce(one, sum, dash::plus{}, group, forced("hierarchical"));
  });
  EXPECT_EQ(sum[0], P() * P() / 2.0);
  EXPECT_EQ(hierarchical.messages, 2);
  EXPECT_TRUE(hierarchical.on_rails);
  const Crossings flat = crossings(where, [&] {
    dash::comm::allreduce(one, sum, dash::plus{}, group, forced("recursive_doubling"));
  });
  if ((k & (k - 1)) == 0) {  // its last round alone crosses: every member sends one message
    EXPECT_EQ(flat.messages, 2 * k);
  }

  std::vector<double> broadcast{me() == 0 ? 2.5 : 0.0};
  const Crossings bcast = crossings(where, [&] {
    dash::comm::bcast(broadcast, 0, group, forced("hierarchical"));
  });
  EXPECT_EQ(broadcast[0], 2.5);
  EXPECT_EQ(bcast.messages, 1);

  const std::vector<double> long_input = exact_doubles(dash::testing::many_arena_chunks, me());
  std::vector<double> long_sum(long_input.size());
  const Crossings pieces = crossings(where, [&] {
    dash::comm::allreduce(long_input, long_sum, dash::plus{}, group, forced("hierarchical"));
  });
  EXPECT_TRUE(pieces.on_rails);
  EXPECT_GE(pieces.messages, 2 * k);
  std::vector<double> expected(long_input.size());
  MPI_Allreduce(long_input.data(), expected.data(), static_cast<int>(expected.size()), MPI_DOUBLE, MPI_SUM,
                spanning.reference.get());
  EXPECT_EQ(long_sum, expected);
}

}  // namespace
