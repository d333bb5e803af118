#pragma once
// What selection reads of a call and of its group (docs/design.md, "Selection").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/network.hpp>

#include "groups/group_paths.hpp"

namespace dash::comm::selection {

// The same on every rank of a correct call, except the sizes of a variable-size call (the rank's
// own contribution), which selection therefore does not price.
struct CallFacts {
  int size = 1;
  std::size_t bytes = 0;     // per contribution
  std::size_t elements = 0;  // per contribution
  bool commutative = true;
  bool variable = false;     // contributions of different sizes (allgatherv, alltoallv, reduce_scatter)
  bool canonical = true;     // the caller needs canonical placement
  bool output_varies = false;           // the output's contributions differ in size (allgatherv, alltoallv)
  std::uint32_t segments = 0;           // Options::segments; 0: the algorithm's own
  const CartesianGrid* grid = nullptr;  // neighbor_alltoall's process grid
  std::string_view no_shared_memory{};  // why the group cannot use the node's collective arena; empty if it can
  std::string_view no_hierarchy{};      // why the call cannot run hierarchically (group_paths.hpp); empty if it can
  // Where it can: the group's nodes and members per node, and the network its rails are priced on.
  int nodes = 1;
  int node_size = 1;
  detail::RankNetwork rail_network{};
  // The network of DASH_TOPOLOGY when the group's ranks are its nodes, one rank per node (the world group of a
  // job with as many ranks as the grid has nodes, or of a Clos network); null otherwise. Then every candidate is
  // priced on it (network_cost.hpp), and the topology-aware algorithms become candidates.
  const Network* network = nullptr;
  // The grid of that network as a process grid, for the bucket algorithms; null unless it is a grid.
  std::shared_ptr<const CartesianGrid> network_grid{};
  // The group spans nodes (group_paths.hpp): its messages are priced with alpha_net and beta_net.
  bool between_nodes = false;
};

// Adds what selection reads of the group besides its size: whether the node arena or the
// hierarchical algorithms serve it, and the network its ranks or its rails are priced on.
void add_group_facts(CallFacts& facts, const Group& group);

}  // namespace dash::comm::selection
