#pragma once
// dash::find, dash::find_if and dash::find_if_not: a global iterator to the first element of a global range that matches,
// the same on every unit. Each unit searches its own elements (stopping at its first match); one
// allreduce takes the smallest matching global index.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

template <class T, class PatternT, class UnaryPredicate>
GlobIter<T, PatternT> find_first(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate& pred,
                                 const char* function) {
  if (check_collective_range(first, last, function) == 0) {
    return last;
  }
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  const LocalPart<T, PatternT> part(first, last);
  std::array<std::uint64_t, 1> mine{none};
  part.for_each_piece([&](const LocalPiece& piece) {
    const T* const elements = part.memory() + piece.local_begin;
    for (std::size_t i = 0; i < piece.length; ++i) {
      if (pred(elements[i])) {
        mine[0] = piece.global_begin + i;
        return false;  // pieces come in increasing global order: this is the caller's first match
      }
    }
    return true;
  });
  std::array<std::uint64_t, 1> first_match{};
  comm::allreduce(mine, first_match, dash::min{}, part.segment()->team());
  return first_match[0] == none ? last : first + static_cast<std::ptrdiff_t>(first_match[0] - first.pos());
}

}  // namespace detail

// Collective over the team of the range's container: an iterator to the first element x with pred(x),
// last if there is none (or the range is empty). The same on every unit. Communication: one allreduce
// of one 64-bit index.
template <class T, class PatternT, class UnaryPredicate>
GlobIter<T, PatternT> find_if(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  return detail::find_first(first, last, pred, "dash::find_if");
}

// Collective over the team of the range's container: an iterator to the first element x with !pred(x),
// last if there is none (or the range is empty). The same on every unit. Communication: one allreduce
// of one 64-bit index.
template <class T, class PatternT, class UnaryPredicate>
GlobIter<T, PatternT> find_if_not(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  auto fails = [&pred](const auto& x) { return !pred(x); };
  return detail::find_first(first, last, fails, "dash::find_if_not");
}

// Collective over the team of the range's container: an iterator to the first element equal to value,
// last if there is none. The same on every unit. Communication: one allreduce of one 64-bit index.
template <class T, class PatternT>
GlobIter<T, PatternT> find(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                           const std::type_identity_t<std::remove_const_t<T>>& value) {
  auto equals_value = [&value](const auto& x) { return x == value; };
  return detail::find_first(first, last, equals_value, "dash::find");
}

}  // namespace dash
