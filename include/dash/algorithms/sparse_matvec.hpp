#pragma once
// dash::sparse_matvec: y = A x for a sparse dash::CsrMatrix A distributed by row blocks, x and y
// BLOCKED dash::Arrays on A's team (x of A's column count, y of its row count).
//
//   dash::CsrMatrix<double> A(n, n, row_offsets, columns, values);   // each unit its rows
//   dash::Array<double> x(n), y(n);
//   dash::sparse_matvec(A, x, y);
//
// Each unit needs the elements of x its entries' columns name, which with a general sparsity
// pattern may be any of them: x is gathered with a non-blocking allgatherv whose arrivals are
// consumed at once. A keeps each unit's entries split by the unit that owns their column
// (CsrMatrix::column_block), so the block of x from unit j multiplies just the entries of its
// columns and adds them to the unit's rows of y as it lands; the unit's own block, which needs no
// transfer, is multiplied first, while the first messages are in flight (partial aggregation;
// SparseMatvecOptions::partial = false waits for all of x first, for measuring). The blocks' sums
// are added to y in arrival order, so the last bits of y may differ from run to run.
// Collective over A's team. Communication per unit: the other units' parts of x, received once.
// No barrier at the end: call y.barrier() before other units read y.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <dash/comm/allgatherv.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/exception.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/csr_matrix.hpp>
#include <dash/core/pattern.hpp>

namespace dash {

struct SparseMatvecOptions {
  // Multiply each block of x as it arrives (true) or after all of x has arrived (false).
  bool partial = true;
};

namespace detail {

// y[rows[k]] += the entries of row rows[k] times x, x starting at the block's first column. One sum
// per row, in entry order, as NPB CG's kernel adds: four partial sums measured no faster, as the
// loads of the entries and of x bound the loop.
template <class T, class Index>
void add_column_block_product(const CsrColumnBlock<T, Index>& block, const T* x, T* y) {
  const std::size_t* const starts = block.starts.data();
  const Index* const columns = block.columns.data();
  const T* const values = block.values.data();
  for (std::size_t k = 0; k < block.rows.size(); ++k) {
    T sum{};
    for (std::size_t e = starts[k]; e < starts[k + 1]; ++e) {
      sum += values[e] * x[columns[e]];
    }
    y[block.rows[k]] += sum;
  }
}

// Whether `layout` places its elements as `expected` does: the same number on each unit, each
// unit's being one run of global indices starting where expected's does.
inline bool same_blocks(const Pattern<1>& layout, const Pattern<1>& expected) {
  if (layout.size() != expected.size() || layout.num_units() != expected.num_units()) {
    return false;
  }
  for (std::size_t unit = 0; unit < expected.num_units(); ++unit) {
    const std::size_t count = expected.local_size(unit);
    if (layout.local_size(unit) != count) {
      return false;
    }
    if (count > 0 && (layout.global_index(unit, 0) != expected.global_index(unit, 0) ||
                      layout.global_index(unit, count - 1) != expected.global_index(unit, 0) + count - 1)) {
      return false;
    }
  }
  return true;
}

[[noreturn]] inline void sparse_matvec_error(const std::string& what) {
  throw InvalidArgument("dash::sparse_matvec: " + what);
}

}  // namespace detail

// Collective over A's team: y = A x (see the header comment). Throws dash::InvalidArgument, on
// every unit alike and before communicating, when x or y is not on A's team, has the wrong size
// or layout, or when x and y are the same array.
template <class T, class Index>
void sparse_matvec(const CsrMatrix<T, Index>& A, const Array<T>& x, Array<T>& y,
                   const SparseMatvecOptions& options = {}) {
  if (&x.team() != &A.team() || &y.team() != &A.team()) {
    detail::sparse_matvec_error("x and y must be allocated on A's team");
  }
  if (x.size() != A.cols() || y.size() != A.rows()) {
    detail::sparse_matvec_error("A is " + std::to_string(A.rows()) + " x " + std::to_string(A.cols()) +
                                " but x has " + std::to_string(x.size()) + " and y " + std::to_string(y.size()) +
                                " elements");
  }
  if (&x == &y) {
    detail::sparse_matvec_error("x and y must be different arrays (y is overwritten while x is read)");
  }
  if (!detail::same_blocks(x.pattern(), A.column_pattern())) {
    detail::sparse_matvec_error("x must be distributed as a BLOCKED array of " + std::to_string(A.cols()) +
                                " elements on A's team, but it is " + x.pattern().distribution(0).name());
  }
  if (!detail::same_blocks(y.pattern(), A.row_pattern())) {
    detail::sparse_matvec_error("y must hold each unit's rows of A (a BLOCKED array of " +
                                std::to_string(A.rows()) + " elements), but it is " +
                                y.pattern().distribution(0).name());
  }

  const Pattern<1>& columns = A.column_pattern();
  const std::size_t units = columns.num_units();
  const auto me = static_cast<std::size_t>(A.team().myid());
  std::vector<std::size_t> counts(units);
  for (std::size_t unit = 0; unit < units; ++unit) {
    counts[unit] = columns.local_size(unit);
  }
  std::vector<T> x_full(A.cols());
  T* const y_local = y.lbegin();
  std::fill(y_local, y_local + y.lsize(), T{});
  std::vector<bool> multiplied(units, false);
  const auto multiply = [&](std::size_t unit, const T* x_block) {
    detail::add_column_block_product(A.column_block(unit), x_block, y_local);
    multiplied[unit] = true;
  };
  auto gather = comm::iallgatherv(std::span<const T>(x.lbegin(), x.lsize()), x_full,
                                  std::span<const std::size_t>(counts), A.team().group());
  if (options.partial) {
    multiply(me, x.lbegin());
    // A unit's block may land in segments: it is multiplied once all of it has arrived.
    std::vector<std::size_t> arrived(units, 0);
    gather.for_each_arrival([&](const comm::Arrival<T>& part) {
      const auto unit = static_cast<std::size_t>(part.source);
      arrived[unit] += part.count;
      if (!multiplied[unit] && arrived[unit] == counts[unit]) {
        multiply(unit, x_full.data() + A.column_block(unit).first_column);
      }
    });
  }
  gather.wait();
  // Without partial aggregation all blocks; with it, blocks that came without an arrival report.
  for (std::size_t unit = 0; unit < units; ++unit) {
    if (!multiplied[unit]) {
      multiply(unit, x_full.data() + A.column_block(unit).first_column);
    }
  }
}

}  // namespace dash
