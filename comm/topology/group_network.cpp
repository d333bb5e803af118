#include <algorithm>
#include <set>
#include <vector>

#include <dash/comm/topology.hpp>

#include "topology/group_network.hpp"

namespace dash::comm::detail {

PricedNetwork priced_network(const Network& network, std::span<const int> nodes) {
  if (network.kind == NetworkKind::flat) {
    return {std::nullopt, "DASH_TOPOLOGY names no network (flat): every candidate is priced by its closed form"};
  }
  if (nodes.size() < 2) {
    return {std::nullopt, "the group spans one node of the network"};
  }
  if (network.kind == NetworkKind::clos) {
    // The leaves in rank order: each one run of ranks, all runs of one length.
    const int leaf_size = network.nodes_per_leaf;
    std::vector<int> runs;
    std::set<int> leaves;
    bool even = true;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const int leaf = nodes[i] / leaf_size;
      if (i > 0 && leaf == nodes[i - 1] / leaf_size) {
        ++runs.back();
      } else {
        even = even && leaves.insert(leaf).second;
        runs.push_back(1);
      }
    }
    even = even && std::all_of(runs.begin(), runs.end(), [&](int run) { return run == runs.front(); });
    if (!even) {
      return {std::nullopt, "the group's ranks do not fill the Clos leaves they use alike (as many of them on "
                            "each leaf, at consecutive ranks)"};
    }
    const int members = runs.front();
    Network leaves_used = network;
    leaves_used.nodes_per_leaf = members;
    leaves_used.bisection = std::min(1.0, network.bisection * leaf_size / members);
    return {leaves_used, {}};
  }
  const TopologyView view = network_view(network, nodes);
  if (!std::equal(view.nodes.begin(), view.nodes.end(), nodes.begin(), nodes.end())) {
    return {std::nullopt, "the group's ranks do not follow its nodes' order on the grid (row-major over a box of "
                          "it, or along its path)"};
  }
  return {view.network, {}};
}

}  // namespace dash::comm::detail
