#pragma once
// Internal: how a team's members sit on the nodes, and which of the shared-memory paths that
// allows (docs/collectives.md "Teams on the fast paths"). Pure: when a team is made, every member
// states its facts (member_facts), one allreduce over the team combines them (combine), and every
// member reaches the same Layout from the result (decide_layout).
//
// A team whose members all share one node runs the node arena's collectives in a team channel. A
// team on several nodes runs the hierarchical ones when it is aligned: every node holds k >= 2 of
// its members, and the j-th of its nodes (in team rank order) holds team ranks [j k, (j + 1) k).
// Both take a channel free on every member: the lowest one no member's live teams hold.

#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dash::comm::detail {

// What the members of a team tell each other when it is made, combined over all of them.
struct LayoutFacts {
  std::uint64_t channels_taken = 0;    // team channel c is bit c - 1: held by a live team of some member
  std::int32_t fewest = INT32_MAX;     // the fewest members any member's node holds
  std::int32_t most = 0;               // the most
  std::int32_t aligned = 1;            // 1 while every member's node holds team ranks [j k, (j + 1) k)
  std::int32_t nodes = 0;              // the nodes the team spans (each node's first member counts it)
};

// One member's facts: `node_members` are the team ranks of the members on its node, ascending (its
// own among them); `channels_taken` the team channels this process's live teams hold.
LayoutFacts member_facts(std::span<const int> node_members, int rank, std::uint64_t channels_taken) noexcept;

// The facts of two sets of members together (commutative and associative).
LayoutFacts combine(const LayoutFacts& a, const LayoutFacts& b) noexcept;

// The verdict every member of a team reaches alike.
struct Layout {
  int nodes = 1;      // nodes the team spans
  int node_size = 0;  // members on each of them; 0 when the nodes hold different numbers
  int channel = 0;    // the team channel it takes (1 .. team channels), 0 when none
  std::string no_arena;      // why the node arena's algorithms cannot serve it; empty when they can
  std::string no_hierarchy;  // why the hierarchical ones cannot; empty when they can
};

// The layout of a team of `size` members whose facts combined to `all`, on processes with
// `team_channels` team channels each. `no_shared_memory` says why no arena serves any team of this
// job (DASH_SHARED_MEMORY=0, the progress thread); empty when the arenas are there.
Layout decide_layout(const LayoutFacts& all, int size, int team_channels, std::string_view no_shared_memory);

}  // namespace dash::comm::detail
