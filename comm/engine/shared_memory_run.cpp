// The arena runs of shared_memory_run.hpp.
//
// Map: chunking rules (in place, lines, packed entries, slices); SharedMemoryRun: its progress and
// arrivals, lending and cross-memory reads, the rail stages of hierarchical runs, then the three
// phases every ticket passes (stage, reduce, gather); the chunk sizes selection asks for.

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/config.hpp>
#include <dash/comm/detail/bulk_copy.hpp>
#include <dash/comm/detail/collective_arena.hpp>
#include <dash/comm/detail/launch.hpp>
#include <dash/comm/detail/mapped_memory.hpp>
#include <dash/comm/detail/slot_write_choice.hpp>
#include <dash/comm/detail/streaming_copy.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/peer_progress.hpp>

#include "shared_memory_run.hpp"

namespace dash::comm::detail {

namespace {

constexpr std::uint64_t slot_count = CollectiveArena::slot_count;

// Unsuccessful polls of a run before its waits start yielding the core (about 10 us).
constexpr unsigned spin_polls = 256;

// Polls of a waiting run between two rounds of progress on the process's other collectives.
constexpr unsigned others_every_polls = 8;

// Spinning polls of a waiting run between two calls into MPI's progress engine.
constexpr unsigned peer_progress_every_polls = 64;

// Finished runs whose memory is kept for the next ones.
constexpr std::size_t kept_runs = 4;

void pause_briefly() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A reduce_scatter or alltoall slot holds one slice per other process (none for its owner), each
// starting on a cache line of its own.
std::size_t slice_bytes(int size) noexcept {
  return CollectiveArena::slot_bytes / static_cast<std::size_t>(std::max(size - 1, 1)) / 64 * 64;
}

// Where the slice for process `reader` starts in a slot of process `owner`.
std::size_t slot_slice_offset(int owner, int reader, int size) noexcept {
  return static_cast<std::size_t>(reader < owner ? reader : reader - 1) * slice_bytes(size);
}

std::string_view inter_node_stage(Coll collective) noexcept {
  switch (collective) {
    case Coll::allreduce:
      return "dash::comm::allreduce (inter-node stage)";
    case Coll::reduce:
      return "dash::comm::reduce (inter-node stage)";
    case Coll::allgather:
      return "dash::comm::allgather (inter-node stage)";
    default:
      return "dash::comm::bcast (inter-node stage)";
  }
}

// Contributions of at least this many bytes go straight from the source's buffer to the reader's
// (one copy instead of staging and copying out) where the arena allows cross-memory reads. The
// system call costs about a microsecond, as much as staging 16 KiB.
constexpr std::size_t single_copy_bytes = std::size_t{16} * 1024;

// In-place runs read chunks of up to this size (fewer system calls than slot-sized chunks: P = 2,
// allgather 1 MiB 116 vs 140-150 us).
constexpr std::size_t in_place_chunk_bytes = std::size_t{1} << 20;

// Broadcasts up to this size are read in place; longer ones stage, the root copying chunk k + 1
// into its slot while the others copy chunk k out (shared_memory_run.hpp).
constexpr std::size_t in_place_bcast_bytes = std::size_t{4} << 20;

// Whether a run reads the others' buffers in place. Every process decides alike (uniform counts).
bool reads_in_place(const SharedMemoryCall& call, int size) noexcept {
  return !call.hierarchical &&
         in_place_chunk_elements(call.collective, call.elements * call.element_size, call.element_size, size) > 0;
}

// Whether a run's chunks fit the arena's lines: a single node's broadcast, allgather or allreduce
// of at most line_bytes per process, or reduce_scatter or alltoall whose slices for the others
// (line_slice_offset) take at most line_bytes together. In a slot ring of four, a process whose
// short calls follow each other reads the others' `consumed` every third call or so; in the lines
// once in about sixty.
bool fits_lines(const SharedMemoryCall& call, int size) noexcept {
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
std::size_t line_slice_offset(int owner, int reader, std::size_t block_bytes) noexcept {
  return static_cast<std::size_t>(reader < owner ? reader : reader - 1) * block_bytes;
}

// Whether a run's chunks fit the packed entries: a single node's broadcast of at most packed_bytes,
// whose root may run up to packed_count calls ahead of its readers (a run whose processes all
// write, as allgather's and allreduce's, waits for every one of them at each call and gains
// nothing from sharing lines).
bool fits_packed(const SharedMemoryCall& call) noexcept {
  return call.collective == Coll::bcast && !call.hierarchical &&
         call.elements * call.element_size <= CollectiveArena::packed_bytes;
}

class SharedMemoryRun final : public DirectRun, public CollectiveRun {
public:
  SharedMemoryRun(const SharedMemoryCall& call, std::unique_ptr<PendingUniformCheck> check)
      : arena_(*collective_arena()),
        channel_(*call.channel),
        call_(call),
        rail_(call.hierarchical ? call.rail : nullptr),
        size_(channel_.size()),
        rank_(channel_.member()),
        mine_(channel_.counters(rank_)),
        chunks_(call.segments),
        first_ticket_(channel_.take_tickets(call.segments)),
        in_place_(reads_in_place(call, size_)),
        streams_(!call.hierarchical && streams_output(call.collective, call.elements * call.element_size, size_)),
        ring_(fits_packed(call) ? Ring::packed : fits_lines(call, size_) || in_place_ ? Ring::lines : Ring::slots),
        check_(std::move(check)),
        layout_{call.element_size, call.elements, call.segments, nullptr} {
    if (call.collective == Coll::bcast && rank_ == call.root && (!rail_ || rail_->rank() == call.rail_root)) {
      final_chunks_ = chunks_;
    }
    if (call.collective == Coll::allgather) {
      copied_.assign(static_cast<std::size_t>(size_), false);
    }
    const bool per_block_input = call.collective == Coll::reduce_scatter || call.collective == Coll::alltoall;
    lends_input_ = call.collective != Coll::bcast && lendable(call.input, per_block_input ? size_ : 1);
    // A broadcast's root lends its data, which sits in its output.
    lends_output_ = (call.collective == Coll::allreduce || (call.collective == Coll::bcast && rank_ == call.root)) &&
                    lendable(call.output, 1);
    // A broadcast reader's output, which the root writes to, is final before its last `consumed`.
    released_ = in_place_ ? call.collective == Coll::bcast && rank_ != call.root : !lends_input_ && !lends_output_;
    arena_.enlist(*this);
    channel_.run_started();
  }

  ~SharedMemoryRun() override {
    if (arena_open_) {
      stop_counting();
      arena_.leave(*this);
    }
  }

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

  bool progress() override {
    // The others' progress is not urgent: every few polls, not on each (8-byte calls poll a few times).
    if (++polls_ % others_every_polls == 0) {
      progress_all_collectives(nullptr, this);
    }
    const std::uint64_t steps = steps_;
    if (advance()) {
      return true;
    }
    if (steps_ != steps) {  // a wait starts afresh after every step
      idle_polls_ = 0;
    }
    // A peer's step usually lands within a cache-line transfer, far sooner than a sched_yield
    // system call returns; oversubscribed, whoever holds the next step needs this core.
    // Spinning or yielding, MPI is driven now and then: a peer's passive-target read of this
    // process's window may wait on it (comm/peer_progress.hpp).
    if (arena_.oversubscribed() || ++idle_polls_ > spin_polls) {
      yield_to_peers();
    } else {
      if (idle_polls_ % peer_progress_every_polls == 0) {
        drive_peer_progress();
      }
      pause_briefly();
    }
    return false;
  }

  bool done() const noexcept override { return finished() && !check_; }

  std::optional<std::uint32_t> next_arrival() override {
    if (!chunks_arrive_in_order()) {
      if (taken_ == arrivals_.size()) {
        return std::nullopt;
      }
      return arrivals_[taken_++];
    }
    if (taken_ == final_chunks_) {
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(taken_++);
  }

  // Takes every step that is ready; true once complete.
  bool advance() override {
    if (check_ && check_->test()) {
      check_.reset();
    }
    bool moved = true;
    while (moved && !finished()) {
      moved = false;
      if (rail_) {
        const OthersWait mid_step;
        moved = drive_rail();
      }
      moved = try_stage() | try_reduce() | try_publish() | try_gather() | try_release() | moved;
      steps_ += moved ? 1 : 0;
    }
    if (done()) {
      stop_counting();
      return true;
    }
    return false;
  }

private:
  static std::vector<void*>& idle_memory() {
    static std::vector<void*> idle = [] {
      std::vector<void*> kept;
      kept.reserve(kept_runs);
      return kept;
    }();
    return idle;
  }

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
  bool try_release() {
    // Nothing else to do meanwhile, and the readers store their counters once per chunk: no
    // throttled reading (all_consumed) here.
    if (released_ || consumed_ != chunks_ || !peers_reached(&ArenaCounters::consumed, first_ticket_ + chunks_)) {
      return false;
    }
    released_ = true;
    return true;
  }

  // What a slot's note says: the input and output process `owner` lends for ticket t (its own
  // addresses), or null where it stages.
  struct Lent {
    const std::byte* input = nullptr;
    const std::byte* output = nullptr;
  };
  // Staged runs on node-shared buffers: whether this process lends `buffer` (of `contributions`
  // contributions) instead of staging from it (an allreduce's output: into it). Every process of
  // the node must map it (detail/mapped_memory.hpp); each source decides for itself and says so in
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
  const std::byte* lent_here(int owner, const std::byte* remote, std::size_t bytes) const {
    const std::byte* here = mapped_here(channel_.process_ids()[static_cast<std::size_t>(owner)], remote, bytes);
    if (here == nullptr) {
      throw InvalidState("dash::comm: process " + std::to_string(owner) +
                         " of the node lent a buffer in node-shared memory that this process does not map; was "
                         "its NodeWindow freed during the collective?");
    }
    return here;
  }

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
  // page than memcpy does (it pins each page), so splitting it halves a P = 2 broadcast (2 MiB:
  // 97 instead of 200 us in a throw-away driver).
  std::size_t read_by_reader(std::size_t count) const noexcept {
    return count - count / static_cast<std::size_t>(size_);
  }

  // In-place broadcasts: the root writes its part of chunk `chunk` (ticket t) into every reader's output.
  void write_root_part(std::uint32_t chunk, std::uint64_t t) const {
    const std::size_t e = call_.element_size;
    const std::size_t count = layout_.count(chunk);
    const std::size_t first = layout_.offset(chunk) + read_by_reader(count) * e;
    const std::size_t bytes = (count - read_by_reader(count)) * e;
    for (int reader = 0; reader < size_ && bytes > 0; ++reader) {
      if (reader != rank_) {
        arena_.write_to(channel_.node_rank(reader), lent_by(reader, t) + first, call_.output + first, bytes);
      }
    }
  }

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
  void start_on_rail(std::uint32_t chunk, std::size_t count, const std::byte* input, std::byte* output) {
    if (count == 0) {
      on_rail_.emplace_back();
      return;
    }
    CollectiveCall stage = make_call(inter_node_stage(call_.collective), call_.collective, call_.rail_root);
    stage.internal = true;
    const TagSpace& tags = rail_->tags();
    stage.tag = tags.first + static_cast<int>(ticket(chunk) % static_cast<std::uint64_t>(tags.count));
    stage.element_size = call_.element_size;
    stage.elements = count;
    stage.input = input;
    stage.output = output;
    stage.reduction = call_.reduction;
    on_rail_.push_back(launch(stage, *rail_, Options{}).execution);
  }

  // Hierarchical allgather: chunk `chunk` of the blocks of the rail of node rank `node_rank`, one
  // per node in node order, goes to the blocks of ranks node * k + node_rank.
  void place_rail_chunks(int node_rank, const std::byte* chunks, std::uint32_t chunk) {
    const std::size_t bytes = layout_.count(chunk) * call_.element_size;
    for (int node = 0; node < rail_->size(); ++node) {
      const auto contribution = static_cast<std::uint32_t>(node * size_ + node_rank);
      bulk_copy(call_.output + offset(layout_, contribution, chunk), chunks + static_cast<std::size_t>(node) * bytes,
                bytes);
      arrivals_.push_back(contribution * chunks_ + chunk);
    }
  }

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
  bool drive_rail() {
    bool moved = false;
    if (call_.collective == Coll::allgather) {
      while (launched_ < chunks_ && launched_ < staged_ + slot_count) {
        start_on_rail(launched_, layout_.count(launched_), call_.input + layout_.offset(launched_),
                      rail_chunks(launched_));
        ++launched_;
        moved = true;
      }
    }
    if (rail_carries_bcast()) {
      // The root's node stages without waiting for the rail: its sends are held to the same window.
      while (launched_ < chunks_ && launched_ < std::min(staged_, crossed_) + slot_count) {
        std::byte* chunk = call_.output + layout_.offset(launched_);
        start_on_rail(launched_, layout_.count(launched_), chunk, chunk);
        ++launched_;
        moved = true;
      }
    }
    for (Execution& execution : on_rail_) {
      execution.progress();
    }
    while (!on_rail_.empty() && on_rail_.front().done()) {
      on_rail_.erase(on_rail_.begin());
      ++crossed_;
      moved = true;
    }
    return moved;
  }

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

  bool try_stage() {
    if (staged_ == chunks_ || !my_turn(&ArenaCounters::staged, staged_)) {
      return false;
    }
    const std::uint64_t t = ticket(staged_);
    const bool writes_slot = call_.collective != Coll::bcast || rank_ == call_.root || in_place_;
    const bool receives_from_rail = rail_carries_bcast() && final_chunks_ < chunks_;
    const bool gathers_on_rail = rail_ && call_.collective == Coll::allgather;
    if ((receives_from_rail || gathers_on_rail) && staged_ >= crossed_) {
      return false;
    }
    // The slot held ticket t - depth; everyone must have finished with it (in a hierarchical
    // allreduce this process too: its rail stage writes the combined piece there).
    const std::uint64_t depth = CollectiveArena::depth(ring_);
    if (writes_slot && t >= depth &&
        (!channel_.all_consumed(t - depth + 1) ||
         (rail_ && mine().consumed.load(std::memory_order_relaxed) < t - depth + 1))) {
      return false;
    }
    std::byte* slot = slot_of(rank_, t);
    if (in_place_) {
      lend(slot);
    } else {
      stage(slot);
    }
    // Only with the slot's data: a broadcast's readers skip the wait that makes the slot theirs.
    if (has_notes() && writes_slot) {
      write_note(t);
    }
    if (writes_slot) {
      stamp_of(rank_, t).store(t + 1, std::memory_order_release);
    }
    mine().staged.store(t + 1, std::memory_order_release);
    ++staged_;
    return true;
  }

  // In-place runs: publishes the address of the buffer the others read chunk staged_ from (every
  // process of an allgather or alltoall, a broadcast's root) or write to (a broadcast's readers);
  // an allgather copies its own block.
  void lend(std::byte* line) {
    const std::byte* lent = lent_buffer();
    std::memcpy(line, &lent, sizeof lent);
    if (call_.collective == Coll::allgather) {
      const std::size_t bytes = layout_.count(staged_) * call_.element_size;
      bulk_copy(call_.output + offset(layout_, static_cast<std::uint32_t>(rank_), staged_),
                call_.input + layout_.offset(staged_), bytes);
      arrivals_.push_back(static_cast<std::uint32_t>(rank_) * chunks_ + staged_);
    }
  }

  // Copies into this process's slot, through the cache or streamed as this process measured to be
  // faster (slot_write_choice.hpp).
  static void stage_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
    write_slot(slot_write_choice(), to, from, bytes);
  }

  // Copies what this process contributes to chunk staged_ into its slot.
  void stage(std::byte* slot) {
    const std::size_t e = call_.element_size;
    const std::size_t count = layout_.count(staged_);
    const bool writes_slot = call_.collective != Coll::bcast || rank_ == call_.root;
    const bool receives_from_rail = rail_carries_bcast() && final_chunks_ < chunks_;
    const bool gathers_on_rail = rail_ && call_.collective == Coll::allgather;
    switch (call_.collective) {
      case Coll::allreduce:
      case Coll::reduce: {  // reduce: hierarchical runs only
        const std::byte* chunk = call_.input + layout_.offset(staged_);
        if (call_.replicated) {
          stage_copy(slot, chunk, count * e);
          break;
        }
        for (int other = 0; other < size_ && !lends_input_; ++other) {
          if (other != rank_) {
            const auto [begin, end] = piece(count, other);
            stage_copy(slot + begin * e, chunk + begin * e, (end - begin) * e);
          }
        }
        break;
      }
      case Coll::reduce_scatter:
      case Coll::alltoall:
        for (int other = 0; other < size_ && !lends_input_; ++other) {
          if (other != rank_) {
            stage_copy(slot + slice_offset(rank_, other),
                       call_.input + offset(layout_, static_cast<std::uint32_t>(other), staged_), count * e);
          }
        }
        break;
      case Coll::allgather: {
        if (gathers_on_rail) {  // the rail's chunks, one per node, for this process's node rank
          const std::byte* gathered = rail_chunks(staged_);
          bulk_copy(slot, gathered, static_cast<std::size_t>(rail_->size()) * count * e);
          place_rail_chunks(rank_, gathered, staged_);
          break;
        }
        const std::byte* chunk = call_.input + layout_.offset(staged_);
        if (!lends_input_) {
          stage_copy(slot, chunk, count * e);
        }
        copy_out(call_.output + offset(layout_, static_cast<std::uint32_t>(rank_), staged_), chunk, count * e);
        arrivals_.push_back(static_cast<std::uint32_t>(rank_) * chunks_ + staged_);
        break;
      }
      default:  // bcast: the root's data is in its output buffer
        if (writes_slot && !lends_output_) {
          stage_copy(slot, call_.output + layout_.offset(staged_), count * e);
        }
        if (receives_from_rail) {
          ++final_chunks_;
        }
        break;
    }
  }

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

  bool try_reduce() {
    if (rail_ && (call_.collective == Coll::allreduce || call_.collective == Coll::reduce)) {
      return try_combine_for_rail();
    }
    if (reduced_ == staged_ || !my_turn(&ArenaCounters::reduced, reduced_)) {
      return false;
    }
    const std::uint64_t t = ticket(reduced_);
    const bool writes_to_readers = in_place_ && call_.collective == Coll::bcast && rank_ == call_.root;
    const bool reads_slots = (call_.collective != Coll::allgather && call_.collective != Coll::bcast) ||
                             writes_to_readers;
    if (reads_slots && !peers_staged(t)) {
      return false;
    }
    const std::size_t e = call_.element_size;
    const std::size_t count = layout_.count(reduced_);
    if (call_.collective == Coll::allreduce && call_.replicated) {
      const std::size_t chunk = layout_.offset(reduced_);
      combine_in_rank_order(call_.output + chunk, count, [&](int r) -> const std::byte* {
        return r == rank_ ? call_.input + chunk : slot_of(r, t);
      });
    } else if (call_.collective == Coll::allreduce) {
      const auto [begin, end] = piece(count, rank_);
      const std::size_t chunk = layout_.offset(reduced_);
      std::byte* target = call_.output + chunk + begin * e;
      combine_in_rank_order(target, end - begin, [&](int r) -> const std::byte* {
        if (r == rank_) {
          return call_.input + chunk + begin * e;
        }
        return from_peer(r, t, &Lent::input, chunk + begin * e, (end - begin) * e,
                         slot_of(r, t) + begin * e);
      });
      if (!lends_output_) {
        stage_copy(slot_of(rank_, t) + begin * e, target, (end - begin) * e);
      }
    } else if (call_.collective == Coll::reduce_scatter) {  // the chunk of this process's own block
      const auto me = static_cast<std::uint32_t>(rank_);
      combine_in_rank_order(call_.output + layout_.offset(reduced_), count, [&](int r) -> const std::byte* {
        if (r == rank_) {
          return call_.input + offset(layout_, me, reduced_);
        }
        return from_peer(r, t, &Lent::input, offset(layout_, me, reduced_), count * e, slice_for_me(r, t));
      });
      ++final_chunks_;
    } else if (writes_to_readers) {  // once every reader lent its output
      write_root_part(reduced_, t);
    } else if (call_.collective == Coll::alltoall) {  // this process's block from every process
      const auto me = static_cast<std::uint32_t>(rank_);
      for (int r = 0; r < size_; ++r) {
        const auto source = static_cast<std::uint32_t>(r);
        std::byte* block = call_.output + offset(layout_, source, reduced_);
        if (in_place_ && r != rank_) {
          read_lent(r, t, offset(layout_, me, reduced_), block, count * e);
        } else {
          copy_out(block,
                   r == rank_ ? call_.input + offset(layout_, me, reduced_)
                              : from_peer(r, t, &Lent::input, offset(layout_, me, reduced_), count * e,
                                          slice_for_me(r, t)),
                   count * e);
        }
        arrivals_.push_back(source * chunks_ + reduced_);
      }
    }
    mine().reduced.store(t + 1, std::memory_order_release);
    ++reduced_;
    return true;
  }

  // Hierarchical reduce: the processes of the root's node receive the rail's reductions; the
  // root itself gathers its node's pieces.
  bool on_root_node() const noexcept { return rail_->rank() == call_.rail_root; }
  bool is_root() const noexcept { return on_root_node() && rank_ == call_.root; }

  // Hierarchical reduce: where the rail reduces chunk `chunk`'s piece on the root's node (a ring of
  // slot_count pieces: a chunk is published before the one slot_count later is combined); null
  // elsewhere, where the rail leaves nothing.
  std::byte* rail_result(std::uint32_t chunk) {
    if (!on_root_node()) {
      return nullptr;
    }
    // A piece may be a whole chunk (rail_pieces).
    const std::size_t piece_bytes = (call_.elements + chunks_ - 1) / std::max<std::uint32_t>(chunks_, 1) *
                                    call_.element_size;
    if (rail_scratch_.empty()) {
      rail_scratch_.resize(slot_count * piece_bytes);
    }
    return rail_scratch_.data() + chunk % slot_count * piece_bytes;
  }

  // Hierarchical allreduce and reduce: combines this process's piece of the node's chunk, as the
  // arena allreduce does, and sends it across the rail. Allreduce combines into its output and
  // the rail's allreduce leaves the job's combination in this process's slot; reduce (whose
  // non-roots have no output) combines in its slot, and the rail's reduce delivers to the root's node.
  bool try_combine_for_rail() {
    if (combined_ == staged_) {
      return false;
    }
    const std::uint64_t t = ticket(combined_);
    if (!peers_staged(t)) {
      return false;
    }
    const std::size_t e = call_.element_size;
    const auto [begin, end] = piece(layout_.count(combined_), rank_);
    const std::size_t chunk = layout_.offset(combined_);
    std::byte* in_slot = slot_of(rank_, t) + begin * e;
    const bool reduce = call_.collective == Coll::reduce;
    std::byte* target = reduce ? in_slot : call_.output + chunk + begin * e;
    combine_in_rank_order(target, end - begin, [&](int r) -> const std::byte* {
      return r == rank_ ? call_.input + chunk + begin * e : slot_of(r, t) + begin * e;
    });
    start_on_rail(combined_, end - begin, target, reduce ? rail_result(combined_) : in_slot);
    ++combined_;
    return true;
  }

  // Hierarchical allreduce and reduce: publishes the pieces back from the rail, in chunk order.
  bool try_publish() {
    const bool reduce = call_.collective == Coll::reduce;
    if (!rail_ || (call_.collective != Coll::allreduce && !reduce) || reduced_ == crossed_ ||
        !my_turn(&ArenaCounters::reduced, reduced_)) {
      return false;
    }
    const std::uint64_t t = ticket(reduced_);
    const std::size_t e = call_.element_size;
    const auto [begin, end] = piece(layout_.count(reduced_), rank_);
    std::byte* in_output = call_.output + layout_.offset(reduced_) + begin * e;
    std::byte* in_slot = slot_of(rank_, t) + begin * e;
    if (!reduce) {
      bulk_copy(in_output, in_slot, (end - begin) * e);
    } else if (on_root_node()) {
      bulk_copy(is_root() ? in_output : in_slot, rail_result(reduced_), (end - begin) * e);
    }
    mine().reduced.store(t + 1, std::memory_order_release);
    ++reduced_;
    return true;
  }

  // Copies what the others published for chunk `consumed_` into the output.
  bool try_gather() {
    if (consumed_ == reduced_ || !my_turn(&ArenaCounters::consumed, consumed_)) {
      return false;
    }
    const std::uint64_t t = ticket(consumed_);
    const std::size_t e = call_.element_size;
    const std::size_t count = layout_.count(consumed_);
    bool moved = false;
    switch (call_.collective) {
      case Coll::allreduce:
      case Coll::reduce:  // reduce: only the root takes its node's pieces of the job's combination
        if (call_.replicated) {
          ++final_chunks_;
          break;
        }
        if (call_.collective == Coll::reduce && !is_root()) {
          break;
        }
        if (!peers_reached(&ArenaCounters::reduced, t + 1)) {
          return false;
        }
        for (int other = 0; other < size_; ++other) {
          if (other != rank_) {
            const auto [begin, end] = piece(count, other);
            const std::size_t at = layout_.offset(consumed_) + begin * e;
            bulk_copy(call_.output + at,
                      from_peer(other, t, &Lent::output, at, (end - begin) * e, slot_of(other, t) + begin * e),
                      (end - begin) * e);
          }
        }
        ++final_chunks_;
        break;
      case Coll::allgather:
        // Each peer's chunk as soon as it is staged, not when all are.
        for (int other = 0; other < size_; ++other) {
          const auto o = static_cast<std::size_t>(other);
          if (other != rank_ && !copied_[o] &&
              stamp_of(other, t).load(std::memory_order_acquire) == t + 1) {
            if (rail_) {
              place_rail_chunks(other, slot_of(other, t), consumed_);
            } else {
              const auto contribution = static_cast<std::uint32_t>(other);
              std::byte* block = call_.output + offset(layout_, contribution, consumed_);
              if (in_place_) {
                read_lent(other, t, layout_.offset(consumed_), block, count * e);
              } else {
                copy_out(block,
                         from_peer(other, t, &Lent::input, layout_.offset(consumed_), count * e,
                                   slot_of(other, t)),
                         count * e);
              }
              arrivals_.push_back(contribution * chunks_ + consumed_);
            }
            copied_[o] = true;
            moved = true;
          }
        }
        if (std::count(copied_.begin(), copied_.end(), true) != size_ - 1) {
          return moved;
        }
        std::fill(copied_.begin(), copied_.end(), false);
        break;
      case Coll::bcast:
        if (rank_ != call_.root) {
          if (stamp_of(call_.root, t).load(std::memory_order_acquire) != t + 1) {
            return false;
          }
          std::byte* chunk = call_.output + layout_.offset(consumed_);
          if (in_place_) {
            if (!read_own_part_) {
              read_lent(call_.root, t, layout_.offset(consumed_), chunk, read_by_reader(count) * e);
              read_own_part_ = true;
              moved = true;
            }
            // The root's `reduced` passes t once it wrote its part into this output.
            if (counters_of(call_.root).reduced.load(std::memory_order_acquire) < t + 1) {
              return moved;
            }
            read_own_part_ = false;
          } else {
            copy_out(chunk,
                     from_peer(call_.root, t, &Lent::output, layout_.offset(consumed_), count * e,
                               slot_of(call_.root, t)),
                     count * e);
          }
          ++final_chunks_;
        }
        break;
      default:  // reduce_scatter, alltoall: their reads were in the combining phase
        break;
    }
    mine().consumed.store(t + 1, std::memory_order_release);
    ++consumed_;
    return true;
  }

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

}  // namespace

bool runs_in_shared_memory(Coll collective) noexcept {
  return collective == Coll::allreduce || collective == Coll::reduce_scatter || collective == Coll::alltoall ||
         collective == Coll::allgather || collective == Coll::bcast;
}

bool runs_hierarchically(Coll collective) noexcept {
  return collective == Coll::allreduce || collective == Coll::reduce || collective == Coll::allgather ||
         collective == Coll::bcast;
}

bool streams_output(Coll collective, std::size_t bytes, int size) noexcept {
  const std::size_t output = collective == Coll::bcast ? bytes : bytes * static_cast<std::size_t>(size);
  const bool copies_out = collective == Coll::bcast || collective == Coll::allgather || collective == Coll::alltoall;
  return copies_out && (output >= config().streaming_store_bytes ||
                        (collective == Coll::bcast && bytes > in_place_bcast_bytes));
}

std::size_t in_place_chunk_elements(Coll collective, std::size_t bytes, std::size_t element_size, int size) noexcept {
  const CollectiveArena* arena = collective_arena();
  if (arena == nullptr || !arena->single_copy() || bytes < single_copy_bytes || element_size > in_place_chunk_bytes ||
      streams_output(collective, bytes, size)) {
    return 0;
  }
  switch (collective) {
    case Coll::bcast:
      return bytes <= in_place_bcast_bytes ? in_place_chunk_bytes / element_size : 0;
    case Coll::allgather:
    case Coll::alltoall:
      return in_place_chunk_bytes / element_size;
    default:
      return 0;
  }
}

std::size_t hierarchical_chunk_elements(Coll collective, int nodes, std::size_t element_size) noexcept {
  if (collective == Coll::allgather) {  // a slot holds the chunk of every node's block
    return CollectiveArena::slot_bytes / static_cast<std::size_t>(std::max(nodes, 1)) / element_size;
  }
  return shared_memory_chunk_elements(collective, nodes, element_size);
}

int rail_pieces(std::size_t bytes, int node_size) noexcept {
  // The pieces cross the network.
  const CostParameters& parameters = config().cost_parameters;
  const double shortest = parameters.beta_net > 0 ? parameters.alpha_net / parameters.beta_net : 0;
  const double pieces = shortest > 0 ? static_cast<double>(bytes) / shortest : static_cast<double>(node_size);
  return static_cast<int>(std::clamp(pieces, 1.0, static_cast<double>(std::max(node_size, 1))));
}

std::size_t shared_memory_chunk_elements(Coll collective, int size, std::size_t element_size) noexcept {
  const bool sliced = collective == Coll::reduce_scatter || collective == Coll::alltoall;
  const std::size_t room = sliced ? slice_bytes(size) : CollectiveArena::slot_bytes;
  return room / element_size;
}

std::unique_ptr<DirectRun> start_shared_memory_run(const SharedMemoryCall& call,
                                                   std::unique_ptr<PendingUniformCheck> argument_check) {
  auto run = std::make_unique<SharedMemoryRun>(call, std::move(argument_check));
  run->advance();
  return run;
}

void run_in_shared_memory(const SharedMemoryCall& call,
                          std::unique_ptr<PendingUniformCheck> argument_check) {
  SharedMemoryRun run(call, std::move(argument_check));
  while (!run.progress()) {
  }
}

}  // namespace dash::comm::detail
