#pragma once
// Bounds checks shared by the pattern headers: one wording for "index outside [0, bound)".

#include <cstddef>
#include <string>
#include <string_view>

#include <dash/comm/exception.hpp>

namespace dash::detail {

inline std::string half_open_range(std::size_t bound) { return "[0, " + std::to_string(bound) + ")"; }

// Throws dash::OutOfRange naming function and argument unless value < bound.
inline void check_below(std::string_view function, std::string_view argument, std::size_t value,
                        std::size_t bound) {
  if (value >= bound) {
    throw out_of_range(function, argument, value, half_open_range(bound));
  }
}

// Multiplies two extents, throwing dash::InvalidArgument when the product does not fit std::size_t.
inline std::size_t checked_extent_product(std::string_view function, std::string_view argument, std::size_t product,
                                          std::size_t extent) {
  if (extent != 0 && product > static_cast<std::size_t>(-1) / extent) {
    throw invalid_argument(function, argument, extent, "extents whose product fits std::size_t");
  }
  return product * extent;
}

}  // namespace dash::detail
