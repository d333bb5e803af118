// dash::matvec (row blocks, and blocks on every process grid of the job, in pipeline stages of a few
// rows as well): y = A x against a serial product of the gathered A and x, for square and
// rectangular matrices, sizes that do not divide evenly, units without rows, with and without
// partial aggregation, matrices without columns; and the errors for layouts it does not take and
// for x and y the same array.

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/algorithms/matvec.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

double a_at(std::size_t i, std::size_t j) { return std::sin(static_cast<double>(i * 31 + j * 7)) + 0.01 * static_cast<double>(j); }
double x_at(std::size_t j) { return 1.0 + static_cast<double>(j % 13) * 0.25; }

void check_product(std::size_t rows, std::size_t cols, bool partial,
                   const dash::DistributionSpec<2>& layout = dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                   const dash::TeamSpec<2>& grid = dash::TeamSpec<2>(static_cast<std::size_t>(P()), 1),
                   std::size_t piece_rows = 0) {
  SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols) + (partial ? " partial" : " blocking") + " on a " +
               std::to_string(grid.extent(0)) + " x " + std::to_string(grid.extent(1)) + " grid, pieces of " +
               std::to_string(piece_rows) + " rows");
  dash::Matrix<double, 2> A(dash::SizeSpec<2>(rows, cols), layout, dash::Team::All(), grid);
  dash::Array<double> x(cols);
  dash::Array<double> y(rows);
  for (std::size_t i = 0; i < A.local.extent(0); ++i) {
    for (std::size_t j = 0; j < A.local.extent(1); ++j) {
      const auto g = A.local.global_coords({i, j});
      A.local(i, j) = a_at(g[0], g[1]);
    }
  }
  for (std::size_t k = 0; k < x.local.size(); ++k) {
    x.local[k] = x_at(x.pattern().global_index(static_cast<std::size_t>(me()), k));
  }
  A.barrier();
  x.barrier();
  dash::MatvecOptions options;
  options.partial = partial;
  options.piece_rows = piece_rows;
  dash::matvec(A, x, y, options);
  y.barrier();
  std::vector<double> result(rows);
  dash::copy(y.begin(), y.end(), result.data());
  bool ok = true;
  for (std::size_t i = 0; i < rows; ++i) {
    double expected = 0;
    for (std::size_t j = 0; j < cols; ++j) {
      expected += a_at(i, j) * x_at(j);
    }
    ok = ok && std::abs(result[i] - expected) <= 1e-12 * (1.0 + std::abs(expected)) * static_cast<double>(cols);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  y.barrier();
}

TEST(Matvec, MatchesTheSerialProduct) {
  const auto p = static_cast<std::size_t>(P());
  for (const bool partial : {true, false}) {
    check_product(1, 1, partial);
    check_product(p + 1, 2 * p + 3, partial);
    check_product(97, 61, partial);
    check_product(40, 300, partial);
    check_product(p + 2, 0, partial);  // no columns: y = 0
    if (p > 1) {
      check_product(p - 1, 5, partial);  // a unit without rows
    }
  }
}

TEST(Matvec, OnAProcessGridMatchesTheSerialProduct) {
  const auto p = static_cast<std::size_t>(P());
  const dash::DistributionSpec<2> blocks(dash::BLOCKED, dash::BLOCKED);
  const std::vector<dash::TeamSpec<2>> grids = {dash::TeamSpec<2>(dash::SizeSpec<2>(), blocks, p),
                                                dash::TeamSpec<2>(1, p), dash::TeamSpec<2>(p, 1)};
  for (const auto& grid : grids) {
    for (const bool partial : {true, false}) {
      check_product(1, 1, partial, blocks, grid);
      check_product(8 * p, 8 * p, partial, blocks, grid);            // square, rows line up with y's blocks
      check_product(97, 61, partial, blocks, grid);                  // neither divides evenly
      check_product(3 * p + 1, 5 * p + 2, partial, blocks, grid);
      check_product(2 * p + 1, 0, partial, blocks, grid);
      check_product(p > 1 ? p - 1 : 1, 40, partial, blocks, grid);   // units without rows
    }
  }
}

// Every q0 x q1 grid of the job (square and not), the product in pipeline stages of a few rows
// each: many reduce-scatters in flight along a grid row, pieces of one or two rows, segments of
// different lengths, units whose pieces are empty.
TEST(Matvec, InPipelineStagesOnEveryGridMatchesTheSerialProduct) {
  const auto p = static_cast<std::size_t>(P());
  const dash::DistributionSpec<2> blocks(dash::BLOCKED, dash::BLOCKED);
  for (std::size_t q0 = 1; q0 <= p; ++q0) {
    if (p % q0 != 0) {
      continue;
    }
    const dash::TeamSpec<2> grid(q0, p / q0);
    for (const std::size_t piece_rows : {1u, 3u, 7u}) {
      check_product(97, 61, true, blocks, grid, piece_rows);
      check_product(300, 40, true, blocks, grid, piece_rows);          // tall: up to 300 / p stages
      check_product(8 * p, 8 * p, true, blocks, grid, piece_rows);
      check_product(3 * p + 1, 5 * p + 2, true, blocks, grid, piece_rows);
      check_product(p > 1 ? p - 1 : 1, 40, true, blocks, grid, piece_rows);
    }
  }
}

TEST(Matvec, RejectsLayoutsItDoesNotTake) {
  // 2P + 1 elements: BLOCKED and CYCLIC place them differently for every P > 1.
  const std::size_t n = 2 * static_cast<std::size_t>(P()) + 1;
  dash::Matrix<double, 2> cyclic_rows(dash::SizeSpec<2>(n, n), dash::DistributionSpec<2>(dash::CYCLIC, dash::NONE));
  dash::Matrix<double, 2> grid(dash::SizeSpec<2>(n, n), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED),
                               dash::Team::All(), dash::TeamSpec<2>(1, static_cast<std::size_t>(P())));
  dash::Matrix<double, 2> by_rows(dash::SizeSpec<2>(n, n), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  dash::Array<double> x(n);
  dash::Array<double> y(n);
  dash::Array<double> short_x(n - 1);
  dash::Array<double> cyclic_x(n, dash::CYCLIC);
  dash::Array<double> cyclic_y(n, dash::CYCLIC);
  EXPECT_THROW(dash::matvec(cyclic_rows, x, y), dash::InvalidArgument);
  EXPECT_THROW(dash::matvec(grid, x, short_x), dash::InvalidArgument);
  EXPECT_THROW(dash::matvec(by_rows, short_x, y), dash::InvalidArgument);
  EXPECT_THROW(dash::matvec(by_rows, x, x), dash::InvalidArgument);  // y would be written while x is read
  EXPECT_THROW(dash::matvec(grid, x, x), dash::InvalidArgument);
  if (P() > 1) {
    EXPECT_THROW(dash::matvec(by_rows, cyclic_x, y), dash::InvalidArgument);
    EXPECT_THROW(dash::matvec(by_rows, x, cyclic_y), dash::InvalidArgument);
    EXPECT_THROW(dash::matvec(grid, cyclic_x, y), dash::InvalidArgument);
  }
  by_rows.barrier();
}

}  // namespace
