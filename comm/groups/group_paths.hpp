#pragma once
// Internal: where a group's collectives may leave the message schedules (docs/collectives.md
// "Teams on the fast paths"): the channel of the node arena (arena/collective_arena.hpp) that its
// members on a node share, and the hierarchical composition over its nodes.
//
// The world group's paths come from the job: channel 0 of the arena on a job on one node, the
// job's node hierarchy (node_hierarchy.hpp) on several. A team's are agreed once, when dash::Team
// makes it (team_paths.hpp), and read here.

#include <memory>
#include <optional>
#include <string_view>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/network.hpp>

namespace dash::comm::detail {

class ArenaChannel;

// A network a group's ranks stand for the nodes of (rank i on node i), and its grid as a process
// grid (the bucket algorithms'); nulls when there is none.
struct RankNetwork {
  const Network* network = nullptr;
  std::shared_ptr<const CartesianGrid> grid;
};

// How a group's hierarchical collectives see it: `nodes` nodes of `node_size` members, group rank
// node * node_size + node_rank on the node-th. The node's members meet in `channel`, and the
// caller's rail (the members of its node rank, one per node in node order) carries the inter-node
// stage.
struct Hierarchy {
  int nodes = 1;
  int node_size = 1;
  int node = 0;
  int node_rank = 0;
  const Group* rail = nullptr;
  ArenaChannel* channel = nullptr;
};

// Why no arena serves any group of this job (DASH_SHARED_MEMORY=0, the progress thread); empty
// when the arenas are there.
std::string_view shared_memory_off();

// The channel the group's single-node arena collectives run in, or null: none serves it
// (arena_unfit says why).
ArenaChannel* arena_channel_of(const Group& group);
// Why the node arena's algorithms cannot serve the group; empty when they can.
std::string_view arena_unfit(const Group& group);

// The group's hierarchy, or nothing when the hierarchical algorithms cannot serve it
// (hierarchy_unfit says why).
std::optional<Hierarchy> hierarchy_of(const Group& group);
std::string_view hierarchy_unfit(const Group& group);

// Whether the group's members sit on more than one of dash's nodes (DASH_NODE_SIZE's included):
// then its messages are priced as messages between nodes (cost_model.hpp, between_nodes). A group
// of listed ranks, whose placement no one agreed on, spans nodes when the job does; so does a
// team's rail, one member per node.
bool spans_nodes(const Group& group);

// Why the shared-memory paths step aside for a group whose ranks are priced as the nodes of a network.
inline constexpr std::string_view ranks_are_nodes = "the group's ranks stand for the nodes of DASH_TOPOLOGY's network";

// Where a team or a team's rail is priced: its view of DASH_TOPOLOGY's network where its members
// sit alone on their nodes in the view's order, else nulls (the world group's and its rails' follow
// from the job). team_network_unfit says why neither a team nor its rails are priced there.
RankNetwork team_network_of(const Group& group);
std::string_view team_network_unfit(const Group& group);

}  // namespace dash::comm::detail
