#pragma once
// Private to dash_comm: what a team agreed on when it was made (team_paths.hpp) and the
// network its ranks are priced on, as Group::State (group_state.hpp) holds them.

#include <memory>
#include <optional>
#include <string>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/network.hpp>

#include "arena/collective_arena.hpp"
#include "groups/group_paths.hpp"
#include "topology/group_layout.hpp"

namespace dash::comm::detail {

// The network a group's ranks are priced on, rank i on node i (a team's view of DASH_TOPOLOGY's
// network, or its rails'; topology/group_network.hpp), valid in the initialisation that found it.
struct RankNetworkView {
  unsigned generation = 0;
  Network network;
  std::shared_ptr<const CartesianGrid> grid;  // a grid network's, as a process grid
};

// A team's fast paths (open_team_paths), valid in the initialisation that made them.
struct TeamPaths {
  unsigned generation = 0;
  Layout layout;
  // Over the team's members on this node, in team rank order: the single-node arena's or the
  // hierarchical collectives' channel (layout.channel; null without one).
  std::unique_ptr<ArenaChannel> channel;
  // Hierarchical teams: the caller's rail (its node rank's members, one per node) and where it sits.
  std::optional<Group> rail;
  Hierarchy hierarchy;
  // Why neither its ranks nor its rails are priced on DASH_TOPOLOGY's network; empty when they are.
  std::string no_network;
};

}  // namespace dash::comm::detail
