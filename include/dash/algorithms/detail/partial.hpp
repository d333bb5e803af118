#pragma once
// Internal: a partial result that may be empty (a unit, a block or a piece without elements) and the
// user's operation lifted to such partials, so that reductions and scans need no identity element:
// an empty partial is the identity of the lifted operation. The lifted operation is commutative when
// the user's is, and associative when the user's is.

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include <dash/algorithms/detail/fold_types.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/team.hpp>

namespace dash::detail {

template <class V>
struct Partial {
  V value{};
  bool present = false;
};

template <class V, class Op, bool Commutative = comm::is_commutative_v<Op>>
struct PartialOp {
  static constexpr bool is_commutative = Commutative;
  Op op;

  Partial<V> operator()(const Partial<V>& left, const Partial<V>& right) const {
    if (!left.present) {
      return right;
    }
    if (!right.present) {
      return left;
    }
    return Partial<V>{static_cast<V>(op(left.value, right.value)), true};
  }
};

// Collective over `team`: the combination of every member's partial, in rank order (which matters only
// for non-commutative operations). One allreduce of one partial.
template <bool Commutative, class V, class Op>
Partial<V> combine_over_team(const Partial<V>& mine, const Op& op, const Team& team) {
  const std::array<Partial<V>, 1> in{mine};
  std::array<Partial<V>, 1> out{};
  comm::allreduce(in, out, PartialOp<V, Op, Commutative>{op}, team);
  return out[0];
}

// Folds value(0), ..., value(length - 1) into `partial`, left to right (detail/fold_types.hpp's
// join); an empty partial starts from value(0) converted to V.
template <class V, class Op, class Value>
void fold_into(Partial<V>& partial, const Op& op, std::size_t length, const Value& value) {
  if (length == 0) {
    return;
  }
  const std::size_t start = partial.present ? 0 : 1;
  V folded = partial.present ? partial.value : static_cast<V>(value(0));
  for (std::size_t i = start; i < length; ++i) {
    folded = join(op, folded, value(i));
  }
  partial = Partial<V>{folded, true};
}

// The fold of transform(x) over the caller's part, in any order: for commutative operations.
template <class V, class T, class PatternT, class Op, class Transform = std::identity>
Partial<V> fold_part(const LocalPart<T, PatternT>& part, const Op& op, const Transform& transform = {}) {
  Partial<V> folded;
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T* const elements = part.memory() + stretch.local_begin;
    fold_into(folded, op, stretch.length, [&](std::size_t i) -> decltype(auto) { return transform(elements[i]); });
  });
  return folded;
}

// The fold of each piece of the caller's part, in part order.
template <class V, class T, class PatternT, class Op>
std::vector<Partial<V>> fold_pieces(const LocalPart<T, PatternT>& part, const Op& op) {
  std::vector<Partial<V>> folded;
  part.for_each_piece([&](const LocalPiece& piece) {
    const T* const elements = part.memory() + piece.local_begin;
    Partial<V> piece_fold;
    fold_into(piece_fold, op, piece.length, [elements](std::size_t i) -> const T& { return elements[i]; });
    folded.push_back(piece_fold);
  });
  return folded;
}

}  // namespace dash::detail
