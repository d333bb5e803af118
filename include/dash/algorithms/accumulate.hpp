#pragma once
// dash::accumulate and dash::reduce: combine every element of a global range into one value, on
// every unit. Each unit folds its own elements; the collective layer combines the units' results.

#include <cstddef>
#include <type_traits>
#include <vector>

#include <dash/algorithms/detail/ordered_prefixes.hpp>
#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

// init ⊕ (the whole range), on every unit; the range must not be empty.
template <bool Commutative, class T, class PatternT, class Op>
std::remove_const_t<T> fold_range(const LocalPart<T, PatternT>& part, std::remove_const_t<T> init, const Op& op) {
  using V = std::remove_const_t<T>;
  Partial<V> all;
  if constexpr (Commutative) {
    all = combine_over_team<true>(fold_part<V>(part, op), op, part.segment()->team());
  } else {
    all = ordered_prefixes(part, fold_pieces<V>(part, op), op, false).total;
  }
  return all.present ? static_cast<V>(op(init, all.value)) : init;
}

}  // namespace detail

// Collective over the team of the range's container: init ⊕ first[0] ⊕ ... ⊕ first[n - 1] on every unit,
// for an associative op (V, V) -> V, V the element type (init converts to it, and so does the result,
// unlike std::accumulate, whose result has init's type). An op tagged commutative (dash::plus and the
// other dash:: operations, dash::comm::commutative(f)) is applied in any order: each unit folds its
// own elements, then one allreduce of one value. Any other op is applied in global order: for 1-D
// containers one allreduce of one value per round of blocks in the range (P consecutive blocks: one
// value for BLOCKED, about n / P for CYCLIC), otherwise an allgatherv of one value per run of the range.
// An empty range returns init without communicating.
template <class T, class PatternT, class Op = dash::plus>
std::remove_const_t<T> accumulate(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                  std::type_identity_t<std::remove_const_t<T>> init, Op op = {}) {
  if (detail::check_collective_range(first, last, "dash::accumulate") == 0) {
    return init;
  }
  return detail::fold_range<comm::is_commutative_v<Op>>(LocalPart<T, PatternT>(first, last), init, op);
}

// Collective over the team of the range's container: as accumulate, for an op that is associative AND
// commutative, stated by calling reduce (no tag needed): elements are combined in any order. Each unit
// folds its own elements; one allreduce of one value. An empty range returns init.
template <class T, class PatternT, class Op>
std::remove_const_t<T> reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                              std::type_identity_t<std::remove_const_t<T>> init, Op op) {
  if (detail::check_collective_range(first, last, "dash::reduce") == 0) {
    return init;
  }
  return detail::fold_range<true>(LocalPart<T, PatternT>(first, last), init, op);
}

// reduce with dash::plus.
template <class T, class PatternT>
std::remove_const_t<T> reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                              std::type_identity_t<std::remove_const_t<T>> init) {
  return dash::reduce(first, last, init, dash::plus{});
}

// reduce with dash::plus from a value-initialised element (0 for arithmetic types).
template <class T, class PatternT>
std::remove_const_t<T> reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last) {
  return dash::reduce(first, last, std::remove_const_t<T>{}, dash::plus{});
}

}  // namespace dash
