#pragma once
// dash::equal: whether two global ranges hold equal elements, on every unit.

#include <array>
#include <cstddef>
#include <functional>

#include <dash/algorithms/detail/partner_range.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Collective over the team of the first range's container: true when pred(first1[i], first2[i]) holds
// for every i in [0, last1 - first1) (true for an empty range), on every unit. Each unit compares its
// own elements of the first range with their partners. Communication: none to read the second range
// when it is aligned with the first (same pattern, team and start position), else each unit reads its
// partners in bulk (at most one transfer per unit holding some); then one allreduce of one int.
template <class T1, class PatternT1, class T2, class PatternT2, class BinaryPredicate = std::equal_to<>>
bool equal(GlobIter<T1, PatternT1> first1, GlobIter<T1, PatternT1> last1, GlobIter<T2, PatternT2> first2,
           BinaryPredicate pred = {}) {
  constexpr const char* function = "dash::equal";
  const std::size_t n = detail::check_collective_range(first1, last1, function, first2.pos());
  detail::check_partner_range(first2, n, first1.segment(), function, "first2");
  if (n == 0) {
    return true;
  }
  const LocalPart<T1, PatternT1> part(first1, last1);
  const detail::SecondInput<T2, PatternT2> second(part, first1, first2);
  std::array<int, 1> mine{1};
  part.for_each_stretch([&](const LocalStretch& stretch) {
    const T1* const elements = part.memory() + stretch.local_begin;
    const auto* const partners = second.data + (second.by_local_offset ? stretch.local_begin : stretch.part_offset);
    for (std::size_t i = 0; i < stretch.length; ++i) {
      if (!pred(elements[i], partners[i])) {
        mine[0] = 0;
        return false;
      }
    }
    return true;
  });
  std::array<int, 1> everywhere{};
  comm::allreduce(mine, everywhere, dash::min{}, part.segment()->team());
  return everywhere[0] != 0;
}

}  // namespace dash
