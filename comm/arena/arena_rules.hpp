#pragma once
// Internal: the arena runs' rules (shared_memory_run.hpp), which selection prices by as well: the
// collectives the arena serves, how long a run's chunks are, which ring they take (slots, lines,
// packed entries), where a slice for another process lies, and when the others' buffers are read
// in place. arena_rules.cpp holds the longer ones.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "arena/collective_arena.hpp"

#include "arena/shared_memory_call.hpp"

namespace dash::comm::detail {

// The collectives the arena serves, and those of them that run hierarchically on several nodes.
bool runs_in_shared_memory(Coll collective) noexcept;
bool runs_hierarchically(Coll collective) noexcept;

// Elements per chunk of a single node's call of `size` processes that read each other's buffers in
// place (one copy with process_vm_readv instead of staging each chunk in the arena), or 0 if it
// stages: allgather and alltoall from 16 KiB per contribution unless their output streams
// (streams_output), bcast from 16 KiB to 4 MiB, where the arena allows cross-memory reads and
// writes. An in-place broadcast's root writes 1/k of each chunk into the readers' outputs while they
// read the rest. A staged broadcast keeps the root copying while the others copy out: with the
// cores near each other that wins from 4 MiB, with them farther apart staging through the cache
// lost to reading in place (staged slots are now streamed there: engine/slot_write_choice.hpp);
// measurements in docs/collectives.md, "Shared-memory collectives".
std::size_t in_place_chunk_elements(Coll collective, std::size_t bytes, std::size_t element_size, int size) noexcept;

// Whether a single node's call of `size` processes with contributions of `bytes` writes its output
// with streaming stores: allgather, alltoall and bcast whose output per process reaches
// DASH_STREAMING_STORE_BYTES, and broadcasts too long to read in place (docs/collectives.md,
// "Streaming stores", which has the measurements). Such calls stage.
bool streams_output(Coll collective, std::size_t bytes, int size) noexcept;

// Elements of a contribution one chunk may hold, for a group of `size` processes (0: an element
// does not fit a slot).
std::size_t shared_memory_chunk_elements(Coll collective, int size, std::size_t element_size) noexcept;
// The same for a hierarchical run on `nodes` nodes.
std::size_t hierarchical_chunk_elements(Coll collective, int nodes, std::size_t element_size) noexcept;

// Hierarchical allreduce and reduce: how many of a node's `node_size` members carry a piece of a
// chunk of `bytes` across the rails, each piece at least alpha_net / beta_net bytes of the cost
// model long (20000 B by default: where a message's time on the network reaches its start-up),
// and at least one.
int rail_pieces(std::size_t bytes, int node_size) noexcept;

inline constexpr std::uint64_t slot_count = CollectiveArena::slot_count;

// Contributions of at least this many bytes go straight from the source's buffer to the reader's
// (one copy instead of staging and copying out) where the arena allows cross-memory reads. The
// system call costs about a microsecond, as much as staging 16 KiB.
inline constexpr std::size_t single_copy_bytes = std::size_t{16} * 1024;

// In-place runs read chunks of up to this size: fewer system calls than slot-sized chunks
// (docs/collectives.md, "Shared-memory collectives").
inline constexpr std::size_t in_place_chunk_bytes = std::size_t{1} << 20;

// Broadcasts up to this size are read in place; longer ones stage, the root copying chunk k + 1
// into its slot while the others copy chunk k out (shared_memory_run.hpp).
inline constexpr std::size_t in_place_bcast_bytes = std::size_t{4} << 20;

// A reduce_scatter or alltoall slot holds one slice per other process (none for its owner), each
// starting on a cache line of its own.
inline std::size_t slice_bytes(int size) noexcept {
  return CollectiveArena::slot_bytes / static_cast<std::size_t>(std::max(size - 1, 1)) / 64 * 64;
}

// Where the slice for process `reader` starts in a slot of process `owner`.
inline std::size_t slot_slice_offset(int owner, int reader, int size) noexcept {
  return static_cast<std::size_t>(reader < owner ? reader : reader - 1) * slice_bytes(size);
}

// Whether a run reads the others' buffers in place. Every process decides alike (uniform counts).
inline bool reads_in_place(const SharedMemoryCall& call, int size) noexcept {
  return !call.hierarchical &&
         in_place_chunk_elements(call.collective, call.elements * call.element_size, call.element_size, size) > 0;
}

// Whether a run's chunks fit the arena's lines: a single node's broadcast, allgather or allreduce
// of at most line_bytes per process, or reduce_scatter or alltoall whose slices for the others
// (line_slice_offset) take at most line_bytes together. In a slot ring of four, a process whose
// short calls follow each other reads the others' `consumed` every third call or so; in the lines
// once in about sixty.
inline bool fits_lines(const SharedMemoryCall& call, int size) noexcept {
  const std::size_t bytes = call.elements * call.element_size;
  const auto others = static_cast<std::size_t>(std::max(size - 1, 0));
  switch (call.collective) {
    case Coll::bcast:
    case Coll::allgather:
    case Coll::allreduce:
      return !call.hierarchical && bytes <= CollectiveArena::line_bytes;
    case Coll::reduce_scatter:
    case Coll::alltoall:
      return !call.hierarchical && bytes * others <= CollectiveArena::line_bytes;
    default:
      return false;
  }
}

// Where the slice for process `reader` starts in a line of process `owner`: slices of a whole block
// each, one after the other.
inline std::size_t line_slice_offset(int owner, int reader, std::size_t block_bytes) noexcept {
  return static_cast<std::size_t>(reader < owner ? reader : reader - 1) * block_bytes;
}

// Whether a run's chunks fit the packed entries: a single node's broadcast of at most packed_bytes,
// whose root may run up to packed_count calls ahead of its readers (a run whose processes all
// write, as allgather's and allreduce's, waits for every one of them at each call and gains
// nothing from sharing lines).
inline bool fits_packed(const SharedMemoryCall& call) noexcept {
  return call.collective == Coll::bcast && !call.hierarchical &&
         call.elements * call.element_size <= CollectiveArena::packed_bytes;
}

}  // namespace dash::comm::detail
