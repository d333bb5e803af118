#pragma once
// dash::ViewSpec<N>: a rectangular region of an N-dimensional index space, given by its first
// coordinate (offsets) and its extents; used for the blocks of a pattern.

#include <array>
#include <cstddef>

namespace dash {

template <std::size_t N>
struct ViewSpec {
  std::array<std::size_t, N> offsets{};
  std::array<std::size_t, N> extents{};

  constexpr std::size_t offset(std::size_t dim) const noexcept { return offsets[dim]; }
  constexpr std::size_t extent(std::size_t dim) const noexcept { return extents[dim]; }

  // Number of elements in the region.
  constexpr std::size_t size() const noexcept {
    std::size_t elements = 1;
    for (std::size_t extent : extents) {
      elements *= extent;
    }
    return elements;
  }

  friend constexpr bool operator==(const ViewSpec&, const ViewSpec&) noexcept = default;
};

}  // namespace dash
