#pragma once
// Internal: combining per-piece results in global order, for operations that may be non-commutative
// (accumulate with a user operation) and for scans, which need, for each piece of the caller's part,
// the combination of everything in the range before it.
//
// 1-D patterns deal blocks round-robin: "round" r holds blocks r * P .. r * P + P - 1, one per unit, in
// increasing unit order. A unit's piece is its block of one round, so global order is (round, unit)
// order and a scan over the range is a scan over a rounds x units matrix stored by columns:
//   before(r, u) = [rounds before r, all units] then [round r, units before u]
//                = fold_r' < r total(r')  ⊕  exscan over units of column entries in round r.
// One exscan and one allreduce of one partial per round of the range: O(blocks / P) per unit, and no
// unit ever holds another's elements. Other patterns fall back to an allgatherv of one partial per
// run of the range, sorted by global position.

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allgatherv.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/scan.hpp>
#include <dash/core/pattern.hpp>

namespace dash::detail {

template <class V>
struct OrderedPrefixes {
  std::vector<Partial<V>> before;  // per piece of the caller's part: the range's elements before it
  Partial<V> total;                // the whole range
};

// Collective over the range's team; the range [first, last) of `part` must not be empty. piece_totals
// holds, per piece of the caller's part in part order, the combination of its elements. Computes the
// total and, when with_prefixes, the prefix before each piece. op must be associative; it is applied
// in global order unless tagged commutative.
template <class V, class T, class PatternT, class Op>
OrderedPrefixes<V> ordered_prefixes(const LocalPart<T, PatternT>& part, const std::vector<Partial<V>>& piece_totals,
                                    const Op& op, bool with_prefixes) {
  const PartialOp<V, Op> lifted{op};
  const Team& team = part.segment()->team();
  OrderedPrefixes<V> result;
  if constexpr (std::is_same_v<PatternT, Pattern<1>>) {
    const std::size_t units = part.pattern()->num_units();
    const std::size_t block = part.pattern()->blocksize(0);
    std::size_t first_round = 0;
    std::size_t rounds = 1;
    if (units > 1) {
      first_round = part.first_position() / block / units;
      rounds = (part.last_position() - 1) / block / units - first_round + 1;
    }
    const auto round_of = [&](const LocalPiece& piece) {
      return units == 1 ? 0 : piece.local_begin / block - first_round;
    };
    std::vector<Partial<V>> mine(rounds);
    std::size_t next = 0;
    part.for_each_piece([&](const LocalPiece& piece) { mine[round_of(piece)] = piece_totals[next++]; });
    std::vector<Partial<V>> totals(rounds);
    comm::allreduce(mine, totals, lifted, team);
    std::vector<Partial<V>> before_me(rounds);  // exscan leaves member 0's untouched: empty
    if (with_prefixes) {
      comm::exscan(mine, before_me, lifted, team);
    }
    std::vector<Partial<V>> round_prefix(with_prefixes ? rounds : 0);
    for (std::size_t round = 0; round < rounds; ++round) {
      if (with_prefixes) {
        round_prefix[round] = lifted(result.total, before_me[round]);
      }
      result.total = lifted(result.total, totals[round]);
    }
    if (with_prefixes) {
      part.for_each_piece([&](const LocalPiece& piece) { result.before.push_back(round_prefix[round_of(piece)]); });
    }
  } else {
    struct RunPartial {
      std::size_t global_begin;
      Partial<V> total;
    };
    std::vector<RunPartial> mine;
    std::size_t next = 0;
    part.for_each_piece([&](const LocalPiece& piece) {
      mine.push_back(RunPartial{piece.global_begin, piece_totals[next++]});
    });
    comm::Packed<RunPartial> all = comm::allgatherv(mine, team);
    std::sort(all.data.begin(), all.data.end(),
              [](const RunPartial& a, const RunPartial& b) { return a.global_begin < b.global_begin; });
    std::vector<Partial<V>> prefix_at(with_prefixes ? all.data.size() : 0);
    for (std::size_t i = 0; i < all.data.size(); ++i) {
      if (with_prefixes) {
        prefix_at[i] = result.total;
      }
      result.total = lifted(result.total, all.data[i].total);
    }
    if (with_prefixes) {
      for (const RunPartial& run : mine) {
        const auto at = std::lower_bound(all.data.begin(), all.data.end(), run.global_begin,
                                         [](const RunPartial& a, std::size_t begin) { return a.global_begin < begin; });
        result.before.push_back(prefix_at[static_cast<std::size_t>(at - all.data.begin())]);
      }
    }
  }
  return result;
}

}  // namespace dash::detail
