#pragma once
// dash::all_of, dash::any_of and dash::none_of over a global range, on every unit. Each unit tests its
// own elements (stopping at the first that decides); one allreduce combines the answers.

#include <array>
#include <cstddef>

#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

// Collective: true when some element x of the range has pred(x) == wanted.
template <class T, class PatternT, class UnaryPredicate>
bool some_element_is(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate& pred, bool wanted,
                     const char* function) {
  if (check_collective_range(first, last, function) == 0) {
    return false;
  }
  const LocalPart<T, PatternT> part(first, last);
  std::array<int, 1> mine{0};
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T* const elements = part.memory() + stretch.local_begin;
    for (std::size_t i = 0; i < stretch.length; ++i) {
      if (static_cast<bool>(pred(elements[i])) == wanted) {
        mine[0] = 1;
        return false;
      }
    }
    return true;
  });
  std::array<int, 1> anywhere{};
  comm::allreduce(mine, anywhere, dash::max{}, part.segment()->team());
  return anywhere[0] != 0;
}

}  // namespace detail

// Collective over the team of the range's container: true when pred(x) holds for every element (true
// for an empty range), on every unit. Communication: one allreduce of one int.
template <class T, class PatternT, class UnaryPredicate>
bool all_of(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  return !detail::some_element_is(first, last, pred, false, "dash::all_of");
}

// Collective over the team of the range's container: true when pred(x) holds for some element (false
// for an empty range), on every unit. Communication: one allreduce of one int.
template <class T, class PatternT, class UnaryPredicate>
bool any_of(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  return detail::some_element_is(first, last, pred, true, "dash::any_of");
}

// Collective over the team of the range's container: true when pred(x) holds for no element (true for
// an empty range), on every unit. Communication: one allreduce of one int.
template <class T, class PatternT, class UnaryPredicate>
bool none_of(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  return !detail::some_element_is(first, last, pred, true, "dash::none_of");
}

}  // namespace dash
