#pragma once
// dash::ViewPattern<N>: a rectangular region of an N-d pattern seen as a one-dimensional index space
// (row-major over the region), with the part of the pattern interface that global iterators and the
// algorithms use: size, local(position), runs. Iterators over a matrix view are GlobIter<T,
// ViewPattern<N>>, so every algorithm on global ranges works on sub-matrices, columns and blocks.

#include <array>
#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/core/local_index.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/run.hpp>
#include <dash/core/view_spec.hpp>

namespace dash {

template <std::size_t N>
class ViewPattern {
public:
  using Coords = std::array<std::size_t, N>;

  // `region` must lie inside `base` (checked); `base` must outlive the view.
  ViewPattern(const Pattern<N>& base, const ViewSpec<N>& region) : base_(&base), region_(region) {
    for (std::size_t dim = 0; dim < N; ++dim) {
      // Compared without the sum offset + extent, which wraps for offsets near the largest size_t.
      if (region.extents[dim] > base.extent(dim) || region.offsets[dim] > base.extent(dim) - region.extents[dim]) {
        throw OutOfRange("dash::ViewPattern: the region at offset " + std::to_string(region.offsets[dim]) +
                         " of extent " + std::to_string(region.extents[dim]) + " in dimension " +
                         std::to_string(dim) + " exceeds the extent " + std::to_string(base.extent(dim)));
      }
    }
  }

  const Pattern<N>& base() const noexcept { return *base_; }
  const ViewSpec<N>& region() const noexcept { return region_; }
  std::size_t size() const noexcept { return region_.size(); }
  std::size_t extent(std::size_t dim) const noexcept { return region_.extents[dim]; }
  std::size_t num_units() const noexcept { return base_->num_units(); }

  // Global coordinates of view position `position` (row-major over the region).
  Coords coords(std::size_t position) const noexcept {
    Coords global{};
    for (std::size_t dim = N; dim-- > 0;) {
      global[dim] = region_.offsets[dim] + position % region_.extents[dim];
      position /= region_.extents[dim];
    }
    return global;
  }
  LocalIndex local(std::size_t position) const {
    if (position >= size()) {
      throw OutOfRange("dash::ViewPattern::local: position " + std::to_string(position) + " is outside the view [0, " +
                       std::to_string(size()) + ")");
    }
    return base_->local(coords(position));
  }

  // f(Run) for the runs of view positions [begin, end), in increasing order; Run::global_begin is a
  // view position. Each line of the region along the last dimension is a contiguous range of the base
  // pattern, whose runs are reported one by one.
  template <class F>
  void for_each_run(std::size_t begin, std::size_t end, F f) const {
    if (begin > end || end > size()) {
      throw OutOfRange("dash::ViewPattern::for_each_run: [" + std::to_string(begin) + ", " + std::to_string(end) +
                       ") is not a range of view positions within [0, " + std::to_string(size()) + "]");
    }
    const std::size_t width = region_.extents[N - 1];
    while (begin < end) {
      const std::size_t line_end = std::min(end, (begin / width + 1) * width);
      const std::size_t global_first = base_->linear(coords(begin));
      base_->for_each_run(global_first, global_first + (line_end - begin), [&](Run run) {
        run.global_begin = begin + (run.global_begin - global_first);
        f(run);
      });
      begin = line_end;
    }
  }

  friend bool operator==(const ViewPattern& a, const ViewPattern& b) {
    return (a.base_ == b.base_ || *a.base_ == *b.base_) && a.region_ == b.region_;
  }

private:
  const Pattern<N>* base_;
  ViewSpec<N> region_;
};

}  // namespace dash
