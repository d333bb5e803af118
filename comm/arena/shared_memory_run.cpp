// The arena runs of shared_memory_run.hpp.
//
// Map: SharedMemoryRun (arena_run.hpp): start and end, progress and arrivals, lending and
// the slots' notes, cross-memory reads and the root's part of a broadcast; then the calls that
// start and run one. The phases are arena_phases.cpp's, the rails arena_rail.cpp's, the chunking
// rules arena_rules.cpp's.

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/config.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/peer_progress.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/arena_run.hpp"
#include "arena/collective_arena.hpp"
#include "arena/mapped_memory.hpp"
#include "arena/shared_memory_run.hpp"
#include "engine/bulk_copy.hpp"
#include "engine/slot_write_choice.hpp"
#include "engine/streaming_copy.hpp"

namespace dash::comm::detail {

namespace {

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

}  // namespace

inline SharedMemoryRun::SharedMemoryRun(const SharedMemoryCall& call, std::unique_ptr<PendingUniformCheck> check)
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

SharedMemoryRun::~SharedMemoryRun() {
  if (arena_open_) {
    stop_counting();
    arena_.leave(*this);
  }
}

inline bool SharedMemoryRun::progress() {
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

std::optional<std::uint32_t> SharedMemoryRun::next_arrival() {
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

std::vector<void*>& SharedMemoryRun::idle_memory() {
  static std::vector<void*> idle = [] {
    std::vector<void*> kept;
    kept.reserve(kept_runs);
    return kept;
  }();
  return idle;
}

const std::byte* SharedMemoryRun::lent_here(int owner, const std::byte* remote, std::size_t bytes) const {
  const std::byte* here = mapped_here(channel_.process_ids()[static_cast<std::size_t>(owner)], remote, bytes);
  if (here == nullptr) {
    throw InvalidState("dash::comm: process " + std::to_string(owner) +
                       " of the node lent a buffer in node-shared memory that this process does not map; was "
                       "its NodeWindow freed during the collective?");
  }
  return here;
}

void SharedMemoryRun::write_root_part(std::uint32_t chunk, std::uint64_t t) const {
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
