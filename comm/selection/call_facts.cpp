#include "selection/call_facts.hpp"

#include <optional>
#include <utility>

#include <dash/comm/locality.hpp>
#include <dash/comm/runtime.hpp>

#include "groups/group_paths.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm::selection {

namespace {

using detail::RankNetwork;

// DASH_TOPOLOGY's network when the group's ranks are its nodes, one rank per node, as Sack 2011
// assumes: the world group on a grid of as many nodes as it has ranks, or on a Clos network with
// every rank on a node of its own (or all on one machine standing in for the nodes); or a rail of
// a job with several processes per node (node_hierarchy.hpp), whose rank i is on node i. The
// rails of a node share its links; each is priced as if alone, which scales the bandwidth of all
// its candidates alike. A team, or a team's rail, whose members sit alone on their nodes is priced
// on its view of the network (group_paths.hpp).
RankNetwork rank_network(const Group& group) {
  const Network& network = config().network;
  if (network.kind == NetworkKind::flat) {
    return {};
  }
  const bool rail = detail::is_rail(group);
  if (!rail && !group.is_world()) {
    return detail::team_network_of(group);
  }
  if (network.kind == NetworkKind::clos) {
    const Locality& place = locality();
    return rail || place.node_size == 1 || place.node_count == 1 ? RankNetwork{&network, nullptr} : RankNetwork{};
  }
  if (network.grid_nodes() != group.size()) {
    return {};
  }
  static std::pair<Network, std::shared_ptr<const CartesianGrid>> grid;
  if (!grid.second || grid.first != network) {
    grid = {network, std::make_shared<const CartesianGrid>(network.dims, network.wrap)};
  }
  return {&network, grid.second};
}

}  // namespace

// The shared-memory rules of group_paths.hpp, unless the group's ranks stand for the nodes of a
// network.
void add_group_facts(CallFacts& facts, const Group& group) {
  facts.between_nodes = detail::spans_nodes(group);
  const RankNetwork ranks_as_nodes = rank_network(group);
  facts.network = ranks_as_nodes.network;
  facts.network_grid = ranks_as_nodes.grid;
  if (ranks_as_nodes.network != nullptr) {
    facts.no_shared_memory = detail::ranks_are_nodes;
    facts.no_hierarchy = detail::ranks_are_nodes;
    return;
  }
  facts.no_shared_memory = detail::arena_unfit(group);
  facts.no_hierarchy = detail::hierarchy_unfit(group);
  if (const std::optional<detail::Hierarchy> hierarchy = detail::hierarchy_of(group)) {
    facts.nodes = hierarchy->nodes;
    facts.node_size = hierarchy->node_size;
    facts.rail_network = rank_network(*hierarchy->rail);
  }
}

}  // namespace dash::comm::selection
