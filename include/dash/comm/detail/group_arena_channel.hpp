#pragma once
// Internal: the channel of the collective arena (detail/collective_arena.hpp) that a group's
// collectives run in. The world group's is channel 0; a team on a single-node job gets the
// channel its tag block names (dash::Team, include/dash/core/team.hpp): a split gives its teams a
// block no member of the parent uses, so two live teams that share a process never share a
// channel, and sibling teams (disjoint members) each use their own members' regions of it.

namespace dash::comm {
class Group;
}

namespace dash::comm::detail {

class ArenaChannel;

// dash::Team, when it makes a team: its collectives may run in team channel `channel` (1 ..
// CollectiveArena::channel_count - 1), the same on every member.
void assign_arena_channel(const Group& group, int channel);

// The channel the group's collectives run in, or null: none assigned, no arena (DASH_SHARED_MEMORY=0),
// a job on several nodes, or a channel of an earlier initialisation. Made at the first call.
ArenaChannel* arena_channel_of(const Group& group);

// Whether a collective of the group still runs in its channel on this process.
bool arena_channel_busy(const Group& group) noexcept;

// dash::Team, once no member looks at the team's channel any more (after Team::free's barrier, or
// its parent's): zeroes this process's part of it for the next team of the same tag block.
void release_arena_channel(const Group& group) noexcept;

}  // namespace dash::comm::detail
