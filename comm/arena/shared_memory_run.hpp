#pragma once
// Internal: the intra-node shared-memory collectives (after Mamidala et al., adapted to MPI-3
// shared windows; docs/collectives.md "Shared-memory collectives"). They run without a schedule:
// each process stages chunks of its data in its slots of the node's collective arena and the others
// read them straight from there, with the arena's counters, not messages, telling who may read or
// reuse which slot.
//
// Per chunk (one segment of the call's layout, at most one slot):
// - allreduce: each of the k processes stages the k-1 pieces of its chunk the others combine,
//   combines piece `rank` of every process's chunk in rank order into its output and its slot,
//   then copies the other k-1 combined pieces into its output: the vector is combined once, by
//   k processes at once, and every process reads and writes it once;
// - allreduce, replicated: each stages its whole chunk and combines every process's chunk in rank
//   order itself: one wait instead of two, for short vectors;
// - reduce_scatter (uniform blocks): each stages its slices of the others' blocks and combines
//   its own block's slices in rank order;
// - alltoall: each stages its blocks for the others, each copies its block out of every slot;
// - allgather: each stages its chunk and copies the others' chunks into its output;
// - bcast: the root stages its chunk, the others copy it out.
// Allgather, alltoall and short enough broadcasts of large contributions skip the staging where
// the kernel allows cross-memory reads: the line of each ticket carries the address of the
// source's buffer, each reader copies its chunk from there with process_vm_readv, and the source
// finishes only once every reader consumed the run's last chunk. A broadcast's readers lend their
// outputs as well, and the root writes the last 1/k of each chunk there with process_vm_writev.
// Where a buffer lies in node-shared memory (a NodeWindow's, arena/mapped_memory.hpp), those reads
// and writes are plain copies; an allreduce or reduce_scatter source lends such an input (an
// allreduce's output too) instead of staging: each slot's note carries the addresses, and the
// others combine from and copy out of the lent buffers directly.
// Hierarchical runs (a group on several nodes: the world group or a team, groups/group_paths.hpp)
// do the same among the group's members in each node's arena and move each chunk between the nodes
// on the rails: allreduce = node reduce-scatter, rail allreduce of each piece, node allgather;
// reduce = node reduce-scatter, rail reduce of each piece to the root's node, gather of the pieces
// by the root; allgather = rail allgather, node allgather of what each rail gathered; bcast = rail
// bcast among the members of the root's node rank, node bcast. A chunk too short to pay for a
// message per member is cut into fewer pieces (rail_pieces), and members without a piece send
// nothing: one message per node pair for an 8-byte allreduce.
// Slots are reused after every process has moved past them, so the arena's slot_count chunks are
// in flight at a time: the pipeline that lets staging, combining and copying overlap.

#include <cstddef>
#include <cstdint>
#include <memory>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/uniform_check.hpp>

#include "arena/shared_memory_call.hpp"

namespace dash::comm::detail {

// Starts the call in call.channel; the channel's counters order it after the collectives its group
// started there before. `argument_check` (or null) must pass before the run counts as complete.
std::unique_ptr<DirectRun> start_shared_memory_run(const SharedMemoryCall& call,
                                                   std::unique_ptr<PendingUniformCheck> argument_check);

// Runs the call to completion (blocking), in the same order.
void run_in_shared_memory(const SharedMemoryCall& call, std::unique_ptr<PendingUniformCheck> argument_check);

}  // namespace dash::comm::detail
