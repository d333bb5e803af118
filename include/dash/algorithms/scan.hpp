#pragma once
// dash::inclusive_scan and dash::exclusive_scan from a global range to a global output range, in
// global order, for any distribution. Each unit folds each piece of its own part (a block's part of
// the range, for 1-D containers), the collective layer turns the piece totals into the prefix before
// each piece (detail/ordered_prefixes.hpp), and each unit scans its pieces from those prefixes.

#include <cstddef>
#include <type_traits>
#include <vector>

#include <dash/algorithms/detail/fold_types.hpp>
#include <dash/algorithms/detail/ordered_prefixes.hpp>
#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/detail/partner_range.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

// out_first[i] = init? ⊕ first[0] ⊕ ... ⊕ first[i] (inclusive) or init ⊕ first[0] ⊕ ... ⊕ first[i - 1]
// (exclusive, init always given), accumulated in type V.
template <bool Inclusive, class V, class T, class PatternT, class U, class PatternU, class Op>
GlobIter<U, PatternU> scan_range(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                 GlobIter<U, PatternU> out_first, const Op& op, const Partial<V>& init,
                                 const char* function) {
  static_assert(!std::is_const_v<U>, "dash::inclusive_scan / exclusive_scan: the output range must be writable");
  require_fold_types<V, std::remove_const_t<T>, Op>();
  const std::size_t n = check_collective_range(first, last, function, out_first.pos());
  check_partner_range(out_first, n, first.segment(), function, "out_first");
  if (n == 0) {
    return out_first;
  }
  const LocalPart<T, PatternT> part(first, last);
  const OrderedPrefixes<V> prefixes = ordered_prefixes(part, fold_pieces<V>(part, op), op, true);
  const PartialOp<V, Op> lifted{op};
  const bool out_aligned = aligned(first, out_first);
  std::vector<U> packed(out_aligned ? 0 : part.size());
  U* const out_memory = out_aligned ? local_memory(out_first) : packed.data();
  std::size_t piece_index = 0;
  part.for_each_piece([&](const LocalPiece& piece) {
    const Partial<V> before = lifted(init, prefixes.before[piece_index++]);
    const T* const in = part.memory() + piece.local_begin;
    U* const out = out_memory + (out_aligned ? piece.local_begin : piece.part_offset);
    if constexpr (Inclusive) {
      std::size_t i = 0;
      V running = before.present ? before.value : static_cast<V>(in[0]);
      if (!before.present) {
        out[0] = static_cast<U>(running);
        i = 1;
      }
      for (; i < piece.length; ++i) {
        running = join(op, running, in[i]);
        out[i] = static_cast<U>(running);
      }
    } else {
      V running = before.value;
      for (std::size_t i = 0; i < piece.length; ++i) {
        const std::remove_const_t<T> element = in[i];  // read first: the output may be the input
        out[i] = static_cast<U>(running);
        running = join(op, running, element);
      }
    }
  });
  if (!out_aligned) {
    start_write_partner(part, out_first, packed.data()).wait();
  }
  return out_first + static_cast<std::ptrdiff_t>(n);
}

}  // namespace detail

// Collective over the team of the first range's container: out_first[i] = first[0] ⊕ ... ⊕ first[i]
// for i in [0, last - first), in global order, for an associative op (V, V) -> V, V the input element
// type (results convert to the output's), as std::inclusive_scan without init. Returns out_first + (last - first). Each unit computes the
// results of its own elements. The output may be the input itself (same range) but must not overlap
// it otherwise. Communication: for 1-D containers one exscan and one allreduce of one value per round
// of blocks in the range (P consecutive blocks: one value for BLOCKED, about n / P for CYCLIC),
// otherwise an allgatherv of one value per run; plus, unless the output is aligned with the input (same
// pattern, team and start position), each unit writes its results in bulk (at most one transfer per
// unit receiving results). No barrier at the end: call the output container's barrier() before
// other units read it.
template <class T, class PatternT, class U, class PatternU, class Op = dash::plus>
GlobIter<U, PatternU> inclusive_scan(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                     GlobIter<U, PatternU> out_first, Op op = {}) {
  return detail::scan_range<true>(first, last, out_first, op, detail::Partial<std::remove_const_t<T>>{},
                                  "dash::inclusive_scan");
}

// As above with out_first[i] = init ⊕ first[0] ⊕ ... ⊕ first[i], accumulated in init's type Init
// (std::inclusive_scan's typing; the requirements of dash::accumulate on Init and op).
template <class T, class PatternT, class U, class PatternU, class Op, class Init>
GlobIter<U, PatternU> inclusive_scan(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                     GlobIter<U, PatternU> out_first, Op op, Init init) {
  return detail::scan_range<true>(first, last, out_first, op, detail::Partial<Init>{init, true},
                                  "dash::inclusive_scan");
}

// Collective over the team of the first range's container: out_first[i] = init ⊕ first[0] ⊕ ... ⊕
// first[i - 1] (out_first[0] = init) in global order, accumulated in init's type Init
// (std::exclusive_scan's typing; the requirements of dash::accumulate on Init and op). Otherwise as
// inclusive_scan, with the same communication.
template <class T, class PatternT, class U, class PatternU, class Init, class Op = dash::plus>
GlobIter<U, PatternU> exclusive_scan(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                     GlobIter<U, PatternU> out_first, Init init, Op op = {}) {
  return detail::scan_range<false>(first, last, out_first, op, detail::Partial<Init>{init, true},
                                   "dash::exclusive_scan");
}

}  // namespace dash
