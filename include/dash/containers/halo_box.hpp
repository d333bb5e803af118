#pragma once
// dash::HaloBox: a box of a unit's local cells, [first, last) in each dimension, as the halo
// wrapper hands them out for iteration: the inner cells, whose stencil reads only the unit's own
// block, and the boundary boxes, whose stencil also reads halo cells.

#include <array>
#include <cstddef>

namespace dash {

template <std::size_t N>
struct HaloBox {
  std::array<std::size_t, N> first{};
  std::array<std::size_t, N> last{};

  bool empty() const noexcept {
    for (std::size_t d = 0; d < N; ++d) {
      if (first[d] >= last[d]) {
        return true;
      }
    }
    return false;
  }

  std::size_t size() const noexcept {
    std::size_t cells = 1;
    for (std::size_t d = 0; d < N; ++d) {
      cells *= first[d] < last[d] ? last[d] - first[d] : 0;
    }
    return cells;
  }

  // Whether every cell of `other` lies in this box (an empty one lies anywhere).
  bool contains(const HaloBox& other) const noexcept {
    if (other.empty()) {
      return true;
    }
    for (std::size_t d = 0; d < N; ++d) {
      if (other.first[d] < first[d] || other.last[d] > last[d]) {
        return false;
      }
    }
    return true;
  }

  // Calls f(coords) for every cell, in row-major order.
  template <class F>
  void for_each(F&& f) const {
    if (empty()) {
      return;
    }
    std::array<std::size_t, N> coords = first;
    while (true) {
      f(static_cast<const std::array<std::size_t, N>&>(coords));
      std::size_t d = N;
      while (d > 0 && ++coords[d - 1] == last[d - 1]) {
        coords[d - 1] = first[d - 1];
        --d;
      }
      if (d == 0) {
        return;
      }
    }
  }

  friend bool operator==(const HaloBox&, const HaloBox&) = default;
};

}  // namespace dash
