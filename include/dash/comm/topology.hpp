#pragma once
// dash::comm::Topology: where every rank of the job runs and how the nodes are connected
// (docs/design.md §2 "Topology is detected, not assumed").
//
// Nodes come from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), the inside of a node from hwloc
// (package, NUMA domain, core of each rank's binding; locality.hpp), the network from a
// descriptor (network.hpp: DASH_TOPOLOGY or the API). A grid descriptor must name as many nodes
// as the job has, or as many as it has ranks: then every rank is a virtual node of its own (in
// rank order), so that a torus or mesh can be tried on one machine.
//
// A group of ranks sees its own part of the network (view()): the nodes it covers, and how they
// are connected among themselves. A box of a grid is a grid again, wrapping around only in the
// dimensions it spans completely (a block of a torus is a mesh unless it spans a full dimension);
// nodes that form no box are lined up along the grid's boustrophedon path (a Hamiltonian path:
// consecutive nodes of the whole grid are neighbours) and connected as a line.
//
// Memory: O(ranks) per process; the job's topology is made once, by the tool and the selection.

#include <span>
#include <string>
#include <vector>

#include <dash/comm/network.hpp>

namespace dash::comm {

struct RankPlace {
  int node = 0;         // dense node index, 0 .. nodes - 1
  int package = 0;      // hwloc logical indices on the node
  int numa_domain = 0;
  int core = 0;

  friend bool operator==(const RankPlace&, const RankPlace&) = default;
};

struct TopologyView {
  std::vector<int> nodes;   // the group's nodes: row-major over a grid box, along the path otherwise
  Network network;          // how they are connected among themselves
  bool path_order = false;  // the nodes form no box of the grid and are lined up along its path
};

// The part of `network` that its distinct nodes `nodes` span (Topology::view, for any set of nodes).
TopologyView network_view(const Network& network, std::span<const int> nodes);

class Topology {
public:
  // Collective over the base communicator (one allgather of each rank's place): the job's
  // topology with the network of DASH_TOPOLOGY (flat when unset), or `network`.
  static Topology detect();
  static Topology detect(const Network& network);

  // From each rank's place and the network. Throws dash::InvalidArgument when nodes are not
  // numbered 0 .. n - 1 or a grid names a node count that is neither the nodes' nor the ranks'.
  Topology(std::vector<RankPlace> places, Network network);

  int ranks() const noexcept { return static_cast<int>(places_.size()); }
  int nodes() const noexcept { return nodes_; }
  const Network& network() const noexcept { return network_; }
  // Every rank is a node of its own because the grid names as many nodes as there are ranks.
  bool virtual_nodes() const noexcept { return virtual_nodes_; }
  // A rank's place (its node is the virtual one when virtual_nodes()).
  const RankPlace& place(int rank) const;
  std::vector<int> ranks_on_node(int node) const;
  // A grid node's coordinates (the last dimension varies fastest); empty for other networks.
  std::vector<int> node_coordinates(int node) const;
  // A Clos node's leaf switch; 0 for other networks.
  int leaf(int node) const;

  // The part of the network the ranks `group` (distinct ranks of the job) span.
  TopologyView view(std::span<const int> group) const;

  // A human-readable summary: network, nodes, and each rank's place.
  std::string describe() const;

private:
  void check_node(const char* function, int node) const;

  std::vector<RankPlace> places_;
  Network network_;
  int nodes_ = 0;
  bool virtual_nodes_ = false;
};

}  // namespace dash::comm
