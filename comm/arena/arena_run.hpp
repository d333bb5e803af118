#pragma once
// Internal: one arena run (SharedMemoryRun), the protocol of shared_memory_run.hpp. Its parts:
// shared_memory_run.cpp (start, progress and arrivals, lending and the notes, cross-memory reads),
// arena_phases.cpp (advance and the phases every ticket passes: stage, reduce, publish, gather) and
// arena_rail.cpp (a hierarchical run's inter-node stage on the rails).
//
// Map: the public face (construction, progress, arrivals, advance); then, private: memory kept for
// the next runs, tickets and finishing, lending and the slots' notes, cross-memory reads, the
// rails, the counters of the channel's members, slices and pieces, the phases; then the state.

#include <atomic>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <dash/comm/detail/execution.hpp>
#include <dash/comm/uniform_check.hpp>

#include "arena/arena_rules.hpp"
#include "arena/collective_arena.hpp"
#include "arena/mapped_memory.hpp"
#include "arena/shared_memory_run.hpp"
#include "engine/bulk_copy.hpp"
#include "engine/slot_write_choice.hpp"
#include "engine/streaming_copy.hpp"

namespace dash::comm::detail {

class SharedMemoryRun final : public DirectRun, public CollectiveRun {
public:
  SharedMemoryRun(const SharedMemoryCall& call, std::unique_ptr<PendingUniformCheck> check);

  ~SharedMemoryRun() override;

  void arena_closed() noexcept override { arena_open_ = false; }

  // Short calls follow each other in loops: a finished run's memory serves the next one instead of
  // the heap. Collectives are started and finished from one thread at a time (docs/configuration.md).
  static void* operator new(std::size_t bytes) {
    std::vector<void*>& idle = idle_memory();
    if (idle.empty()) {
      return ::operator new(bytes);
    }
    void* memory = idle.back();
    idle.pop_back();
    return memory;
  }

  static void operator delete(void* memory) noexcept {
    std::vector<void*>& idle = idle_memory();
    if (idle.size() < idle.capacity()) {
      idle.push_back(memory);
    } else {
      ::operator delete(memory);
    }
  }

  bool progress() override;

  bool done() const noexcept override { return finished() && !check_; }

  std::optional<std::uint32_t> next_arrival() override;

  // Takes every step that is ready; true once complete.
  bool advance() override;

private:
  static std::vector<void*>& idle_memory();

  std::uint64_t ticket(std::uint32_t chunk) const noexcept { return first_ticket_ + chunk; }

  // The channel counts this run among its running ones until it is done here (the channel may be
  // gone by the time the run's request is destroyed: its team freed).
  void stop_counting() noexcept {
    if (counted_) {
      channel_.run_finished();
      counted_ = false;
    }
  }

  // Copies into the output: around the caches when the run streams (streams_output).
  void copy_out(std::byte* to, const std::byte* from, std::size_t bytes) const noexcept {
    if (streams_) {
      streaming_copy(to, from, bytes);
    } else {
      bulk_copy(to, from, bytes);
    }
  }

  // Output blocks of one contribution (allreduce, reduce_scatter, bcast) become final chunk by chunk,
  // so a count stands for the list; allgather and alltoall blocks come from every process.
  bool chunks_arrive_in_order() const noexcept {
    return call_.collective != Coll::allgather && call_.collective != Coll::alltoall;
  }

  // Every process finishes every chunk by storing `consumed`, so that is where this run stands.
  // A broadcast's root may be done with its node before it sent every chunk on the rail.
  // A run whose buffer the others read in place lasts until they did.
  bool finished() const noexcept {
    return consumed_ == chunks_ && released_ && on_rail_.empty() && (!rail_carries_bcast() || launched_ == chunks_);
  }

  // In-place runs: the others consumed every chunk, so this process's buffer is its own again.
  bool try_release();

  // What a slot's note says: the input and output process `owner` lends for ticket t (its own
  // addresses), or null where it stages.
  struct Lent {
    const std::byte* input = nullptr;
    const std::byte* output = nullptr;
  };
  // Staged runs on node-shared buffers: whether this process lends `buffer` (of `contributions`
  // contributions) instead of staging from it (an allreduce's output: into it). Every process of
  // the node must map it (arena/mapped_memory.hpp); each source decides for itself and says so in
  // each slot's note, so the processes need not agree. Contributions below single_copy_bytes stage:
  // the lookups would cost more than the copies.
  bool lendable(const std::byte* buffer, int contributions) const {
    const std::size_t bytes = call_.elements * call_.element_size * static_cast<std::size_t>(contributions);
    return has_notes() && size_ > 1 && arena_.single_copy() &&
           call_.elements * call_.element_size >= single_copy_bytes &&
           mapped_by_all(buffer, bytes, channel_.process_ids());
  }

  // Whether every process writes a note with each of this run's chunks (and reads the others'):
  // single-node runs that stage in the slots, but for the replicated allreduce, which is for short
  // vectors. Elsewhere a slot's note is stale.
  bool has_notes() const noexcept {
    return !rail_ && ring_ == Ring::slots && !in_place_ && !(call_.collective == Coll::allreduce && call_.replicated);
  }

  // Where the others' chunk data comes from: the `bytes` at `offset` of the buffer process `owner`
  // lent (`which`: its input or output) for ticket t, or what it staged at `staged`.
  const std::byte* from_peer(int owner, std::uint64_t t, const std::byte* Lent::*which, std::size_t offset,
                             std::size_t bytes, const std::byte* staged) const {
    const std::byte* lent = note_of(owner, t).*which;
    return lent != nullptr ? lent_here(owner, lent + offset, bytes) : staged;
  }

  void write_note(std::uint64_t t) const noexcept {
    const Lent lent{lends_input_ ? call_.input : nullptr, lends_output_ ? call_.output : nullptr};
    static_assert(sizeof lent <= CollectiveArena::note_bytes);
    std::memcpy(note_at(rank_, t), &lent, sizeof lent);
  }
  Lent note_of(int owner, std::uint64_t t) const noexcept {
    Lent lent;
    if (has_notes()) {
      std::memcpy(&lent, note_at(owner, t), sizeof lent);
    }
    return lent;
  }
  // Where the `bytes` at `remote`, lent by process `owner`, are mapped here.
  const std::byte* lent_here(int owner, const std::byte* remote, std::size_t bytes) const;

  // In-place runs: where the others read this process's chunks (a broadcast root's output, the
  // others' input) or write them (a broadcast reader's output), published in each ticket's line.
  const std::byte* lent_buffer() const noexcept {
    return call_.collective == Coll::bcast ? call_.output : call_.input;
  }

  // In-place runs: the buffer process `owner` lent for ticket t.
  std::byte* lent_by(int owner, std::uint64_t t) const noexcept {
    std::byte* lent = nullptr;
    std::memcpy(&lent, slot_of(owner, t), sizeof lent);
    return lent;
  }

  // In-place runs: copies `bytes` at `offset` of the buffer process `owner` lent for ticket t.
  void read_lent(int owner, std::uint64_t t, std::size_t offset, std::byte* to, std::size_t bytes) const {
    arena_.read_from(channel_.node_rank(owner), lent_by(owner, t) + offset, to, bytes);
  }

  // In-place broadcasts: the root, idle otherwise, writes the last 1/k of each of the k - 1
  // readers' chunks straight into their outputs while they read the rest from its buffer, so
  // every process moves (k - 1)/k of a chunk. The kernel's cross-memory copy costs far more per
  // page than memcpy does (it pins each page), so splitting it halves a P = 2 broadcast
  // (docs/collectives.md, "Shared-memory collectives").
  std::size_t read_by_reader(std::size_t count) const noexcept {
    return count - count / static_cast<std::size_t>(size_);
  }

  // In-place broadcasts: the root writes its part of chunk `chunk` (ticket t) into every reader's output.
  void write_root_part(std::uint32_t chunk, std::uint64_t t) const;

  // Hierarchical runs: the node root of a broadcast takes part in one broadcast per chunk on its
  // rail, at most slot_count chunks ahead of its staging.
  bool rail_carries_bcast() const noexcept { return rail_ && call_.collective == Coll::bcast && rank_ == call_.root; }

  // Starts the inter-node stage of chunk `chunk` on the rail: `count` elements from `input` to
  // `output`. Rail stages start when their inputs are ready, at different times on different
  // nodes and interleaved with other runs' stages, so they cannot take the rail's next tags: a
  // chunk's tag follows from its ticket, the same on every node (each node's arena numbers the
  // world group's hierarchical calls alike). The slots keep the chunks in flight within a few
  // tickets of each other, far fewer than the tags, so two never share one.
  // A member without a piece of the chunk (rail_pieces) has nothing to send: its rail skips it alike
  // on every node.
  void start_on_rail(std::uint32_t chunk, std::size_t count, const std::byte* input, std::byte* output);

  // Hierarchical allgather: chunk `chunk` of the blocks of the rail of node rank `node_rank`, one
  // per node in node order, goes to the blocks of ranks node * k + node_rank.
  void place_rail_chunks(int node_rank, const std::byte* chunks, std::uint32_t chunk);

  // Hierarchical allgather: where the rail gathers chunk `chunk` (a ring of slot_count buffers of
  // one chunk per node: a chunk is staged before the one slot_count later is gathered).
  std::byte* rail_chunks(std::uint32_t chunk) {
    const std::size_t largest = (call_.elements + chunks_ - 1) / std::max<std::uint32_t>(chunks_, 1);
    const std::size_t ring_bytes = static_cast<std::size_t>(rail_->size()) * largest * call_.element_size;
    if (rail_scratch_.empty()) {
      rail_scratch_.resize(slot_count * ring_bytes);
    }
    return rail_scratch_.data() + chunk % slot_count * ring_bytes;
  }

  // Advances the chunks on the rail; those done leave in chunk order (`crossed_`).
  bool drive_rail();

  bool peers_reached(std::atomic<std::uint64_t> ArenaCounters::*counter, std::uint64_t value) const noexcept {
    for (int peer = 0; peer < size_; ++peer) {
      if (peer != rank_ && (counters_of(peer).*counter).load(std::memory_order_acquire) < value) {
        return false;
      }
    }
    return true;
  }

  // The channel's parts of member `member`'s region (members are the group's ranks; a hierarchical
  // run's group is its node).
  ArenaCounters& counters_of(int member) const noexcept { return channel_.counters(member); }
  std::byte* slot_of(int member, std::uint64_t t) const noexcept { return channel_.slot(member, t, ring_); }
  std::atomic<std::uint64_t>& stamp_of(int member, std::uint64_t t) const noexcept {
    return channel_.stamp(member, t, ring_);
  }
  std::byte* note_at(int member, std::uint64_t t) const noexcept { return channel_.note(member, t); }

  ArenaCounters& mine() const noexcept { return mine_; }

  // Whether every other process staged ticket t: its slot's stamp, read with the chunk's first
  // bytes. A slot holds t until its owner restages it, which waits for this process's `consumed`.
  bool peers_staged(std::uint64_t t) const noexcept {
    for (int peer = 0; peer < size_; ++peer) {
      if (peer != rank_ && stamp_of(peer, t).load(std::memory_order_acquire) != t + 1) {
        return false;
      }
    }
    return true;
  }

  // What process `owner` staged in ticket t's slot for this process (reduce_scatter, alltoall).
  const std::byte* slice_for_me(int owner, std::uint64_t t) const noexcept {
    return slot_of(owner, t) + slice_offset(owner, rank_);
  }
  std::size_t slice_offset(int owner, int reader) const noexcept {
    return ring_ == Ring::lines ? line_slice_offset(owner, reader, call_.elements * call_.element_size)
                                : slot_slice_offset(owner, reader, size_);
  }

  // Chunk `chunk` of contribution `contribution` of a buffer with this layout.
  static std::size_t offset(const BlockLayout& layout, std::uint32_t contribution, std::uint32_t chunk) noexcept {
    return layout.offset(contribution * layout.segments + chunk);
  }

  // Piece `which` of an allreduce chunk of `count` elements: [first, last) elements into it. A
  // hierarchical run cuts a short chunk into fewer pieces than members (rail_pieces); the others' are
  // empty.
  std::pair<std::size_t, std::size_t> piece(std::size_t count, int which) const noexcept {
    const auto k = static_cast<std::size_t>(rail_ ? rail_pieces(count * call_.element_size, size_) : size_);
    const auto p = static_cast<std::size_t>(which);
    return p < k ? std::pair{p * count / k, (p + 1) * count / k} : std::pair{count, count};
  }

  // Every ticket passes the three phases on every process, in ticket order per phase (a phase a
  // collective does not need only advances its counter), so a counter at v says that all tickets
  // below v passed its phase: the order of the runs in the arena, not of the calls to progress.
  bool my_turn(std::atomic<std::uint64_t> ArenaCounters::*counter, std::uint32_t chunk) const noexcept {
    return (mine().*counter).load(std::memory_order_relaxed) == ticket(chunk);
  }

  bool try_stage();

  // In-place runs: publishes the address of the buffer the others read chunk staged_ from (every
  // process of an allgather or alltoall, a broadcast's root) or write to (a broadcast's readers);
  // an allgather copies its own block.
  void lend(std::byte* line);

  // Copies into this process's slot, through the cache or streamed as this process measured to be
  // faster (slot_write_choice.hpp).
  static void stage_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
    write_slot(slot_write_choice(), to, from, bytes);
  }

  // Copies what this process contributes to chunk staged_ into its slot.
  void stage(std::byte* slot);

  // Combines this process's share of a chunk from every process's contribution, in rank order:
  // `target` = source(0) ⊕ source(1) ⊕ ... .
  template <class Source>
  void combine_in_rank_order(std::byte* target, std::size_t count, Source source) const {
    if (size_ == 1) {
      bulk_copy(target, source(0), count * call_.element_size);
      return;
    }
    // The first two operands in one pass: the vector crosses the memory bus once fewer.
    call_.reduction.combine_into(call_.reduction.op, source(0), source(1), target, count);
    for (int r = 2; r < size_; ++r) {
      call_.reduction.combine(call_.reduction.op, source(r), target, count, false);
    }
  }

  bool try_reduce();

  // Hierarchical reduce: the processes of the root's node receive the rail's reductions; the
  // root itself gathers its node's pieces.
  bool on_root_node() const noexcept { return rail_->rank() == call_.rail_root; }
  bool is_root() const noexcept { return on_root_node() && rank_ == call_.root; }

  // Hierarchical reduce: where the rail reduces chunk `chunk`'s piece on the root's node (a ring of
  // slot_count pieces: a chunk is published before the one slot_count later is combined); null
  // elsewhere, where the rail leaves nothing.
  std::byte* rail_result(std::uint32_t chunk);

  // Hierarchical allreduce and reduce: combines this process's piece of the node's chunk, as the
  // arena allreduce does, and sends it across the rail. Allreduce combines into its output and
  // the rail's allreduce leaves the job's combination in this process's slot; reduce (whose
  // non-roots have no output) combines in its slot, and the rail's reduce delivers to the root's node.
  bool try_combine_for_rail();

  // Hierarchical allreduce and reduce: publishes the pieces back from the rail, in chunk order.
  bool try_publish();

  // Copies what the others published for chunk `consumed_` into the output.
  bool try_gather();

  CollectiveArena& arena_;
  ArenaChannel& channel_;  // the group's: the world's (and a hierarchical run's node's) or a team's
  bool counted_ = true;    // among the channel's running runs (stop_counting)
  bool arena_open_ = true;  // false once dash::finalize closed the arena (arena_closed)
  SharedMemoryCall call_;
  const Group* rail_;  // hierarchical runs: the caller's rail; size_ and rank_ are then its node's
  int size_;
  int rank_;
  ArenaCounters& mine_;
  std::uint32_t chunks_;
  std::uint64_t first_ticket_;
  // The others read this run's chunks straight from the lender's buffer (reads_in_place); the lines
  // carry the buffers' addresses, and a lender finishes once released_.
  bool in_place_;
  // Staged runs: the others read this process's input (an allreduce's combined pieces and a
  // broadcast root's data: its output) straight from node-shared memory (lendable), and this run
  // lasts until they did.
  bool lends_input_ = false;
  bool lends_output_ = false;
  // Outputs far larger than the caches are written with streaming stores (streams_output).
  bool streams_;
  bool released_ = true;
  Ring ring_;
  std::unique_ptr<PendingUniformCheck> check_;
  // Both buffers: contributions of `elements` in `chunks_` segments, block c·chunks_ + t being chunk t
  // of contribution c.
  BlockLayout layout_;
  // Chunks this process staged, combined (allreduce, reduce_scatter), and finished.
  std::uint32_t staged_ = 0;
  std::uint32_t reduced_ = 0;
  std::uint32_t consumed_ = 0;
  std::vector<bool> copied_;  // allgather: peers whose chunk `consumed_` is in the output
  bool read_own_part_ = false;  // in-place broadcast readers: chunk `consumed_` read, the root's part pending
  std::vector<std::uint32_t> arrivals_;  // allgather, alltoall: the output blocks in the order they became final
  std::uint32_t final_chunks_ = 0;       // the others: chunks whose output is final
  std::size_t taken_ = 0;
  unsigned idle_polls_ = 0;  // polls since the last step
  unsigned polls_ = 0;       // all polls (progress calls)
  std::uint64_t steps_ = 0;
  // Hierarchical runs: the chunks on the rail in chunk order (a few at a time; a vector, since an
  // empty one costs the other runs no allocation), how many were started there (bcast, allgather)
  // or combined and sent (allreduce), and how many came back.
  std::vector<Execution> on_rail_;
  // allgather: what the rail gathered; reduce: what it reduced (root's node); per chunk in flight
  std::vector<std::byte> rail_scratch_;
  std::uint32_t launched_ = 0;
  std::uint32_t combined_ = 0;
  std::uint32_t crossed_ = 0;
};

}  // namespace dash::comm::detail
