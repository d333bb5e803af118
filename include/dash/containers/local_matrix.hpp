#pragma once
// dash::LocalMatrix<T, N>: the calling unit's block of an N-d matrix as plain memory, addressed by
// local coordinates (what `matrix.local` is). Linear iteration (begin/end, operator[]) follows the
// pattern's local storage order: row-major over the local extents, tile by tile for TILE patterns.

#include <array>
#include <cstddef>

#include <dash/core/pattern.hpp>

namespace dash {

template <class T, std::size_t N>
class LocalMatrix {
public:
  using Coords = std::array<std::size_t, N>;

  LocalMatrix() = default;
  LocalMatrix(T* data, const Pattern<N>* pattern, std::size_t unit)
      : data_(data),
        pattern_(pattern),
        unit_coords_(pattern->team_spec().coords(unit)),
        extents_(pattern->local_extents(unit)),
        size_(pattern->local_size(unit)) {}

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t extent(std::size_t dim) const noexcept { return extents_[dim]; }
  const Coords& extents() const noexcept { return extents_; }
  T* data() const noexcept { return data_; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t local_index) const noexcept { return data_[local_index]; }

  // The element at local coordinates (i, j, ...), each below extent(d).
  template <std::convertible_to<std::size_t>... Indices>
    requires(sizeof...(Indices) == N)
  T& operator()(Indices... indices) const {
    return data_[local_index(Coords{static_cast<std::size_t>(indices)...})];
  }
  // Where local coordinates sit in the local memory.
  std::size_t local_index(const Coords& local_coords) const {
    if (!pattern_->is_tiled()) {
      std::size_t index = 0;
      for (std::size_t dim = 0; dim < N; ++dim) {
        index = index * extents_[dim] + local_coords[dim];
      }
      return index;
    }
    return pattern_->local(global_coords(local_coords)).index;
  }
  // The global coordinates of local coordinates: block (l / b) of this unit is global block
  // (l / b) * units + (this unit's coordinate) in each dimension.
  Coords global_coords(const Coords& local_coords) const {
    Coords global{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      const std::size_t block = pattern_->blocksize(dim);
      const std::size_t units = pattern_->team_spec().extent(dim);
      global[dim] = ((local_coords[dim] / block) * units + unit_coords_[dim]) * block + local_coords[dim] % block;
    }
    return global;
  }

private:
  T* data_ = nullptr;
  const Pattern<N>* pattern_ = nullptr;
  Coords unit_coords_{};
  Coords extents_{};
  std::size_t size_ = 0;
};

}  // namespace dash
