#pragma once
// dash::generate: assign generated values to every element of a global range, owner-computes.

#include <type_traits>

#include <dash/algorithms/detail/each_own_element.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Collective over the team of the range's container: every unit assigns gen() to each of its own
// elements of [first, last), calling its own copy of gen in increasing global order of those
// elements (so a stateful generator yields per-unit sequences). Communication: none (one allreduce of
// the positions in DASH_CROSS_RANK_CHECKS builds). No barrier at the end: call the container's
// barrier() before other units read the elements.
template <class T, class PatternT, class Generator>
void generate(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Generator gen) {
  static_assert(!std::is_const_v<T>, "dash::generate: the range must be writable (not of const iterators)");
  const auto assign = [&gen](T& element) { element = gen(); };
  detail::each_own_element(first, last, "dash::generate", assign);
}

}  // namespace dash
