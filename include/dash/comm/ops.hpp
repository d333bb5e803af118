#pragma once
// Reduction operations as objects (docs/design.md §3).
//
// Every predefined operation is commutative. A user's callable becomes an operation with
// dash::comm::commutative(f) or dash::comm::non_commutative(f); an untagged callable is treated as
// non-commutative, the safe assumption: results of non-commutative operations keep rank order
// (lower ranks on the left), as MPI's do.

#include <concepts>
#include <type_traits>
#include <utility>

namespace dash {

struct plus {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

struct multiplies {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return a * b;
  }
};

struct min {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

struct max {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

struct bit_and {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a & b);
  }
};

struct bit_or {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a | b);
  }
};

struct bit_xor {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a ^ b);
  }
};

struct logical_and {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a && b);
  }
};

struct logical_or {
  static constexpr bool is_commutative = true;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return static_cast<T>(a || b);
  }
};

// A value with the position it came from, for minloc/maxloc (like MPI's MPI_DOUBLE_INT pairs).
template <class T, class Index = int>
struct ValueIndex {
  T value;
  Index index;
  friend constexpr bool operator==(const ValueIndex&, const ValueIndex&) = default;
};

// The smallest value; among equal values the smallest index (MPI_MINLOC's rule).
struct minloc {
  static constexpr bool is_commutative = true;
  template <class T, class Index>
  constexpr ValueIndex<T, Index> operator()(const ValueIndex<T, Index>& a, const ValueIndex<T, Index>& b) const {
    if (b.value < a.value || (!(a.value < b.value) && b.index < a.index)) {
      return b;
    }
    return a;
  }
};

// The largest value; among equal values the smallest index (MPI_MAXLOC's rule).
struct maxloc {
  static constexpr bool is_commutative = true;
  template <class T, class Index>
  constexpr ValueIndex<T, Index> operator()(const ValueIndex<T, Index>& a, const ValueIndex<T, Index>& b) const {
    if (a.value < b.value || (!(b.value < a.value) && b.index < a.index)) {
      return b;
    }
    return a;
  }
};

}  // namespace dash

namespace dash::comm {

// A user callable with its commutativity stated. It forwards arguments of any types, so that a fold
// (dash::accumulate) can call a function of (accumulator, element) directly.
template <class F, bool Commutative>
struct UserOp {
  static constexpr bool is_commutative = Commutative;
  F function;
  template <class A, class B>
  constexpr auto operator()(const A& a, const B& b) const -> decltype(function(a, b)) {
    return function(a, b);
  }
};

template <class F>
constexpr UserOp<std::decay_t<F>, true> commutative(F&& function) {
  return {std::forward<F>(function)};
}

template <class F>
constexpr UserOp<std::decay_t<F>, false> non_commutative(F&& function) {
  return {std::forward<F>(function)};
}

// True for operations tagged commutative; untagged callables are not.
template <class Op>
inline constexpr bool is_commutative_v = [] {
  if constexpr (requires { Op::is_commutative; }) {
    return static_cast<bool>(Op::is_commutative);
  } else {
    return false;
  }
}();

// An operation usable on elements of type T: (T, T) -> T.
template <class Op, class T>
concept ReductionFor = requires(const Op& op, const T& a, const T& b) {
  { op(a, b) } -> std::convertible_to<T>;
};

}  // namespace dash::comm
