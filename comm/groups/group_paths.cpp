// The fast paths of a group as selection and the arena runs ask them (groups/group_paths.hpp);
// a team's were agreed by team_paths.cpp.

#include <memory>
#include <optional>
#include <string_view>

#include <dash/comm/config.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/collective_arena.hpp"
#include "groups/group_paths.hpp"
#include "groups/group_state.hpp"
#include "groups/team_paths_state.hpp"
#include "topology/group_layout.hpp"
#include "topology/group_network.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm::detail {

namespace {

// The team's paths, if it made them in the running initialisation.
const TeamPaths* current_paths(const Group& group) {
  const TeamPaths* paths = GroupAccess::state(group).paths.get();
  return paths != nullptr && paths->generation == runtime_generation() ? paths : nullptr;
}

}  // namespace

std::string_view shared_memory_off() {
  if (!config().shared_memory_access) {
    return "it needs shared memory, which DASH_SHARED_MEMORY=0 turned off";
  }
  if (config().progress_thread) {
    return "the progress thread (DASH_PROGRESS_THREAD=1) does not drive arena collectives, and its users expect "
           "collectives to complete in the background";
  }
  return {};
}

ArenaChannel* arena_channel_of(const Group& group) {
  CollectiveArena* arena = collective_arena();
  if (arena == nullptr) {
    return nullptr;
  }
  if (group.is_world()) {
    return &arena->world_channel();
  }
  const TeamPaths* paths = current_paths(group);
  return paths != nullptr && paths->layout.no_arena.empty() ? paths->channel.get() : nullptr;
}

std::string_view arena_unfit(const Group& group) {
  if (const std::string_view off = shared_memory_off(); !off.empty()) {
    return off;
  }
  if (group.is_world()) {
    return collective_arena() == nullptr || locality().node_count > 1
               ? "it needs all processes of the job on one node (the hierarchical algorithms serve jobs on several)"
               : "";
  }
  if (const TeamPaths* paths = current_paths(group)) {
    return paths->layout.no_arena;
  }
  return "it runs on the world group and on teams with an arena channel (the teams of a split of Team::All() and "
         "of their splits; a channel's chunk tickets follow its group's call order)";
}

std::optional<Hierarchy> hierarchy_of(const Group& group) {
  if (group.is_world()) {
    if (!world_hierarchy_unfit().empty()) {
      return std::nullopt;
    }
    const NodeHierarchy& job = node_hierarchy();
    return Hierarchy{job.nodes, job.node_size, job.node, job.node_rank, &*job.rail,
                     &collective_arena()->world_channel()};
  }
  const TeamPaths* paths = current_paths(group);
  if (paths == nullptr || !paths->layout.no_hierarchy.empty()) {
    return std::nullopt;
  }
  return paths->hierarchy;
}

std::string_view hierarchy_unfit(const Group& group) {
  if (group.is_world()) {
    return world_hierarchy_unfit();
  }
  if (const std::string_view off = shared_memory_off(); !off.empty()) {
    return off;
  }
  if (const TeamPaths* paths = current_paths(group)) {
    return paths->layout.no_hierarchy;
  }
  return "it runs on the world group and on teams on several nodes (the node arenas' chunk tickets follow their "
         "group's call order)";
}

bool spans_nodes(const Group& group) {
  if (group.size() < 2) {
    return false;
  }
  if (group.is_world()) {
    return locality().node_count > 1;
  }
  if (is_rail(group)) {
    return true;
  }
  if (const TeamPaths* paths = current_paths(group)) {
    return paths->layout.nodes > 1;
  }
  return locality().node_count > 1;
}

RankNetwork team_network_of(const Group& group) {
  const RankNetworkView* view = GroupAccess::state(group).network.get();
  if (view == nullptr || view->generation != runtime_generation()) {
    return {};
  }
  return {&view->network, view->grid};
}

std::string_view team_network_unfit(const Group& group) {
  const TeamPaths* paths = current_paths(group);
  return paths != nullptr ? std::string_view(paths->no_network) : std::string_view();
}

}  // namespace dash::comm::detail
