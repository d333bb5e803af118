#pragma once
// dash::transform_reduce: map every element (or every pair of elements of two global ranges) to a
// value and combine the values into init's type, in any order, on every unit, as <numeric>'s
// std::transform_reduce. Each unit maps and folds its own elements; one allreduce of one value.

#include <cstddef>
#include <functional>
#include <type_traits>

#include <dash/algorithms/detail/fold_types.hpp>
#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/detail/partner_range.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Collective over the team of the range's container: init ⊕ transform(first[0]) ⊕ ... ⊕
// transform(first[n - 1]) on every unit, for a reduce op that is associative and commutative (applied
// in any order, as std::transform_reduce). The result has init's type Init; every transformed value
// must convert to Init and reduce must take two Init values (checked at compile time, as for
// dash::accumulate). transform runs once per element, on the unit that owns it. Communication: one
// allreduce of one value. An empty range returns init.
template <class T, class PatternT, class Init, class ReduceOp, class UnaryTransform>
Init transform_reduce(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Init init, ReduceOp reduce,
                      UnaryTransform transform) {
  using Mapped = std::decay_t<std::invoke_result_t<UnaryTransform&, const std::remove_const_t<T>&>>;
  detail::require_fold_types<Init, Mapped, ReduceOp>();
  if (detail::check_collective_range(first, last, "dash::transform_reduce") == 0) {
    return init;
  }
  const LocalPart<T, PatternT> part(first, last);
  const detail::Partial<Init> all = detail::combine_over_team<true>(detail::fold_part<Init>(part, reduce, transform),
                                                                   reduce, part.segment()->team());
  return all.present ? static_cast<Init>(reduce(init, all.value)) : init;
}

// Collective over the team of the first range's container: init ⊕ transform(first1[0], first2[0]) ⊕
// ... ⊕ transform(first1[n - 1], first2[n - 1]), n = last1 - first1, on every unit; otherwise as the
// one-range form. Each unit pairs its own elements of the first range with their partners: no
// communication to read the second range when it is aligned with the first (same pattern, team and
// start position), else each unit reads its partners in bulk (one transfer per unit holding some).
template <class T1, class PatternT1, class T2, class PatternT2, class Init, class ReduceOp, class BinaryTransform>
Init transform_reduce(GlobIter<T1, PatternT1> first1, GlobIter<T1, PatternT1> last1, GlobIter<T2, PatternT2> first2,
                      Init init, ReduceOp reduce, BinaryTransform transform) {
  using Mapped = std::decay_t<
      std::invoke_result_t<BinaryTransform&, const std::remove_const_t<T1>&, const std::remove_const_t<T2>&>>;
  detail::require_fold_types<Init, Mapped, ReduceOp>();
  constexpr const char* function = "dash::transform_reduce";
  const std::size_t n = detail::check_collective_range(first1, last1, function, first2.pos());
  detail::check_partner_range(first2, n, first1.segment(), function, "first2");
  if (n == 0) {
    return init;
  }
  const LocalPart<T1, PatternT1> part(first1, last1);
  const detail::SecondInput<T2, PatternT2> second(part, first1, first2);
  detail::Partial<Init> mine;
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T1* const elements = part.memory() + stretch.local_begin;
    const auto* const partners = second.data + (second.by_local_offset ? stretch.local_begin : stretch.part_offset);
    detail::fold_into(mine, reduce, stretch.length,
                      [&](std::size_t i) -> decltype(auto) { return transform(elements[i], partners[i]); });
  });
  const detail::Partial<Init> all = detail::combine_over_team<true>(mine, reduce, part.segment()->team());
  return all.present ? static_cast<Init>(reduce(init, all.value)) : init;
}

// The inner product init + first1[0] * first2[0] + ... in init's type, as std::transform_reduce with
// std::plus and std::multiplies; otherwise as the two-range form.
template <class T1, class PatternT1, class T2, class PatternT2, class Init>
Init transform_reduce(GlobIter<T1, PatternT1> first1, GlobIter<T1, PatternT1> last1, GlobIter<T2, PatternT2> first2,
                      Init init) {
  return dash::transform_reduce(first1, last1, first2, init, dash::plus{}, std::multiplies<>{});
}

}  // namespace dash
