#pragma once
// Internal: the loops that fill, generate and for_each (and their _with_index forms) share: f on each
// of the calling unit's elements of a global range, through plain pointers, in increasing global order.

#include <cstddef>

#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash::detail {

// Collective (the range checks): `function` names the public algorithm in error messages.
template <class T, class PatternT, class F>
void each_own_element(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, const char* function, F& f) {
  if (check_collective_range(first, last, function) == 0) {
    return;
  }
  const LocalPart<T, PatternT> part(first, last);
  T* const memory = part.memory();
  part.for_each_stretch([&](const LocalStretch& stretch) {
    T* const begin = memory + stretch.local_begin;
    for (std::size_t i = 0; i < stretch.length; ++i) {
      f(begin[i]);
    }
  });
}

// As each_own_element, calling f(element, global_index), global_index the element's global (linear)
// index in its container.
template <class T, class PatternT, class F>
void each_own_element_with_index(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, const char* function,
                                 F& f) {
  if (check_collective_range(first, last, function) == 0) {
    return;
  }
  const LocalPart<T, PatternT> part(first, last);
  T* const memory = part.memory();
  part.for_each_piece([&](const LocalPiece& piece) {
    T* const begin = memory + piece.local_begin;
    for (std::size_t i = 0; i < piece.length; ++i) {
      f(begin[i], piece.global_begin + i);
    }
  });
}

}  // namespace dash::detail
