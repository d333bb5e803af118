#pragma once
// dash::generate and dash::generate_with_index: assign generated values to every element of a global
// range, owner-computes.

#include <cstddef>
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

// As generate, assigning gen(global_index) to each element, where global_index is the element's
// global (linear) index in its container (upstream DASH's generate_with_index): the values do not
// depend on which unit owns an element. Communication: none. No barrier at the end.
template <class T, class PatternT, class IndexedGenerator>
void generate_with_index(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, IndexedGenerator gen) {
  static_assert(!std::is_const_v<T>, "dash::generate_with_index: the range must be writable (not of const iterators)");
  const auto assign = [&gen](T& element, std::size_t global_index) { element = gen(global_index); };
  detail::each_own_element_with_index(first, last, "dash::generate_with_index", assign);
}

}  // namespace dash
