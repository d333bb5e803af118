#pragma once
// Names and periodicity patterns of Cartesian grids for the neighbour-collective tests.

#include <string>
#include <vector>

#include <dash/comm/cartesian_grid.hpp>

namespace dash::testing {

// "4x2p": dimensions in order, "p" after a periodic one; "0-d" for a grid without dimensions.
inline std::string describe(const comm::CartesianGrid& grid) {
  std::string text;
  for (int d = 0; d < grid.ndims(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    text += d == 0 ? "" : "x";
    text += std::to_string(grid.dims()[i]);
    text += grid.periodic()[i] ? "p" : "";
  }
  return text.empty() ? "0-d" : text;
}

// The periodicity of `count` dimensions: bit d of `mask` for dimension d.
inline std::vector<bool> periodicity(unsigned mask, int count) {
  std::vector<bool> result;
  for (int d = 0; d < count; ++d) {
    result.push_back(((mask >> d) & 1u) != 0);
  }
  return result;
}

}  // namespace dash::testing
