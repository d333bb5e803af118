#pragma once
// dash::matvec: y = A x for a dense dash::Matrix A distributed by rows (Kowalewski 2021 §5.3.2, the
// 1-D row-block layout).
//
//   dash::Matrix<double, 2> A(dash::SizeSpec<2>(m, n), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
//   dash::Array<double> x(n), y(m);       // BLOCKED, on A's team
//   dash::matvec(A, x, y);
//
// Each unit needs all of x and owns the rows of y that match its rows of A. x is gathered with a
// non-blocking allgatherv whose arrivals are consumed at once: as the block of x from unit j lands,
// the unit adds A_local[:, columns of j] * x_j to its rows of y, so the product overlaps the gather
// (partial aggregation; MatvecOptions::partial = false waits for all of x first, for measuring).
// Collective over A's team. Communication per unit: the other units' parts of x, received once.
// No barrier at the end: call y.barrier() before other units read y.
//
// A on a 2-D process grid (DistributionSpec<2>(BLOCKED, BLOCKED), any q0 x q1 TeamSpec) takes the
// Alg. 7 path of Kowalewski 2021 instead (detail/matvec_grid.hpp), as a pipeline: the local product
// in stages, each stage's reduce-scatter along the grid row started as soon as its rows are
// multiplied, each reduced piece written into y as soon as it is final; it ends with a barrier.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <dash/algorithms/detail/block_product.hpp>
#include <dash/algorithms/detail/matvec_grid.hpp>
#include <dash/comm/allgatherv.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/exception.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/distribution.hpp>

namespace dash {

struct MatvecOptions {
  // Multiply each block of x as it arrives (true) or after all of x has arrived (false). On a process
  // grid, false also reduces y in one blocking reduce-scatter after the whole product (no pipeline).
  bool partial = true;
  // On a process grid: rows of each pipeline stage's piece of a segment (detail/matvec_stages.hpp);
  // 0 lets the library choose. The same on every unit.
  std::size_t piece_rows = 0;
};

namespace detail {

[[noreturn]] inline void matvec_layout_error(const std::string& what) {
  throw InvalidArgument("dash::matvec: " + what);
}

}  // namespace detail

// Collective over A's team: y = A x (see the header comment for the layouts it accepts).
template <class T>
void matvec(const Matrix<T, 2>& A, const Array<T>& x, Array<T>& y, const MatvecOptions& options = {}) {
  const Pattern<2>& a = A.pattern();
  const std::size_t rows = a.extent(0);
  const std::size_t cols = a.extent(1);
  const bool on_grid = a.team_spec().extent(1) > 1;
  const auto kind0 = a.distribution(0).kind();
  const auto kind1 = a.distribution(1).kind();
  const auto one_block = [](DistributionKind kind) {
    return kind == DistributionKind::blocked || kind == DistributionKind::none;
  };
  if (!one_block(kind0) || !one_block(kind1)) {
    detail::matvec_layout_error("A must be distributed by rows (DistributionSpec<2>(BLOCKED, NONE)) or in blocks on a "
                                "process grid (DistributionSpec<2>(BLOCKED, BLOCKED)), but it is " +
                                a.distribution(0).name() + " x " + a.distribution(1).name() + " on a " +
                                std::to_string(a.team_spec().extent(0)) + " x " +
                                std::to_string(a.team_spec().extent(1)) + " grid");
  }
  if (&x.team() != &A.team() || &y.team() != &A.team()) {
    detail::matvec_layout_error("x and y must be allocated on A's team");
  }
  if (x.size() != cols || y.size() != rows) {
    detail::matvec_layout_error("A is " + std::to_string(rows) + " x " + std::to_string(cols) + " but x has " +
                                std::to_string(x.size()) + " and y " + std::to_string(y.size()) + " elements");
  }
  if (&x == &y) {
    detail::matvec_layout_error("x and y must be different arrays (y is overwritten while x is read)");
  }
  const Pattern<1>& x_layout = x.pattern();
  const Pattern<1>& y_layout = y.pattern();
  if (on_grid) {
    if (x_layout.distribution(0).kind() != DistributionKind::blocked ||
        y_layout.distribution(0).kind() != DistributionKind::blocked) {
      detail::matvec_layout_error("on a process grid x and y must be BLOCKED, but they are " +
                                  x_layout.distribution(0).name() + " and " + y_layout.distribution(0).name());
    }
    detail::matvec_grid(A, x, y, options.partial, options.piece_rows);
    return;
  }
  const std::size_t units = a.num_units();
  // y's part must be this unit's rows of A: the same blocks in the same order on every unit. A's
  // rows are one block per unit, so a unit's first row is its index times the block size (asked of
  // the pattern's block size, since A of no columns has no local element to ask).
  for (std::size_t unit = 0; unit < units; ++unit) {
    const std::size_t own_rows = a.local_extents(unit)[0];
    if (y_layout.local_size(unit) != own_rows ||
        (own_rows > 0 && y_layout.global_index(unit, 0) != unit * a.blocksize(0))) {
      detail::matvec_layout_error("y must hold the rows of A that each unit holds (y BLOCKED when A is BLOCKED "
                                  "by rows); unit " + std::to_string(unit) + " differs");
    }
  }
  if (x_layout.distribution(0).kind() != DistributionKind::blocked) {
    detail::matvec_layout_error("x must be BLOCKED, but it is " + x_layout.distribution(0).name());
  }

  std::vector<std::size_t> counts(units);
  for (std::size_t unit = 0; unit < units; ++unit) {
    counts[unit] = x_layout.local_size(unit);
  }
  const std::size_t my_rows = A.local.extent(0);
  std::vector<T> x_full(cols);
  T* const y_local = y.lbegin();
  std::fill(y_local, y_local + my_rows, T{});
  const T* const a_local = A.lbegin();
  std::vector<std::size_t> first_column(units, 0);
  for (std::size_t unit = 1; unit < units; ++unit) {
    first_column[unit] = first_column[unit - 1] + counts[unit - 1];
  }
  std::vector<bool> multiplied(units, false);
  const auto multiply = [&](std::size_t unit) {
    detail::add_block_product(a_local + first_column[unit], my_rows, cols, counts[unit],
                              x_full.data() + first_column[unit], y_local);
    multiplied[unit] = true;
  };
  auto gather = comm::iallgatherv(std::span<const T>(x.lbegin(), x.lsize()), x_full,
                                  std::span<const std::size_t>(counts), A.team().group());
  if (options.partial) {
    gather.for_each_arrival([&](const comm::Arrival<T>& block) { multiply(static_cast<std::size_t>(block.source)); });
  }
  gather.wait();
  // Blocks not reported as arrivals (the unit's own, which needs no transfer) or not yet used.
  for (std::size_t unit = 0; unit < units; ++unit) {
    if (!multiplied[unit]) {
      multiply(unit);
    }
  }
}

}  // namespace dash
