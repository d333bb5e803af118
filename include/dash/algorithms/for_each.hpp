#pragma once
// dash::for_each and dash::for_each_with_index: call a function on every element of a global range,
// owner-computes.

#include <dash/algorithms/detail/each_own_element.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Collective over the team of the range's container: every unit calls its own copy of f(T&) (const T&
// for a range of const iterators) on each of its own elements of [first, last), in increasing global
// order of those elements. Communication: none (one allreduce of the positions in
// DASH_CROSS_RANK_CHECKS builds). No barrier at the end: call the container's barrier() before other
// units read elements that f changed.
template <class T, class PatternT, class UnaryFunction>
void for_each(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryFunction f) {
  detail::each_own_element(first, last, "dash::for_each", f);
}

// As for_each, calling f(element, global_index), where global_index is the element's global (linear)
// index in its container.
template <class T, class PatternT, class IndexedFunction>
void for_each_with_index(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, IndexedFunction f) {
  detail::each_own_element_with_index(first, last, "dash::for_each_with_index", f);
}

}  // namespace dash
