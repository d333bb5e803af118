#pragma once
// dash::MatrixView<T, N>: a rectangular region of a matrix (a column, a block of its pattern, any
// sub-matrix), addressed by coordinates relative to the region's corner. Elements are global
// references; iteration is row-major over the region. copy_to() fetches the region into local memory
// with one transfer per contiguous run of the owners' memory.

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/core/glob_ref.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/view_spec.hpp>

namespace dash {

template <class T, std::size_t N>
class MatrixView {
public:
  using Coords = std::array<std::size_t, N>;
  using value_type = T;
  using reference = GlobRef<T>;

  // `region` must lie inside the pattern's extents (checked).
  MatrixView(const GlobalSegment& segment, const Pattern<N>& pattern, const ViewSpec<N>& region)
      : segment_(&segment), pattern_(&pattern), region_(region) {
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (region.offsets[dim] + region.extents[dim] > pattern.extent(dim)) {
        throw OutOfRange("dash::MatrixView: the region [" + std::to_string(region.offsets[dim]) + ", " +
                         std::to_string(region.offsets[dim] + region.extents[dim]) + ") of dimension " +
                         std::to_string(dim) + " exceeds the matrix extent " + std::to_string(pattern.extent(dim)));
      }
    }
  }

  const ViewSpec<N>& region() const noexcept { return region_; }
  std::size_t extent(std::size_t dim) const noexcept { return region_.extents[dim]; }
  std::size_t size() const noexcept { return region_.size(); }

  // The element at view coordinates (i, j, ...).
  template <std::convertible_to<std::size_t>... Indices>
    requires(sizeof...(Indices) == N)
  reference operator()(Indices... indices) const {
    return at_coords(Coords{static_cast<std::size_t>(indices)...});
  }
  reference at_coords(const Coords& view_coords) const {
    Coords global{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (view_coords[dim] >= region_.extents[dim]) {
        throw OutOfRange("dash::MatrixView: index " + std::to_string(view_coords[dim]) + " of dimension " +
                         std::to_string(dim) + " is outside [0, " + std::to_string(region_.extents[dim]) + ")");
      }
      global[dim] = region_.offsets[dim] + view_coords[dim];
    }
    const LocalIndex where = pattern_->local(global);
    return reference(GlobPtr<T>(*segment_, static_cast<int>(where.unit), where.index));
  }
  // The i-th element in row-major order of the view.
  reference operator[](std::size_t index) const {
    Coords coords{};
    for (std::size_t dim = N; dim-- > 0;) {
      coords[dim] = index % region_.extents[dim];
      index /= region_.extents[dim];
    }
    return at_coords(coords);
  }

  // Copies the region, row-major, into `out` (size() elements). One-sided, not collective: each run
  // of consecutive elements along the last dimension that one unit stores contiguously is one
  // transfer, all started before any completes.
  void copy_to(T* out) const {
    if (size() == 0) {
      return;
    }
    std::vector<PendingTransfer> pending;
    const std::size_t width = region_.extents[N - 1];
    const std::size_t lines = size() / width;
    for (std::size_t line = 0; line < lines; ++line) {
      Coords coords{};
      std::size_t rest = line;
      for (std::size_t dim = N - 1; dim-- > 0;) {
        coords[dim] = region_.offsets[dim] + rest % region_.extents[dim];
        rest /= region_.extents[dim];
      }
      coords[N - 1] = region_.offsets[N - 1];
      const std::size_t first = pattern_->linear(coords);
      T* destination = out + line * width;
      pattern_->for_each_run(first, first + width, [&](const Run& run) {
        T* target = destination + (run.global_begin - first);
        const auto unit = static_cast<int>(run.unit);
        const std::size_t bytes = run.length * sizeof(T);
        if (const std::byte* memory = segment_->direct(unit); memory != nullptr) {
          std::memcpy(target, memory + run.local_begin * sizeof(T), bytes);
        } else {
          pending.push_back(segment_->start_get(unit, run.local_begin * sizeof(T), target, bytes));
        }
      });
    }
    for (PendingTransfer& transfer : pending) {
      segment_->wait_for(transfer);
    }
  }

private:
  const GlobalSegment* segment_;
  const Pattern<N>* pattern_;
  ViewSpec<N> region_;
};

}  // namespace dash
