#pragma once
// Internal: a range that pairs with an algorithm's first range [first, last) element by element (a
// second input or an output starting at `partner_first`). The caller works on its part of the first
// range; the partner's matching elements either sit at the same local offsets (aligned ranges: plain
// pointers) or are moved in bulk between the partner's container and a buffer packed in part order
// (detail/bulk_transfer.hpp).

#include <cstddef>
#include <type_traits>
#include <vector>

#include <dash/algorithms/detail/bulk_transfer.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/core/future.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash::detail {

// The caller's local memory of the container `it` points into.
template <class U, class PatternU>
U* local_memory(const GlobIter<U, PatternU>& it) {
  return reinterpret_cast<U*>(it.segment()->local().data());
}

// Blocking: packed[k] = the partner element matching element k (in part order) of the caller's part.
// One batch: one transfer per unit holding partner elements.
template <class V, class T, class PatternT, class U, class PatternU>
void read_partner(const LocalPart<T, PatternT>& part, const GlobIter<U, PatternU>& partner_first, V* packed) {
  if (part.empty()) {
    return;
  }
  TransferBatch batch(*partner_first.segment(), TransferBatch::Direction::get);
  part.for_each_piece([&](const LocalPiece& piece) {
    add_read(batch, partner_first.pattern(), partner_first.pos() + (piece.global_begin - part.first_position()),
             piece.length, packed + piece.part_offset);
  });
  batch.start().wait();
}

// Starts writing packed[k] to the partner element matching element k (in part order) of the caller's
// part, one transfer per unit receiving elements; the caller waits on the returned set, and `packed`
// must stay unchanged until then.
template <class V, class T, class PatternT, class U, class PatternU>
TransferSet start_write_partner(const LocalPart<T, PatternT>& part, const GlobIter<U, PatternU>& partner_first,
                                const V* packed) {
  if (part.empty()) {
    return TransferSet();
  }
  TransferBatch batch(*partner_first.segment(), TransferBatch::Direction::put);
  part.for_each_piece([&](const LocalPiece& piece) {
    add_write(batch, partner_first.pattern(), partner_first.pos() + (piece.global_begin - part.first_position()),
              piece.length, packed + piece.part_offset);
  });
  return batch.start();
}

// The second input as seen from the caller's part: its local memory when aligned, else a packed copy
// of the matching elements (fetched in bulk).
template <class T2, class PatternT2>
struct SecondInput {
  using V = std::remove_const_t<T2>;

  template <class T1, class PatternT1>
  SecondInput(const LocalPart<T1, PatternT1>& part, const GlobIter<T1, PatternT1>& first1,
              const GlobIter<T2, PatternT2>& first2)
      : by_local_offset(aligned(first1, first2)) {
    if (by_local_offset) {
      data = local_memory(first2);
    } else {
      packed.resize(part.size());
      read_partner(part, first2, packed.data());
      data = packed.data();
    }
  }
  // data may point into packed.
  SecondInput(const SecondInput&) = delete;
  SecondInput& operator=(const SecondInput&) = delete;

  bool by_local_offset;
  std::vector<V> packed;
  const V* data = nullptr;
};

}  // namespace dash::detail
