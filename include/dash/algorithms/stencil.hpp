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
#include <utility>
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

// One row of inner cells for a stencil of K points: each cell sums its points in stencil order
// in a register; K known at compile time lets the compiler unroll the points and vectorise the row.
template <class T, std::size_t K>
void stencil_row(T* out, std::size_t width, const T* in, const std::ptrdiff_t* offsets, const T* weights) {
  std::array<const T*, K> rows;
  std::array<T, K> w;
  for (std::size_t k = 0; k < K; ++k) {
    rows[k] = in + offsets[k];
    w[k] = weights[k];
  }
  for (std::size_t c = 0; c < width; ++c) {
    T sum{};
    for (std::size_t k = 0; k < K; ++k) {
      sum += w[k] * rows[k][c];
    }
    out[c] = sum;
  }
}

// Any number of points: one pass over the row per point (the order per cell is the same).
template <class T>
void stencil_row_any(T* out, std::size_t width, const T* in, const std::ptrdiff_t* offsets, const T* weights,
                     std::size_t points) {
  for (std::size_t c = 0; c < width; ++c) {
    out[c] = T{};
  }
  for (std::size_t p = 0; p < points; ++p) {
    const T* row = in + offsets[p];
    const T weight = weights[p];
    for (std::size_t c = 0; c < width; ++c) {
      out[c] += weight * row[c];
    }
  }
}

template <class T>
using StencilRow = void (*)(T*, std::size_t, const T*, const std::ptrdiff_t*, const T*);

// The row kernels for 1 .. 27 points (up to the 27-point 3-D box), by point count.
template <class T, std::size_t... K>
constexpr std::array<StencilRow<T>, sizeof...(K)> make_stencil_rows(std::index_sequence<K...>) {
  return {&stencil_row<T, K + 1>...};
}
template <class T>
inline constexpr auto stencil_rows = make_stencil_rows<T>(std::make_index_sequence<27>());

// The inner cells, row by row along the last dimension.
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
  const std::size_t points = offsets.size();
  const StencilRow<T> kernel = points <= stencil_rows<T>.size() ? stencil_rows<T>[points - 1] : nullptr;
  rows.for_each([&](const std::array<std::size_t, N>& row) {
    std::size_t base = first;
    for (std::size_t d = 0; d + 1 < N; ++d) {
      base += row[d] * strides[d];
    }
    const T* in = source + base;
    if (kernel != nullptr) {
      kernel(target + base, width, in, offsets.data(), weights.data());
    } else {
      stencil_row_any(target + base, width, in, offsets.data(), weights.data(), points);
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
