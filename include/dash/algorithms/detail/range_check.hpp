#pragma once
// Internal: the argument checks every algorithm on global ranges shares, with one wording.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <dash/comm/exception.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/core/glob_iter.hpp>
#include <dash/core/global_segment.hpp>

namespace dash::detail {

// Throws dash::InvalidArgument unless [first, last) lies in one container and does not run backwards,
// dash::OutOfRange if it runs past the container's end.
template <class T, class PatternT>
void check_range(const GlobIter<T, PatternT>& first, const GlobIter<T, PatternT>& last, const char* function) {
  GlobIter<T, PatternT>::require_same_container(first, last, function);
  if (last.pos() < first.pos()) {
    throw invalid_argument(function, "last", last.pos(),
                           "a position at or after first's (" + std::to_string(first.pos()) +
                               "): [first, last) must not run backwards");
  }
  if (first.pos() == last.pos()) {
    return;
  }
  if (first.segment() == nullptr) {
    throw InvalidArgument(std::string(function) + ": [first, last) is not empty but its container holds no memory");
  }
  if (last.pos() > first.pattern().size()) {
    throw out_of_range(function, "last", last.pos(),
                       "a position in [0, " + std::to_string(first.pattern().size()) + "], the container's size");
  }
}

// Throws unless `start` begins `count` elements inside one container: dash::InvalidArgument for no
// container, or for a container on another team than `reference`'s (the algorithm's first range; none
// for one-sided algorithms), dash::OutOfRange when the container ends too early. Nothing is checked
// for count == 0.
template <class U, class PatternU>
void check_partner_range(const GlobIter<U, PatternU>& start, std::size_t count, const GlobalSegment* reference,
                         const char* function, const char* argument) {
  if (count == 0) {
    return;
  }
  if (start.segment() == nullptr) {
    throw InvalidArgument(std::string(function) + ": '" + argument + "' belongs to no allocated container");
  }
  if (reference != nullptr && &start.segment()->team() != &reference->team()) {
    throw InvalidArgument(std::string(function) + ": '" + argument +
                          "' belongs to a container on another team; every range of a collective algorithm must "
                          "belong to containers of the same team");
  }
  const std::size_t size = start.pattern().size();
  if (start.pos() > size || size - start.pos() < count) {
    throw out_of_range(function, argument, start.pos(),
                       "a position with " + std::to_string(count) +
                           " elements from it on in its container of size " + std::to_string(size) +
                           (size >= count ? ", i.e. in [0, " + std::to_string(size - count) + "]" : ""));
  }
}

// In builds with DASH_CROSS_RANK_CHECKS=ON: throws dash::InvalidArgument on every unit of the segment's
// team unless all of them passed the same positions to a collective algorithm (one allreduce).
// Does nothing for a range of an unallocated container, which involves no team.
template <std::size_t K>
void check_uniform_positions(const GlobalSegment* segment, const std::array<std::uint64_t, K>& positions,
                             const char* function) {
  if constexpr (comm::cross_rank_checks_enabled) {
    if (segment != nullptr) {
      comm::check_uniform(positions, function, "the positions of its iterators", segment->team().mpi_comm());
    }
  }
}

// True when element i of a range starting at `first` and element i of one starting at `other` live on
// the same unit at the same local offset, for every i: same pattern, same team, same start position.
// Then an algorithm runs as a plain loop over local pointers.
template <class T, class PatternT, class U, class PatternU>
bool aligned(const GlobIter<T, PatternT>& first, const GlobIter<U, PatternU>& other) {
  if constexpr (!std::is_same_v<PatternT, PatternU>) {
    return false;
  } else {
    return first.pos() == other.pos() && &first.segment()->team() == &other.segment()->team() &&
           (first.pattern_ptr() == other.pattern_ptr() || first.pattern() == other.pattern());
  }
}

// The checks of a collective algorithm over [first, last): check_range, then, in checks builds, that
// every unit passed the same positions (those of first, last and of the partner ranges' starts).
// Returns the length of the range.
template <class T, class PatternT>
std::size_t check_collective_range(const GlobIter<T, PatternT>& first, const GlobIter<T, PatternT>& last,
                                   const char* function, std::uint64_t partner_position = 0,
                                   std::uint64_t second_partner_position = 0) {
  check_range(first, last, function);
  const std::array<std::uint64_t, 4> positions{first.pos(), last.pos(), partner_position, second_partner_position};
  check_uniform_positions(first.segment(), positions, function);
  return last.pos() - first.pos();
}

}  // namespace dash::detail
