#pragma once
// A team's fast paths (comm/groups/group_paths.hpp), as dash::Team makes and frees them: what the core
// layer takes from the collective layer's internals for its teams. The paths are agreed once, when
// the team is made. Each member finds the team's members on its node among the node's processes,
// one allreduce over the team combines what they saw with the team channels their processes' live
// teams hold (comm/topology/group_layout.hpp), and every member reaches the same verdict. A team on one
// node runs the arena's collectives in the lowest channel free on every member; an aligned team on
// several runs the hierarchical ones, its members on each node meeting in such a channel and its
// rails carrying the inter-node stage. So two live teams that share a process never share a
// channel, and sibling teams (disjoint members) may take the same one. Under DASH_TOPOLOGY a team
// whose members sit alone on their nodes of the network is priced on its view of it, as the world
// group of one rank per node is, and a hierarchical team's rails likewise
// (comm/topology/group_network.hpp). The agreement runs collectives on messages, so it sits above the
// engine, while what it agreed is read below it.

#include <functional>
#include <optional>

#include <dash/comm/group.hpp>

namespace dash::comm {

// Collective over the members of `group`, a team just made, on messages. `team_rank_of` gives the
// group rank of a base rank (nothing for a process outside the group); `rail_tags` are the tags of
// its rails, disjoint from its own and from those of every group that shares a process with it.
void open_team_paths(const Group& group, const std::function<std::optional<int>(int)>& team_rank_of,
                     TagSpace rail_tags);

// Whether a collective of the group still runs in its channel on this process.
bool team_channel_busy(const Group& group) noexcept;

// dash::Team, once no member looks at the team's channel any more (after Team::free's barrier, or
// its parent's): zeroes this process's part of it and offers it to the next team.
void release_team_paths(const Group& group) noexcept;

}  // namespace dash::comm
