// dash::Matrix: 2-d and 3-d patterns (every distribution kind per dimension, team grids), element
// access by m(i, j), m[i][j] and iterators, the local block by local coordinates, rows as global
// ranges, and errors.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::Team;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

double value_at(std::size_t i, std::size_t j) { return static_cast<double>(i) * 1000.0 + static_cast<double>(j); }

struct Case2d {
  dash::Distribution rows;
  dash::Distribution cols;
  std::size_t extent0;
  std::size_t extent1;
};

std::string describe(const Case2d& c) {
  return c.rows.name() + "x" + c.cols.name() + " " + std::to_string(c.extent0) + "x" + std::to_string(c.extent1);
}

std::vector<Case2d> cases_2d() {
  const auto p = static_cast<std::size_t>(P());
  std::vector<Case2d> cases;
  for (const auto& [rows, cols] : std::vector<std::pair<dash::Distribution, dash::Distribution>>{
           {dash::BLOCKED, dash::NONE},
           {dash::NONE, dash::BLOCKED},
           {dash::BLOCKED, dash::BLOCKED},
           {dash::CYCLIC, dash::BLOCKCYCLIC(2)},
           {dash::TILE(2), dash::TILE(3)},
           {dash::BLOCKCYCLIC(3), dash::CYCLIC}}) {
    for (const auto& [e0, e1] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 5}, {1, 1}, {p + 1, 7}, {13, p + 2}}) {
      cases.push_back({rows, cols, e0, e1});
    }
  }
  return cases;
}

TEST(Matrix, EveryElementReachableByCallAndBrackets) {
  for (const Case2d& c : cases_2d()) {
    SCOPED_TRACE(describe(c));
    dash::Matrix<double, 2> m(dash::SizeSpec<2>(c.extent0, c.extent1), dash::DistributionSpec<2>(c.rows, c.cols));
    ASSERT_EQ(m.size(), c.extent0 * c.extent1);
    // Write the local block by local coordinates.
    for (std::size_t i = 0; i < m.local.extent(0); ++i) {
      for (std::size_t j = 0; j < m.local.extent(1); ++j) {
        const auto global = m.local.global_coords({i, j});
        m.local(i, j) = value_at(global[0], global[1]);
      }
    }
    m.barrier();
    bool ok = true;
    for (std::size_t i = 0; i < c.extent0; ++i) {
      for (std::size_t j = 0; j < c.extent1; ++j) {
        ok = ok && static_cast<double>(m(i, j)) == value_at(i, j) && static_cast<double>(m[i][j]) == value_at(i, j);
      }
    }
    std::size_t position = 0;
    for (auto it = m.begin(); it != m.end(); ++it, ++position) {
      ok = ok && static_cast<double>(*it) == value_at(position / c.extent1, position % c.extent1);
    }
    EXPECT_TRUE(dash::testing::on_all_ranks(ok));
    m.barrier();
  }
}

TEST(Matrix, RemoteWritesLandInTheOwnersLocalBlock) {
  const std::size_t rows = 2 * static_cast<std::size_t>(P()) + 1;
  const std::size_t cols = 5;
  dash::Matrix<std::int64_t, 2> m(dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::CYCLIC, dash::NONE));
  // Unit u writes row i when i % P == (u + 1) % P: always another unit's row when P > 1.
  for (std::size_t i = 0; i < rows; ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(P())) == (me() + 1) % P()) {
      for (std::size_t j = 0; j < cols; ++j) {
        m[i][j] = static_cast<std::int64_t>(i * cols + j);
      }
    }
  }
  m.barrier();
  bool ok = true;
  for (std::size_t i = 0; i < m.local.extent(0); ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const auto global = m.local.global_coords({i, j});
      ok = ok && m.local(i, j) == static_cast<std::int64_t>(global[0] * cols + global[1]);
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  m.barrier();
}

TEST(Matrix, ThreeDimensionsWithAnExplicitTeamGrid) {
  // Units in a P x 1 x 1 grid unless P splits into 2 x (P / 2).
  const std::size_t p = static_cast<std::size_t>(P());
  const dash::TeamSpec<3> grid = (p % 2 == 0) ? dash::TeamSpec<3>(2, p / 2, 1) : dash::TeamSpec<3>(p, 1, 1);
  dash::Matrix<int, 3> cube(dash::SizeSpec<3>(5, 4, 3),
                            dash::DistributionSpec<3>(dash::BLOCKCYCLIC(2), dash::CYCLIC, dash::NONE), Team::All(),
                            grid);
  for (std::size_t i = 0; i < cube.local.extent(0); ++i) {
    for (std::size_t j = 0; j < cube.local.extent(1); ++j) {
      for (std::size_t k = 0; k < cube.local.extent(2); ++k) {
        const auto g = cube.local.global_coords({i, j, k});
        cube.local(i, j, k) = static_cast<int>(g[0] * 100 + g[1] * 10 + g[2]);
      }
    }
  }
  cube.barrier();
  bool ok = true;
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      for (std::size_t k = 0; k < 3; ++k) {
        ok = ok && static_cast<int>(cube(i, j, k)) == static_cast<int>(i * 100 + j * 10 + k) &&
             static_cast<int>(cube[i][j][k]) == static_cast<int>(i * 100 + j * 10 + k);
      }
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  cube.barrier();
}

TEST(Matrix, RowsAreContiguousGlobalRanges) {
  dash::Matrix<int, 2> m(dash::SizeSpec<2>(6, 4), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  for (std::size_t i = 0; i < m.local.extent(0); ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      m.local(i, j) = static_cast<int>(m.local.global_coords({i, j})[0]);
    }
  }
  m.barrier();
  const auto row = m.row(3);
  EXPECT_EQ(row.size(), 4U);
  bool ok = true;
  for (std::size_t j = 0; j < row.size(); ++j) {
    ok = ok && static_cast<int>(row[j]) == 3;
  }
  const auto band = m.rows(1, 4);
  EXPECT_EQ(band.size(), 12U);
  EXPECT_EQ(band.begin().pos(), 4U);
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  EXPECT_THROW(static_cast<void>(m.row(6)), dash::OutOfRange);
  EXPECT_THROW(static_cast<void>(m.rows(3, 2)), dash::OutOfRange);
  m.barrier();
}

TEST(Matrix, ColumnBlockAndSubMatrixViews) {
  const std::size_t rows = 7;
  const std::size_t cols = 2 * static_cast<std::size_t>(P()) + 1;
  dash::Matrix<int, 2> m(dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKCYCLIC(2)),
                         Team::All(), dash::TeamSpec<2>(Team::All()));
  EXPECT_EQ(m.pattern().team_spec().extent(0), static_cast<std::size_t>(P()));
  for (std::size_t i = 0; i < m.local.extent(0); ++i) {
    for (std::size_t j = 0; j < m.local.extent(1); ++j) {
      const auto g = m.local.global_coords({i, j});
      m.local(i, j) = static_cast<int>(g[0] * 100 + g[1]);
    }
  }
  m.barrier();
  bool ok = true;
  const auto column = m.col(cols - 1);
  ok = ok && column.size() == rows && column.extent(1) == 1;
  for (std::size_t i = 0; i < rows; ++i) {
    ok = ok && static_cast<int>(column(i, 0)) == static_cast<int>(i * 100 + cols - 1);
  }
  for (std::size_t b = 0; b < m.pattern().nblocks(); ++b) {
    const auto block = m.block(b);
    std::vector<int> fetched(block.size());
    dash::copy(block.begin(), block.end(), fetched.data());
    for (std::size_t k = 0; k < block.size(); ++k) {
      const std::size_t i = block.region().offsets[0] + k / block.extent(1);
      const std::size_t j = block.region().offsets[1] + k % block.extent(1);
      ok = ok && fetched[k] == static_cast<int>(i * 100 + j) && static_cast<int>(block[k]) == fetched[k];
    }
  }
  const auto inner = m.sub(dash::ViewSpec<2>{{1, 1}, {rows - 2, cols - 1}});
  std::vector<int> fetched(inner.size());
  dash::copy(inner.begin(), inner.end(), fetched.data());
  for (std::size_t k = 0; k < inner.size(); ++k) {
    ok = ok && fetched[k] == static_cast<int>((1 + k / (cols - 1)) * 100 + 1 + k % (cols - 1));
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  m.barrier();

  // Algorithms on views: fill a sub-matrix, sum a column, find in a block, transform one view into another.
  dash::fill(inner.begin(), inner.end(), -1);
  m.barrier();
  bool filled = true;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const bool inside = i >= 1 && i < rows - 1 && j >= 1;
      filled = filled && static_cast<int>(m(i, j)) == (inside ? -1 : static_cast<int>(i * 100 + j));
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(filled));
  m.barrier();
  const long column_sum = dash::accumulate(column.begin(), column.end(), 0L);
  long expected_sum = static_cast<long>((rows - 1) * 100 + cols - 1) + static_cast<long>(cols - 1);  // rows 0 and rows-1
  expected_sum += -1L * static_cast<long>(rows - 2);
  EXPECT_EQ(column_sum, expected_sum);
  const auto first_row = m.sub(dash::ViewSpec<2>{{0, 0}, {1, cols}});
  const auto last_row = m.sub(dash::ViewSpec<2>{{rows - 1, 0}, {1, cols}});
  dash::transform(first_row.begin(), first_row.end(), last_row.begin(), [](int v) { return v + 1; });
  m.barrier();
  bool copied = true;
  for (std::size_t j = 0; j < cols; ++j) {
    copied = copied && static_cast<int>(m(rows - 1, j)) == static_cast<int>(j) + 1;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(copied));
  const auto found = dash::find(inner.begin(), inner.end(), 0);
  EXPECT_EQ(found, inner.end());
  m.barrier();
  EXPECT_THROW(static_cast<void>(m.sub(dash::ViewSpec<2>{{1, 1}, {rows, 1}})), dash::OutOfRange);
  EXPECT_THROW(static_cast<void>(column(rows, 0)), dash::OutOfRange);
  m.barrier();
}

TEST(Matrix, Errors) {
  dash::Matrix<int, 2> m(dash::SizeSpec<2>(3, 3));
  EXPECT_THROW(static_cast<void>(m.at(3, 0)), dash::OutOfRange);
  EXPECT_THROW(static_cast<void>(m.at(0, 3)), dash::OutOfRange);
  const auto too_many_units = [] {
    dash::Matrix<int, 2> wrong(dash::SizeSpec<2>(3, 3), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                               Team::All(), dash::TeamSpec<2>(static_cast<std::size_t>(P()) + 1, 1));
  };
  EXPECT_THROW(too_many_units(), dash::InvalidArgument);
  m.barrier();
}

}  // namespace
