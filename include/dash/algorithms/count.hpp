#pragma once
// dash::count and dash::count_if: how many elements of a global range match, on every unit.

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

template <class T, class PatternT, class UnaryPredicate>
std::size_t count_matches(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate& pred,
                          const char* function) {
  if (check_collective_range(first, last, function) == 0) {
    return 0;
  }
  const LocalPart<T, PatternT> part(first, last);
  std::array<std::uint64_t, 1> mine{0};
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T* const elements = part.memory() + stretch.local_begin;
    for (std::size_t i = 0; i < stretch.length; ++i) {
      if (pred(elements[i])) {
        ++mine[0];
      }
    }
  });
  std::array<std::uint64_t, 1> total{};
  comm::allreduce(mine, total, dash::plus{}, part.segment()->team());
  return static_cast<std::size_t>(total[0]);
}

}  // namespace detail

// Collective over the team of the range's container: the number of elements x with pred(x), on every
// unit. Communication: one allreduce of one 64-bit count.
template <class T, class PatternT, class UnaryPredicate>
std::size_t count_if(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, UnaryPredicate pred) {
  return detail::count_matches(first, last, pred, "dash::count_if");
}

// Collective over the team of the range's container: the number of elements equal to value, on every
// unit. Communication: one allreduce of one 64-bit count.
template <class T, class PatternT>
std::size_t count(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last,
                  const std::type_identity_t<std::remove_const_t<T>>& value) {
  auto equals_value = [&value](const auto& x) { return x == value; };
  return detail::count_matches(first, last, equals_value, "dash::count");
}

}  // namespace dash
