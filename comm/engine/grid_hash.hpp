#pragma once
// A process grid's dimensions and periodicity as one number, for the plan cache's key and the
// cross-rank argument check.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

// 0 without a grid.
inline std::uint64_t grid_hash(const CartesianGrid* grid) noexcept {
  if (grid == nullptr) {
    return 0;
  }
  std::vector<std::int64_t> words;
  for (int d = 0; d < grid->ndims(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    words.push_back(std::int64_t{grid->dims()[i]} * 2 + (grid->periodic()[i] ? 1 : 0));
  }
  return fnv1a_hash(words.data(), words.size() * sizeof(std::int64_t)) + 1;
}

}  // namespace dash::comm::detail
