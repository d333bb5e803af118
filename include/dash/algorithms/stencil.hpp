#pragma once
// dash::apply_stencil: target = stencil(source) on every cell of a distributed matrix, with the
// halo exchange overlapped (seed 004 Alg. 6).
//
//   dash::HaloMatrix<double, 2> halo(u, stencil, dash::HaloBoundary::fixed, boundary_value);
//   dash::apply_stencil(halo, u_next);   // u_next(x) = sum over points p of p.coefficient * u(x + p.offset)
//
// Starts the halo update, computes the inner cells while the faces travel, then computes each
// boundary box the moment the halo regions it reads have arrived (StencilOptions::partial = false
// waits for the whole halo first, for measuring). Each cell sums coefficient * value in the order
// the stencil lists its points, starting from T{}, so the result is the same bit for bit at every
// number of units. Coefficients are converted to T. Collective over the matrices' team. No
// barrier at the end: target's cells are final locally; other units must synchronise (e.g. the
// next halo update, or target.barrier()) before reading them.

#include <array>
#include <cstddef>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/containers/halo_box.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/containers/matrix.hpp>

namespace dash {

struct StencilOptions {
  // Compute each boundary box as soon as its halo arrived (true) or after the whole halo (false).
  bool partial = true;
};

namespace detail {

// The inner cells, row by row: for each point, the whole row at once, so the loops vectorise
// while every cell still sums its points in stencil order.
template <class T, std::size_t N>
void apply_stencil_inner(const HaloBox<N>& box, const std::array<std::size_t, N>& strides, const T* source,
                         T* target, const std::vector<std::ptrdiff_t>& offsets, const std::vector<T>& weights) {
  if (box.empty()) {
    return;
  }
  HaloBox<N> rows = box;
  rows.first[N - 1] = 0;
  rows.last[N - 1] = 1;
  const std::size_t first = box.first[N - 1];
  const std::size_t width = box.last[N - 1] - first;
  rows.for_each([&](const std::array<std::size_t, N>& row) {
    std::size_t base = first;
    for (std::size_t d = 0; d + 1 < N; ++d) {
      base += row[d] * strides[d];
    }
    T* out = target + base;
    for (std::size_t c = 0; c < width; ++c) {
      out[c] = T{};
    }
    for (std::size_t p = 0; p < offsets.size(); ++p) {
      const T* in = source + static_cast<std::ptrdiff_t>(base) + offsets[p];
      const T weight = weights[p];
      for (std::size_t c = 0; c < width; ++c) {
        out[c] += weight * in[c];
      }
    }
  });
}

template <class T, std::size_t N>
void apply_stencil_boundary(const HaloMatrix<T, N>& source, const HaloBox<N>& box,
                            const std::array<std::size_t, N>& strides, T* target, const std::vector<T>& weights) {
  const auto& points = source.stencil().points();
  box.for_each([&](const std::array<std::size_t, N>& cell) {
    std::size_t at = 0;
    for (std::size_t d = 0; d < N; ++d) {
      at += cell[d] * strides[d];
    }
    T sum{};
    for (std::size_t p = 0; p < points.size(); ++p) {
      std::array<std::ptrdiff_t, N> index{};
      for (std::size_t d = 0; d < N; ++d) {
        index[d] = static_cast<std::ptrdiff_t>(cell[d]) + points[p].offset[d];
      }
      sum += weights[p] * source.value_unchecked(index);
    }
    target[at] = sum;
  });
}

}  // namespace detail

template <class T, std::size_t N>
void apply_stencil(HaloMatrix<T, N>& source, Matrix<T, N>& target, const StencilOptions& options = {}) {
  constexpr const char* function = "dash::apply_stencil";
  if (!target.is_allocated()) {
    throw invalid_argument(function, "target", "unallocated", "an allocated dash::Matrix");
  }
  if (&target == &source.matrix()) {
    throw invalid_argument(function, "target", "the source's matrix",
                           "a different matrix (cells read by the neighbours' stencils must not change during the "
                           "update)");
  }
  const auto& from = source.matrix().pattern();
  const auto& to = target.pattern();
  if (from.extents() != to.extents() || from.distribution_spec() != to.distribution_spec() ||
      from.team_spec() != to.team_spec() || &source.matrix().team() != &target.team()) {
    throw invalid_argument(function, "target", "a matrix of another shape, distribution or team",
                           "the source matrix's extents, distribution, process grid and team");
  }
  const auto& points = source.stencil().points();
  const auto& extents = source.local_extents();
  std::array<std::size_t, N> strides{};
  strides[N - 1] = 1;
  for (std::size_t d = N - 1; d-- > 0;) {
    strides[d] = strides[d + 1] * extents[d + 1];
  }
  std::vector<std::ptrdiff_t> offsets;
  std::vector<T> weights;
  for (const auto& point : points) {
    std::ptrdiff_t offset = 0;
    for (std::size_t d = 0; d < N; ++d) {
      offset += point.offset[d] * static_cast<std::ptrdiff_t>(strides[d]);
    }
    offsets.push_back(offset);
    weights.push_back(static_cast<T>(point.coefficient));
  }

  auto update = source.update_async();
  detail::apply_stencil_inner<T, N>(source.inner(), strides, source.matrix().lbegin(), target.lbegin(), offsets,
                                    weights);
  if (!options.partial) {
    update.wait();
  }
  update.for_each_ready_boundary([&](const HaloBox<N>& box) {
    detail::apply_stencil_boundary(source, box, strides, target.lbegin(), weights);
  });
}

}  // namespace dash
