#pragma once
// dash::Stencil: the points a stencil operation reads around each cell, with their weights
// (Kowalewski 2021 §5.3.1). Its reach in each direction sets the halo widths of a dash::HaloMatrix.
//
//   auto five_point = dash::Stencil<2>::star(1, -4.0, 1.0);   // centre and 4 neighbours
//   auto nine_point = dash::Stencil<2>::box(1, 0.0, 0.125);   // 3 x 3 block
//   dash::Stencil<2> jacobi({{{-1, 0}, 0.25}, {{1, 0}, 0.25}, {{0, -1}, 0.25}, {{0, 1}, 0.25}});
//
// The value a stencil gives a cell, summed as listed (StencilOptions::summation = as_listed),
// with v_k the value at point k:
// - c (v_0 + v_1 + ... + v_K-1) when every point has the same coefficient c (uniform(): an
//   average such as Jacobi's 0.25 (north + south + west + east));
// - c_0 v_0 + c_1 v_1 + ... + c_K-1 v_K-1 otherwise;
// each evaluated left to right. Grouped (the default where it saves work), points of equal
// coefficient share partial sums along the last dimension, in the order grouping() documents
// (stencil_grouping.hpp): the 27-point cube with a coefficient per distance class as
// w_0 (centre) + w_1 (faces) + ... with the faces' sums shared between neighbouring cells.
// dash::apply_stencil keeps to the chosen order exactly, so results do not depend on how the
// matrix is distributed.

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/containers/stencil_grouping.hpp>

namespace dash {

template <std::size_t N>
class Stencil {
  static_assert(N >= 1, "dash::Stencil needs at least one dimension");

public:
  // Throws dash::InvalidArgument for no points or an offset listed twice.
  explicit Stencil(std::vector<StencilPoint<N>> points) : points_(std::move(points)) {
    constexpr const char* function = "dash::Stencil";
    if (points_.empty()) {
      throw invalid_argument(function, "points.size()", 0, "at least one point");
    }
    for (std::size_t i = 0; i < points_.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (points_[j].offset == points_[i].offset) {
          throw invalid_argument(function, "points[" + std::to_string(i) + "].offset", describe(points_[i].offset),
                                 "offsets that differ from each other (points[" + std::to_string(j) +
                                     "] has the same)");
        }
      }
      for (std::size_t d = 0; d < N; ++d) {
        below_[d] = std::max(below_[d], static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, -points_[i].offset[d])));
        above_[d] = std::max(above_[d], static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, points_[i].offset[d])));
      }
    }
    grouping_ = StencilGrouping(points_);
  }

  // The centre and the cells up to `radius` steps along each axis (2 N radius + 1 points: the
  // 5-point stencil in 2-D and the 7-point one in 3-D for radius 1). Centre first, then per
  // dimension the offsets -radius .. -1, 1 .. radius.
  static Stencil star(std::size_t radius, double centre, double neighbour) {
    check_radius("dash::Stencil::star", radius);
    std::vector<StencilPoint<N>> points{{{}, centre}};
    for (std::size_t d = 0; d < N; ++d) {
      for (auto step = -static_cast<std::ptrdiff_t>(radius); step <= static_cast<std::ptrdiff_t>(radius); ++step) {
        if (step != 0) {
          StencilPoint<N> point{{}, neighbour};
          point.offset[d] = step;
          points.push_back(point);
        }
      }
    }
    return Stencil(std::move(points));
  }

  // Every cell within `radius` steps in each dimension ((2 radius + 1)^N points: 9-point in 2-D,
  // 27-point in 3-D for radius 1), in row-major order of the offsets; the centre weighs `centre`.
  static Stencil box(std::size_t radius, double centre, double neighbour) {
    check_radius("dash::Stencil::box", radius);
    const auto reach = static_cast<std::ptrdiff_t>(radius);
    std::vector<StencilPoint<N>> points;
    std::array<std::ptrdiff_t, N> offset;
    offset.fill(-reach);
    while (true) {
      const bool is_centre = std::all_of(offset.begin(), offset.end(), [](std::ptrdiff_t o) { return o == 0; });
      points.push_back({offset, is_centre ? centre : neighbour});
      std::size_t d = N;
      while (d > 0 && offset[d - 1] == reach) {
        offset[d - 1] = -reach;
        --d;
      }
      if (d == 0) {
        break;
      }
      ++offset[d - 1];
    }
    return Stencil(std::move(points));
  }

  const std::vector<StencilPoint<N>>& points() const noexcept { return points_; }
  // Every point has the same coefficient.
  bool uniform() const noexcept {
    return std::all_of(points_.begin(), points_.end(),
                       [&](const StencilPoint<N>& point) { return point.coefficient == points_.front().coefficient; });
  }
  std::size_t size() const noexcept { return points_.size(); }
  // Additions and multiplications per cell summed as listed: K for a uniform stencil (K - 1
  // additions, one multiplication), 2 K - 1 otherwise.
  std::size_t listed_operations() const noexcept { return uniform() ? points_.size() : 2 * points_.size() - 1; }
  // The points arranged for grouped summation.
  const StencilGrouping& grouping() const noexcept { return grouping_; }
  // How many cells the stencil reaches below (towards index 0) and above a cell in `dim`: the
  // halo widths on the two sides.
  std::size_t reach_below(std::size_t dim) const { return below_.at(dim); }
  std::size_t reach_above(std::size_t dim) const { return above_.at(dim); }
  // The largest reach in any direction.
  std::size_t radius() const noexcept {
    return std::max(*std::max_element(below_.begin(), below_.end()), *std::max_element(above_.begin(), above_.end()));
  }

private:
  static void check_radius(const char* function, std::size_t radius) {
    if (radius == 0) {
      throw invalid_argument(function, "radius", radius, "at least 1");
    }
  }
  static std::string describe(const std::array<std::ptrdiff_t, N>& offset) {
    std::string text = "(";
    for (std::size_t d = 0; d < N; ++d) {
      text += (d == 0 ? "" : ", ") + std::to_string(offset[d]);
    }
    return text + ")";
  }

  std::vector<StencilPoint<N>> points_;
  StencilGrouping grouping_;
  std::array<std::size_t, N> below_{};
  std::array<std::size_t, N> above_{};
};

}  // namespace dash
