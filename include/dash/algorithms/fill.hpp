#pragma once
// dash::fill: set every element of a global range to one value, owner-computes.

#include <type_traits>

#include <dash/algorithms/detail/each_own_element.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Collective over the team of the range's container (every unit calls it; each writes only its own
// elements of [first, last), through plain pointers). Communication: none (one allreduce of the
// positions in DASH_CROSS_RANK_CHECKS builds). No barrier at the end: call the container's barrier()
// before other units read the elements.
template <class T, class PatternT>
void fill(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, const std::type_identity_t<T>& value) {
  static_assert(!std::is_const_v<T>, "dash::fill: the range must be writable (not of const iterators)");
  const auto assign = [&value](T& element) { element = value; };
  detail::each_own_element(first, last, "dash::fill", assign);
}

}  // namespace dash
