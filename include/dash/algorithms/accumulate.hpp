#pragma once
// dash::accumulate and dash::reduce: combine every element of a global range into one value of
// init's type, on every unit. Each unit folds its own elements; the collective layer combines the
// units' results.

#include <type_traits>

#include <dash/algorithms/detail/fold_types.hpp>
#include <dash/algorithms/detail/ordered_prefixes.hpp>
#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

// init ⊕ (the whole range), in init's type Acc, on every unit; the range must not be empty.
template <bool Commutative, class Acc, class T, class PatternT, class Op>
Acc fold_range(const LocalPart<T, PatternT>& part, const Acc& init, const Op& op) {
  Partial<Acc> all;
  if constexpr (Commutative) {
    all = combine_over_team<true>(fold_part<Acc>(part, op), op, part.segment()->team());
  } else {
    all = ordered_prefixes(part, fold_pieces<Acc>(part, op), op, false).total;
  }
  return all.present ? static_cast<Acc>(op(init, all.value)) : init;
}

}  // namespace detail

// Collective over the team of the range's container: init ⊕ first[0] ⊕ ... ⊕ first[n - 1] on every
// unit, with std::accumulate's typing: the result and every partial result have init's type Init, and
// each element x joins as op(acc, x) (an op of two values of one type, such as dash::plus, gets x
// converted to Init first). So a sum of bytes into a std::uint64_t does not wrap at 256, and a sum of
// doubles into an int init truncates, as in the STL. Beyond the STL, op must be associative over Init,
// take two Init values (it combines the units' partial results), and the elements must convert to
// Init (a unit's fold starts from its first element); checked at compile time.
// An op tagged commutative (dash::plus and the other dash:: operations, dash::comm::commutative(f)) is
// applied in any order: each unit folds its own elements, then one allreduce of one value. Any other
// op is applied in global order: for 1-D containers one allreduce of one value per round of blocks in
// the range (P consecutive blocks: one value for BLOCKED, about n / P for CYCLIC), otherwise an
// allgatherv of one value per run of the range. An empty range returns init without communicating.
template <class T, class PatternT, class Init, class Op = dash::plus>
Init accumulate(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Init init, Op op = {}) {
  detail::require_fold_types<Init, std::remove_const_t<T>, Op>();
  if (detail::check_collective_range(first, last, "dash::accumulate") == 0) {
    return init;
  }
  return detail::fold_range<comm::is_commutative_v<Op>>(LocalPart<T, PatternT>(first, last), init, op);
}

// Collective over the team of the range's container: as accumulate (init's type, the same
// requirements), for an op that is associative AND commutative, stated by calling reduce (no tag
// needed): elements are combined in any order. Each unit folds its own elements; one allreduce of one
// value. An empty range returns init.
template <class T, class PatternT, class Init, class Op>
Init reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Init init, Op op) {
  detail::require_fold_types<Init, std::remove_const_t<T>, Op>();
  if (detail::check_collective_range(first, last, "dash::reduce") == 0) {
    return init;
  }
  return detail::fold_range<true>(LocalPart<T, PatternT>(first, last), init, op);
}

// reduce with dash::plus, into init's type.
template <class T, class PatternT, class Init>
Init reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Init init) {
  return dash::reduce(first, last, init, dash::plus{});
}

// reduce with dash::plus from a value-initialised element (0 for arithmetic types), in the element
// type (as std::reduce(first, last)).
template <class T, class PatternT>
std::remove_const_t<T> reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last) {
  return dash::reduce(first, last, std::remove_const_t<T>{}, dash::plus{});
}

}  // namespace dash
