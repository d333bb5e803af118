#pragma once
// Internal: a partial result that may be empty (a unit, a block or a piece without elements) and the
// user's operation lifted to such partials, so that reductions and scans need no identity element:
// an empty partial is the identity of the lifted operation. The lifted operation is commutative when
// the user's is, and associative when the user's is.

#include <array>
#include <cstddef>
#include <vector>

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

// Folds the elements [begin, begin + length) into `partial`, left to right.
template <class V, class T, class Op>
void fold_into(Partial<V>& partial, const Op& op, const T* begin, std::size_t length) {
  if (length == 0) {
    return;
  }
  V folded = partial.present ? partial.value : static_cast<V>(begin[0]);
  for (std::size_t i = partial.present ? 0 : 1; i < length; ++i) {
    folded = static_cast<V>(op(folded, begin[i]));
  }
  partial = Partial<V>{folded, true};
}

// The fold of the caller's part, in any order: for commutative operations.
template <class V, class T, class PatternT, class Op>
Partial<V> fold_part(const LocalPart<T, PatternT>& part, const Op& op) {
  Partial<V> folded;
  part.for_each_stretch([&](const LocalStretch& stretch) {
    fold_into(folded, op, part.memory() + stretch.local_begin, stretch.length);
  });
  return folded;
}

// The fold of each piece of the caller's part, in part order.
template <class V, class T, class PatternT, class Op>
std::vector<Partial<V>> fold_pieces(const LocalPart<T, PatternT>& part, const Op& op) {
  std::vector<Partial<V>> folded;
  part.for_each_piece([&](const LocalPiece& piece) {
    Partial<V> piece_fold;
    fold_into(piece_fold, op, part.memory() + piece.local_begin, piece.length);
    folded.push_back(piece_fold);
  });
  return folded;
}

}  // namespace dash::detail
