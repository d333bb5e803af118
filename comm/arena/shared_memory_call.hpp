#pragma once
// Internal: one arena run's call (shared_memory_run.hpp): the collective call, its chunks, and, for
// a group on several nodes, the caller's rail and the group's channel.

#include <cstdint>

#include <dash/comm/detail/collective_call.hpp>
#include <dash/comm/group.hpp>

namespace dash::comm::detail {

class ArenaChannel;

// The call as its front end described it (CollectiveCall: the collective, the root, the element
// count and size, the buffers, the reduction), and how the arena runs it.
struct SharedMemoryCall : CollectiveCall {
  std::uint32_t segments = 1;  // chunks per contribution
  bool replicated = false;     // allreduce: every process combines whole chunks
  // Several nodes (groups/group_paths.hpp): the run works in the channel of the group's members
  // on the caller's node, and each chunk crosses the nodes on the caller's `rail`. Allreduce
  // (reduce): each member's combined piece of the chunk is allreduced (reduced to the root's node)
  // there; bcast and reduce: `root` is the root's node rank, `rail_root` its node; bcast's node
  // roots broadcast each chunk on their rail before staging it.
  bool hierarchical = false;
  int rail_root = 0;
  const Group* rail = nullptr;
  // The group's arena channel (groups/group_paths.hpp): its members on the caller's node.
  ArenaChannel* channel = nullptr;
};

}  // namespace dash::comm::detail
