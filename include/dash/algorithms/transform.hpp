#pragma once
// dash::transform: apply a unary operation to a global range, or a binary one to two, writing to a
// global output range or to the caller's local memory. The owner of each element of the first range
// computes its result.
//
// Partner ranges (the second input, a global output) that are aligned with the first range (same
// pattern, same team, same start position) are read and written through plain local pointers: the
// whole algorithm is then a loop over local memory, one loop for 1-D containers. Other partners are
// moved in bulk (detail/bulk_transfer.hpp): a memcpy per run for units the caller can load/store, one
// RMA transfer per other unit, all started before any is waited for.
// Ranges must not overlap unless they are the same range (aligned).

#include <cstddef>
#include <type_traits>
#include <vector>

#include <dash/algorithms/detail/partner_range.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

// out[k] = op(in[k]) over the caller's part; `out` is indexed by local offset when by_local_offset
// (an aligned output's local memory), else by part offset (a packed buffer).
template <class T, class PatternT, class Out, class UnaryOp>
void transform_part(const LocalPart<T, PatternT>& part, Out* out, bool by_local_offset, UnaryOp& op) {
  T* const memory = part.memory();
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T* const in = memory + stretch.local_begin;
    Out* const to = out + (by_local_offset ? stretch.local_begin : stretch.part_offset);
    for (std::size_t i = 0; i < stretch.length; ++i) {
      to[i] = static_cast<Out>(op(in[i]));
    }
  });
}

// out[k] = op(in1[k], in2[k]); in2 and out each indexed by local offset or by part offset.
template <class T1, class PatternT, class T2, class Out, class BinaryOp>
void transform_part(const LocalPart<T1, PatternT>& part, const T2* in2, bool in2_by_local_offset, Out* out,
                    bool out_by_local_offset, BinaryOp& op) {
  T1* const memory = part.memory();
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T1* const in1 = memory + stretch.local_begin;
    const T2* const second = in2 + (in2_by_local_offset ? stretch.local_begin : stretch.part_offset);
    Out* const to = out + (out_by_local_offset ? stretch.local_begin : stretch.part_offset);
    for (std::size_t i = 0; i < stretch.length; ++i) {
      to[i] = static_cast<Out>(op(in1[i], second[i]));
    }
  });
}

}  // namespace detail

// Collective over the team of the first range's container: out_first[i] = op(first[i]) for i in
// [0, last - first), computed by the unit that holds first[i]. Returns out_first + (last - first).
// Communication: none when the output is aligned with the input; otherwise each unit writes the results
// of its own elements in bulk (at most one transfer per unit receiving results; sizeof(U) bytes per
// element). Both containers must be on the same team. No barrier at the end: call the output
// container's barrier() before other units read the results.
template <class T, class PatternT, class U, class PatternU, class UnaryOp>
GlobIter<U, PatternU> transform(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                                GlobIter<U, PatternU> out_first, UnaryOp op) {
  static_assert(!std::is_const_v<U>, "dash::transform: the output range must be writable");
  constexpr const char* function = "dash::transform";
  const std::size_t n = detail::check_collective_range(first, last, function, out_first.pos());
  detail::check_partner_range(out_first, n, first.segment(), function, "out_first");
  if (n == 0) {
    return out_first;
  }
  const LocalPart<T, PatternT> part(first, last);
  if (detail::aligned(first, out_first)) {
    detail::transform_part(part, detail::local_memory(out_first), true, op);
  } else {
    std::vector<U> results(part.size());
    detail::transform_part(part, results.data(), false, op);
    detail::start_write_partner(part, out_first, results.data()).wait();
  }
  return out_first + static_cast<std::ptrdiff_t>(n);
}

// Collective over the team of the first range's container: out_first[i] = op(first1[i], first2[i]) for
// i in [0, last1 - first1), computed by the unit that holds first1[i]. Returns out_first + n.
// Communication: none when the second input and the output are aligned with the first range (the
// STREAM triad case: a plain loop over local pointers); otherwise each unit reads the matching second
// input elements of its own elements and writes its results in bulk (at most one transfer per unit
// each way). All containers must be on the same team. No barrier at the end.
template <class T1, class PatternT1, class T2, class PatternT2, class U, class PatternU, class BinaryOp>
GlobIter<U, PatternU> transform(GlobIter<T1, PatternT1> first1, GlobIter<T1, PatternT1> last1,
                                GlobIter<T2, PatternT2> first2, GlobIter<U, PatternU> out_first, BinaryOp op) {
  static_assert(!std::is_const_v<U>, "dash::transform: the output range must be writable");
  constexpr const char* function = "dash::transform";
  const std::size_t n = detail::check_collective_range(first1, last1, function, first2.pos(), out_first.pos());
  detail::check_partner_range(first2, n, first1.segment(), function, "first2");
  detail::check_partner_range(out_first, n, first1.segment(), function, "out_first");
  if (n == 0) {
    return out_first;
  }
  const LocalPart<T1, PatternT1> part(first1, last1);
  const detail::SecondInput<T2, PatternT2> second(part, first1, first2);
  if (detail::aligned(first1, out_first)) {
    detail::transform_part(part, second.data, second.by_local_offset, detail::local_memory(out_first), true, op);
  } else {
    std::vector<U> results(part.size());
    detail::transform_part(part, second.data, second.by_local_offset, results.data(), false, op);
    detail::start_write_partner(part, out_first, results.data()).wait();
  }
  return out_first + static_cast<std::ptrdiff_t>(n);
}

// Not collective: the caller writes op(x) for each of ITS OWN elements x of [first, last), in
// increasing global order of those elements (for 1-D containers: local order), to local_out, and gets
// the end of what it wrote. Communication: none.
template <class T, class PatternT, class V, class UnaryOp>
V* transform(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, V* local_out, UnaryOp op) {
  detail::check_range(first, last, "dash::transform");
  const LocalPart<T, PatternT> part(first, last);
  detail::transform_part(part, local_out, false, op);
  return local_out + part.size();
}

// Not collective: as above with op(x, y), y the element of the global range starting at first2 that
// matches x (its container may be on any team the caller belongs to). Communication: the caller reads
// the matching second input elements in bulk unless the second range is aligned with the first (same
// pattern, team and start position).
template <class T1, class PatternT1, class T2, class PatternT2, class V, class BinaryOp>
V* transform(GlobIter<T1, PatternT1> first1, GlobIter<T1, PatternT1> last1, GlobIter<T2, PatternT2> first2,
             V* local_out, BinaryOp op) {
  constexpr const char* function = "dash::transform";
  detail::check_range(first1, last1, function);
  const std::size_t n = last1.pos() - first1.pos();
  detail::check_partner_range(first2, n, nullptr, function, "first2");
  const LocalPart<T1, PatternT1> part(first1, last1);
  if (part.empty()) {
    return local_out;
  }
  const detail::SecondInput<T2, PatternT2> second(part, first1, first2);
  detail::transform_part(part, second.data, second.by_local_offset, local_out, false, op);
  return local_out + part.size();
}

}  // namespace dash
