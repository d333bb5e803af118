#pragma once
// dash::copy and dash::copy_async between global ranges and the caller's local memory, in bulk: a
// memcpy per run (elements one unit stores consecutively) on units the caller can load/store (itself
// and, with shared memory, units on its node), and ONE non-blocking RMA get/put per other unit, whose
// datatypes list that unit's runs; all transfers are started before any is waited for
// (detail/bulk_transfer.hpp). Also dash::copy from a global range to another global range,
// owner-computes.

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <dash/algorithms/detail/bulk_transfer.hpp>
#include <dash/algorithms/detail/partner_range.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/future.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Not collective: starts reading the global range [first, last) into local_out[0, last - first). The
// future completes when every element has arrived; local_out must stay valid until then (an unwaited
// future waits when destroyed). Runs the caller can load/store are copied before this returns.
// Communication: one transfer per unit holding elements of the range.
template <class T, class PatternT>
Future<void> copy_async(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, std::remove_const_t<T>* local_out) {
  detail::check_range(first, last, "dash::copy_async");
  if (first.pos() == last.pos()) {
    return Future<void>::ready();
  }
  detail::TransferBatch batch(*first.segment(), detail::TransferBatch::Direction::get);
  detail::add_read(batch, first.pattern(), first.pos(), last.pos() - first.pos(), local_out);
  return Future<void>(batch.start());
}

// Not collective: reads the global range [first, last) into local_out and returns local_out + (last -
// first). Communication: one transfer per unit holding elements of the range. To see other units'
// writes, the container's barrier() must come between them and this read.
template <class T, class PatternT>
std::remove_const_t<T>* copy(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                             std::remove_const_t<T>* local_out) {
  detail::check_range(first, last, "dash::copy");
  copy_async(first, last, local_out).wait();
  return local_out + (last.pos() - first.pos());
}

// Not collective: starts writing local [local_first, local_last) to the global range starting at
// out_first. The future completes when every element has reached its target; the local range must stay
// unchanged until then. Communication: one transfer per unit receiving elements. Throws
// dash::InvalidArgument when local_last < local_first, dash::OutOfRange when the container is too short.
template <class T, class PatternT>
Future<void> copy_async(const std::type_identity_t<T>* local_first, const std::type_identity_t<T>* local_last,
                        GlobIter<T, PatternT> out_first) {
  static_assert(!std::is_const_v<T>, "dash::copy_async: the output range must be writable");
  constexpr const char* function = "dash::copy_async";
  if (local_last < local_first) {
    throw InvalidArgument(std::string(function) +
                          ": local_last lies before local_first; [local_first, local_last) must not run backwards");
  }
  const auto n = static_cast<std::size_t>(local_last - local_first);
  detail::check_partner_range(out_first, n, nullptr, function, "out_first");
  if (n == 0) {
    return Future<void>::ready();
  }
  detail::TransferBatch batch(*out_first.segment(), detail::TransferBatch::Direction::put);
  detail::add_write(batch, out_first.pattern(), out_first.pos(), n, local_first);
  return Future<void>(batch.start());
}

// Not collective: writes local [local_first, local_last) to the global range starting at out_first and
// returns the end of the written range; the elements have reached their targets when it returns.
// Other units see them after the container's next barrier().
template <class T, class PatternT>
GlobIter<T, PatternT> copy(const std::type_identity_t<T>* local_first, const std::type_identity_t<T>* local_last,
                           GlobIter<T, PatternT> out_first) {
  copy_async(local_first, local_last, out_first).wait();
  return out_first + (local_last - local_first);
}

// Collective over the team of the first range's container: copies [first, last) to the global range
// starting at out_first (element types must match); each unit writes its own elements of [first, last).
// Communication: none when the output is aligned with the input (same pattern, team and start
// position); otherwise each unit writes its elements in bulk, one transfer per unit receiving some.
// The ranges must not overlap unless identical. No barrier at the end: call the output container's
// barrier() before other units read it.
template <class T, class PatternT, class U, class PatternU>
GlobIter<U, PatternU> copy(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, GlobIter<U, PatternU> out_first) {
  static_assert(std::is_same_v<std::remove_const_t<T>, U>,
                "dash::copy: the output range must be writable and have the input's element type (use "
                "dash::transform to convert)");
  constexpr const char* function = "dash::copy";
  const std::size_t n = detail::check_collective_range(first, last, function, out_first.pos());
  detail::check_partner_range(out_first, n, first.segment(), function, "out_first");
  if (n == 0) {
    return out_first;
  }
  const LocalPart<T, PatternT> part(first, last);
  if (detail::aligned(first, out_first)) {
    if (first.segment() == out_first.segment()) {
      return out_first + static_cast<std::ptrdiff_t>(n);  // the very same elements
    }
    U* const out = detail::local_memory(out_first);
    part.for_each_stretch([&](const LocalStretch& stretch) {
      std::copy(part.memory() + stretch.local_begin, part.memory() + stretch.local_begin + stretch.length,
                out + stretch.local_begin);
    });
    return out_first + static_cast<std::ptrdiff_t>(n);
  }
  // A 1-D part is already packed in part order in local memory; other patterns are packed first.
  std::vector<U> packed;
  const U* source = nullptr;
  if constexpr (LocalPart<T, PatternT>::one_stretch) {
    source = part.memory() + part.local_begin();
  } else {
    packed.resize(part.size());
    part.for_each_stretch([&](const LocalStretch& stretch) {
      std::copy(part.memory() + stretch.local_begin, part.memory() + stretch.local_begin + stretch.length,
                packed.data() + stretch.part_offset);
    });
    source = packed.data();
  }
  detail::start_write_partner(part, out_first, source).wait();
  return out_first + static_cast<std::ptrdiff_t>(n);
}

}  // namespace dash
