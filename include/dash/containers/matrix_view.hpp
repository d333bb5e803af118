#pragma once
// dash::MatrixView<T, N>: a rectangular region of a matrix (a column, a block of its pattern, any
// sub-matrix), addressed by coordinates relative to the region's corner. Elements are global
// references; begin()/end() iterate the region row-major and work with every algorithm on global
// ranges (dash::fill(view.begin(), view.end(), 0), dash::accumulate, dash::copy, ...). Iterators
// stay valid while the view object and its matrix live.

#include <array>
#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/core/glob_iter.hpp>
#include <dash/core/glob_ref.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/view_pattern.hpp>
#include <dash/core/view_spec.hpp>

namespace dash {

template <class T, std::size_t N>
class MatrixView {
public:
  using Coords = std::array<std::size_t, N>;
  using value_type = T;
  using reference = GlobRef<T>;
  using iterator = GlobIter<T, ViewPattern<N>>;

  // `region` must lie inside the pattern's extents (checked).
  MatrixView(const GlobalSegment& segment, const Pattern<N>& pattern, const ViewSpec<N>& region)
      : segment_(&segment), view_(pattern, region) {}

  const ViewSpec<N>& region() const noexcept { return view_.region(); }
  std::size_t extent(std::size_t dim) const noexcept { return view_.extent(dim); }
  std::size_t size() const noexcept { return view_.size(); }
  const ViewPattern<N>& pattern() const noexcept { return view_; }

  iterator begin() const { return iterator(segment_, &view_, 0); }
  iterator end() const { return iterator(segment_, &view_, size()); }

  // The element at view coordinates (i, j, ...).
  template <std::convertible_to<std::size_t>... Indices>
    requires(sizeof...(Indices) == N)
  reference operator()(Indices... indices) const {
    return at_coords(Coords{static_cast<std::size_t>(indices)...});
  }
  reference at_coords(const Coords& view_coords) const {
    std::size_t position = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (view_coords[dim] >= extent(dim)) {
        throw OutOfRange("dash::MatrixView: index " + std::to_string(view_coords[dim]) + " of dimension " +
                         std::to_string(dim) + " is outside [0, " + std::to_string(extent(dim)) + ")");
      }
      position = position * extent(dim) + view_coords[dim];
    }
    return (*this)[position];
  }
  // The i-th element in row-major order of the view.
  reference operator[](std::size_t position) const { return *(begin() + static_cast<std::ptrdiff_t>(position)); }

private:
  const GlobalSegment* segment_;
  ViewPattern<N> view_;
};

}  // namespace dash
