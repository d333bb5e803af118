#pragma once
// Internal: the typing of folds (accumulate, reduce, transform_reduce, scans with an init), as the
// STL's: the accumulator has init's type Acc, and a value x joins it as op(acc, x). Unlike a
// sequential std::accumulate, a distributed fold also needs op(Acc, Acc), which combines the units'
// partial results, and a way to start a unit's fold without init: its first value converted to Acc.

#include <concepts>
#include <type_traits>

namespace dash::detail {

// op(acc, x) exists and its result converts to Acc (as std::accumulate assigns it to acc).
template <class Op, class Acc, class X>
concept JoinsDirectly = std::is_invocable_v<const Op&, const Acc&, const X&> &&
                        std::is_convertible_v<std::invoke_result_t<const Op&, const Acc&, const X&>, Acc>;

// x joins acc: op(acc, x), as std::accumulate; an op that takes two values of one type only
// (dash::plus and the other dash:: operations) gets x converted to Acc first, so that
// dash::accumulate(bytes, std::uint64_t(0)) adds bytes to a 64-bit sum instead of failing to compile.
template <class Acc, class Op, class X>
Acc join(const Op& op, const Acc& acc, const X& x) {
  if constexpr (JoinsDirectly<Op, Acc, X>) {
    return static_cast<Acc>(op(acc, x));
  } else {
    return static_cast<Acc>(op(acc, static_cast<Acc>(x)));
  }
}

// The compile-time requirements of a fold of values of type X into an accumulator of type Acc, each
// with the reason a user can act on.
template <class Acc, class X, class Op>
constexpr void require_fold_types() {
  static_assert(std::is_trivially_copyable_v<Acc>,
                "dash fold (accumulate, reduce, transform_reduce, scans): init's type must be trivially copyable: "
                "the units' partial results travel between processes as bytes");
  static_assert(std::is_constructible_v<Acc, const X&>,
                "dash fold (accumulate, reduce, transform_reduce, scans): the elements must convert to init's "
                "type: each unit's fold starts from its first element (use dash::transform_reduce to map "
                "elements of another kind into init's type)");
  static_assert(JoinsDirectly<Op, Acc, Acc>,
                "dash fold (accumulate, reduce, transform_reduce, scans): op must take two values of init's "
                "type and return one that converts to it: it combines the units' partial results");
}

}  // namespace dash::detail
