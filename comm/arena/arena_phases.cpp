// The phases every ticket of an arena run passes (shared_memory_run.hpp).
//
// Map: try_release; try_stage (its turn, the ring's depth, then lend or stage), lend (a slot's note
// of the buffers the others read in place), stage (per collective: what this process puts in its
// slot or line), try_reduce (each process's piece combined in rank order), try_publish (the
// combined pieces made visible), try_gather (per collective: what each process copies out of the
// others' slots); then advance, every step that is ready. The phases are defined inline here, the
// one translation unit that calls them, so that they inline into advance as the one loop a short
// call takes a few turns of.

#include <algorithm>
#include <cstring>

#include "arena/mapped_memory.hpp"
#include "engine/slot_write_choice.hpp"

#include "arena/arena_run.hpp"

namespace dash::comm::detail {

inline bool SharedMemoryRun::try_release() {
  // Nothing else to do meanwhile, and the readers store their counters once per chunk: no
  // throttled reading (all_consumed) here.
  if (released_ || consumed_ != chunks_ || !peers_reached(&ArenaCounters::consumed, first_ticket_ + chunks_)) {
    return false;
  }
  released_ = true;
  return true;
}

inline bool SharedMemoryRun::try_stage() {
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

void SharedMemoryRun::lend(std::byte* line) {
  const std::byte* lent = lent_buffer();
  std::memcpy(line, &lent, sizeof lent);
  if (call_.collective == Coll::allgather) {
    const std::size_t bytes = layout_.count(staged_) * call_.element_size;
    bulk_copy(call_.output + offset(layout_, static_cast<std::uint32_t>(rank_), staged_),
              call_.input + layout_.offset(staged_), bytes);
    arrivals_.push_back(static_cast<std::uint32_t>(rank_) * chunks_ + staged_);
  }
}

void SharedMemoryRun::stage(std::byte* slot) {
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

bool SharedMemoryRun::try_reduce() {
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

inline bool SharedMemoryRun::try_publish() {
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

inline bool SharedMemoryRun::try_gather() {
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

bool SharedMemoryRun::advance() {
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

}  // namespace dash::comm::detail
