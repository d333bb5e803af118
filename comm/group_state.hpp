#pragma once
// Private to dash_comm: what a Group shares among its copies (group.hpp), including the fast
// paths a team agreed on when it was made (detail/group_paths.hpp).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/detail/collective_arena.hpp>
#include <dash/comm/detail/group_layout.hpp>
#include <dash/comm/detail/group_paths.hpp>
#include <dash/comm/group.hpp>

namespace dash::comm {

namespace detail {

// The network a group's ranks are priced on, rank i on node i (a team's view of DASH_TOPOLOGY's
// network, or its rails'; detail/group_network.hpp), valid in the initialisation that found it.
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

}  // namespace detail

struct Group::State {
  int size = 0;
  int rank = 0;
  std::shared_ptr<const RankMap> map;
  TagSpace tags;
  mutable unsigned long long sequence = 0;
  bool world = false;  // Group::world()'s (shared by Team::All()): is_world() asks on every call
  // Never shared by two groups of one process: what selection keeps per group (engine/launch.cpp) is
  // keyed on it, not on the state's address, which a later group may reuse.
  std::uint64_t serial = 0;
  std::unique_ptr<detail::TeamPaths> paths;
  std::unique_ptr<detail::RankNetworkView> network;
};

namespace detail {

// The state of a group, for the layer's own code.
struct GroupAccess {
  static Group::State& state(const Group& group) noexcept { return *group.state_; }
};

}  // namespace detail

}  // namespace dash::comm
