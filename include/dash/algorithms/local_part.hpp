#pragma once
// dash::LocalPart: the calling unit's elements of a global range [first, last), as plain local memory.
// Every algorithm works owner-computes on it and communicates only to combine results or to move
// elements whose partner (second input, output) lives on another unit.
//
// Two views of the same elements, both in "part order" (increasing global index):
//  - stretches: maximal runs of consecutive local memory. A 1-D pattern stores a unit's elements in
//    increasing global order, so its part is one stretch; loops that need no global index use this.
//  - pieces: runs that are consecutive both in local memory and in global order, with their global
//    index. In 1-D a piece is the range's part of one local block (the whole part on one unit).
// part_offset is an element's position in part order: where it goes in a packed buffer of the part.

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <dash/core/glob_iter.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/run.hpp>

namespace dash {

// Local memory [local_begin, local_begin + length) holding part elements part_offset, part_offset + 1, ...
struct LocalStretch {
  std::size_t local_begin = 0;
  std::size_t part_offset = 0;
  std::size_t length = 0;
};

// A stretch whose elements are also consecutive in global order, starting at global_begin.
struct LocalPiece {
  std::size_t local_begin = 0;
  std::size_t part_offset = 0;
  std::size_t length = 0;
  std::size_t global_begin = 0;
};

template <class T, class PatternT>
class LocalPart {
public:
  // True when a unit's elements of any range are one stretch: 1-D patterns.
  static constexpr bool one_stretch = std::is_same_v<PatternT, Pattern<1>>;

  // The caller's part of [first, last). The range must be valid (checked by the algorithm); an empty
  // range may come from an unallocated container. Cost: O(1) for 1-D patterns; otherwise one pass over
  // the pattern's runs of the range, as does every later walk over stretches or pieces.
  LocalPart(const GlobIter<T, PatternT>& first, const GlobIter<T, PatternT>& last)
      : first_(first.pos()), last_(last.pos()) {
    if (first_ == last_) {
      return;
    }
    segment_ = first.segment();
    pattern_ = first.pattern_ptr();
    unit_ = static_cast<std::size_t>(segment_->myid());
    memory_ = reinterpret_cast<T*>(segment_->local().data());
    if constexpr (one_stretch) {
      local_begin_ = pattern_->local_count_before(unit_, first_);
      size_ = pattern_->local_count_before(unit_, last_) - local_begin_;
    } else {
      pattern_->for_each_run(first_, last_, [&](const Run& run) {
        if (run.unit == unit_) {
          size_ += run.length;
        }
      });
    }
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  // The caller's local memory of the range's container (nullptr for an empty range).
  T* memory() const noexcept { return memory_; }
  std::size_t first_position() const noexcept { return first_; }
  std::size_t last_position() const noexcept { return last_; }
  // Non-null unless the range is empty.
  const PatternT* pattern() const noexcept { return pattern_; }
  const GlobalSegment* segment() const noexcept { return segment_; }
  // 1-D: the part is memory()[local_begin(), local_begin() + size()).
  std::size_t local_begin() const noexcept
    requires one_stretch
  {
    return local_begin_;
  }

  // Calls f(LocalStretch) in part order. f may return bool: false stops the walk.
  template <class F>
  void for_each_stretch(F&& f) const {
    if constexpr (one_stretch) {
      if (size_ != 0) {
        keep_going(f, LocalStretch{local_begin_, 0, size_});
      }
    } else {
      for_each_piece([&](const LocalPiece& piece) {
        return keep_going(f, LocalStretch{piece.local_begin, piece.part_offset, piece.length});
      });
    }
  }

  // Calls f(LocalPiece) in part order. f may return bool: false stops the walk.
  template <class F>
  void for_each_piece(F&& f) const {
    if (size_ == 0) {
      return;
    }
    if constexpr (one_stretch) {
      const std::size_t units = pattern_->num_units();
      const std::size_t block = pattern_->blocksize(0);
      const std::size_t local_end = local_begin_ + size_;
      for (std::size_t begin = local_begin_; begin < local_end;) {
        // With one unit, local and global order coincide: a single piece.
        const std::size_t end = units == 1 ? local_end : std::min(local_end, (begin / block + 1) * block);
        const LocalPiece piece{begin, begin - local_begin_, end - begin, pattern_->global_index(unit_, begin)};
        if (!keep_going(f, piece)) {
          return;
        }
        begin = end;
      }
    } else {
      std::size_t part_offset = 0;
      bool stopped = false;
      pattern_->for_each_run(first_, last_, [&](const Run& run) {
        if (stopped || run.unit != unit_) {
          return;
        }
        stopped = !keep_going(f, LocalPiece{run.local_begin, part_offset, run.length, run.global_begin});
        part_offset += run.length;
      });
    }
  }

private:
  template <class F, class Arg>
  static bool keep_going(F& f, const Arg& arg) {
    if constexpr (std::is_same_v<std::invoke_result_t<F&, const Arg&>, bool>) {
      return f(arg);
    } else {
      f(arg);
      return true;
    }
  }

  std::size_t first_ = 0;
  std::size_t last_ = 0;
  const GlobalSegment* segment_ = nullptr;
  const PatternT* pattern_ = nullptr;
  std::size_t unit_ = 0;
  T* memory_ = nullptr;
  std::size_t local_begin_ = 0;
  std::size_t size_ = 0;
};

}  // namespace dash
