#pragma once
// The blocks of consecutive ranks counted from a rooted collective's root.

#include <cstdint>

#include <dash/comm/schedule/block_set.hpp>
#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

// The root's P·S-block buffer blocks of `count` consecutive relative ranks from `first`:
// consecutive absolute ranks too, but wrapping around the end when the root is not 0.
inline BlockSet blocks_of_relative_ranks(const CollectiveShape& shape, int first, int count) {
  const std::uint32_t s = shape.segments;
  const auto p = static_cast<std::uint32_t>(shape.size);
  const auto begin = static_cast<std::uint32_t>(modulo(first + shape.root, shape.size));
  const auto n = static_cast<std::uint32_t>(count);
  if (s == 0 || begin + n <= p) {
    return BlockSet::range(begin * s, n * s);
  }
  return BlockSet::wrapped_range(begin * s, n * s, p * s);
}

}  // namespace dash::comm::schedule
