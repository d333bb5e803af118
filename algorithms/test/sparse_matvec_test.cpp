// dash::sparse_matvec and dash::CsrMatrix: y = A x against a serial product of the whole matrix, for
// random sparse matrices with empty rows, repeated and unsorted columns, sizes that P does not
// divide, units without rows or without columns, a matrix without entries, with and without partial
// aggregation, on Team::All() and on half of it, with 32- and 64-bit column indices; and the errors
// of sizes, layouts, teams and rows that do not fit.
//
// Map: GlobalCsr and random_matrix (the whole matrix on every unit), shared_seed, local_rows and
// distribute (a unit's CsrMatrix); check_product and check_products (y against the serial product);
// the product tests (all units, half of them, 64-bit indices, repeated products); expect_error and
// the error tests (arrays that do not fit, rows wrong on one unit, column blocks too wide).

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/algorithms/sparse_matvec.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::Team;

std::size_t P() { return dash::size(); }

// A whole matrix in CSR form, the same on every unit.
struct GlobalCsr {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::size_t> offsets{0};
  std::vector<std::size_t> columns;
  std::vector<double> values;
};

// Up to 2 * mean_entries entries per row, at random columns (unsorted, possibly repeated); every
// seventh row is empty, and so are all rows when mean_entries is 0.
GlobalCsr random_matrix(std::size_t rows, std::size_t cols, std::size_t mean_entries, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  GlobalCsr a;
  a.rows = rows;
  a.cols = cols;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t entries =
        i % 7 == 3 || cols == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, 2 * mean_entries)(random);
    for (std::size_t e = 0; e < entries; ++e) {
      a.columns.push_back(std::uniform_int_distribution<std::size_t>(0, cols - 1)(random));
      a.values.push_back(value(random));
    }
    a.offsets.push_back(a.columns.size());
  }
  return a;
}

double x_at(std::size_t j) { return 1.0 + static_cast<double>(j % 13) * 0.25; }

// One seed for all ranks (rank 0's), since every unit must see the same matrix.
std::uint64_t shared_seed(const Team& team) {
  std::array<std::uint64_t, 1> seed{dash::testing::seed()};
  dash::comm::bcast(seed, 0, team.group());
  return seed[0];
}

// The caller's rows of `a` as the CsrMatrix constructor takes them.
struct LocalRows {
  std::vector<std::size_t> offsets{0};
  std::vector<std::size_t> columns;
  std::vector<double> values;
};

LocalRows local_rows(const GlobalCsr& a, const Team& team) {
  const dash::Pattern<1> rows(a.rows, dash::BLOCKED, team.size());
  const auto me = static_cast<std::size_t>(team.myid());
  LocalRows mine;
  for (std::size_t r = 0; r < rows.local_size(me); ++r) {
    const std::size_t i = rows.global_index(me, r);
    for (std::size_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e) {
      mine.columns.push_back(a.columns[e]);
      mine.values.push_back(a.values[e]);
    }
    mine.offsets.push_back(mine.columns.size());
  }
  return mine;
}

template <class Index = std::uint32_t>
dash::CsrMatrix<double, Index> distribute(const GlobalCsr& a, Team& team) {
  const LocalRows mine = local_rows(a, team);
  return dash::CsrMatrix<double, Index>(a.rows, a.cols, mine.offsets, mine.columns, mine.values, team);
}

// Every unit's y, gathered, is the serial product within rounding.
template <class Index = std::uint32_t>
void check_product(std::size_t rows, std::size_t cols, std::size_t mean_entries, bool partial, Team& team) {
  const std::uint64_t seed = shared_seed(team);
  SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols) + ", about " + std::to_string(mean_entries) +
               " entries a row, " + (partial ? "partial" : "blocking") + ", seed " + std::to_string(seed) + ", " +
               std::to_string(team.size()) + " units, " + std::to_string(8 * sizeof(Index)) + "-bit columns");
  const GlobalCsr a = random_matrix(rows, cols, mean_entries, seed);
  const dash::CsrMatrix<double, Index> A = distribute<Index>(a, team);
  EXPECT_EQ(A.rows(), rows);
  EXPECT_EQ(A.cols(), cols);
  EXPECT_EQ(A.local_rows(), A.row_pattern().local_size(static_cast<std::size_t>(team.myid())));
  const LocalRows mine = local_rows(a, team);
  EXPECT_EQ(A.local_nonzeros(), mine.values.size());

  dash::Array<double> x(cols, dash::BLOCKED, team);
  dash::Array<double> y(rows, dash::BLOCKED, team);
  for (std::size_t k = 0; k < x.lsize(); ++k) {
    x.local[k] = x_at(x.pattern().global_index(static_cast<std::size_t>(team.myid()), k));
  }
  for (std::size_t k = 0; k < y.lsize(); ++k) {
    y.local[k] = std::nan("");  // the product must overwrite it
  }
  dash::SparseMatvecOptions options;
  options.partial = partial;
  dash::sparse_matvec(A, x, y, options);
  y.barrier();

  std::vector<double> result(rows);
  dash::copy(y.begin(), y.end(), result.data());
  bool ok = true;
  for (std::size_t i = 0; i < rows; ++i) {
    double expected = 0;
    double magnitude = 0;
    for (std::size_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e) {
      expected += a.values[e] * x_at(a.columns[e]);
      magnitude += std::abs(a.values[e] * x_at(a.columns[e]));
    }
    const double tolerance = 4 * std::numeric_limits<double>::epsilon() *
                             static_cast<double>(a.offsets[i + 1] - a.offsets[i] + 1) * magnitude;
    if (!(std::abs(result[i] - expected) <= tolerance)) {
      ADD_FAILURE() << "row " << i << ": " << result[i] << ", expected " << expected;
      ok = false;
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  y.barrier();
}

// The sizes follow the job's P, not the team's, so that both halves of a split team run the same
// sequence of checks (each ends in an agreement over all ranks).
void check_products(Team& team) {
  const std::size_t p = P();
  for (const bool partial : {true, false}) {
    check_product(1, 1, 1, partial, team);
    check_product(p + 1, 2 * p + 3, 3, partial, team);
    check_product(97, 61, 5, partial, team);
    check_product(40, 300, 30, partial, team);
    check_product(200, 200, 0, partial, team);  // no entries at all
    check_product(3 * p + 2, 3 * p + 2, 4, partial, team);
    if (p > 1) {
      check_product(p - 1, 5 * p, 4, partial, team);  // a unit without rows
      check_product(4 * p, p - 1, 2, partial, team);  // a unit without columns
    }
  }
}

TEST(SparseMatvec, MatchesTheSerialProduct) { check_products(Team::All()); }

TEST(SparseMatvec, MatchesTheSerialProductOnHalfTheUnits) {
  Team& half = Team::All().split(P() >= 2 ? 2 : 1);
  check_products(half);
  half.free();
}

TEST(SparseMatvec, SixtyFourBitColumnIndices) {
  check_product<std::uint64_t>(97, 61, 5, true, Team::All());
  check_product<std::uint64_t>(50, 500, 20, false, Team::All());
}

// y = A (A x) with the matrix used twice and x and y changing roles.
TEST(SparseMatvec, RepeatedProductsWithTheSameMatrix) {
  const std::size_t n = 5 * P() + 3;
  const GlobalCsr a = random_matrix(n, n, 4, shared_seed(Team::All()));
  const dash::CsrMatrix<double> A = distribute(a, Team::All());
  dash::Array<double> x(n);
  dash::Array<double> y(n);
  for (std::size_t k = 0; k < x.lsize(); ++k) {
    x.local[k] = x_at(x.pattern().global_index(static_cast<std::size_t>(dash::myid()), k));
  }
  dash::sparse_matvec(A, x, y);
  dash::sparse_matvec(A, y, x);
  x.barrier();
  std::vector<double> result(n);
  dash::copy(x.begin(), x.end(), result.data());
  std::vector<double> once(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e) {
      once[i] += a.values[e] * x_at(a.columns[e]);
    }
  }
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    double twice = 0;
    double magnitude = 0;
    for (std::size_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e) {
      twice += a.values[e] * once[a.columns[e]];
      magnitude += std::abs(a.values[e] * once[a.columns[e]]);
    }
    ok = ok && std::abs(result[i] - twice) <= 1e-13 * (1.0 + magnitude);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  x.barrier();
}

// Runs `f`, expecting an exception of type E whose message holds every one of `parts`.
template <class E, class F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E& error) {
    const std::string message = error.what();
    for (const std::string& part : parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    }
  }
}

TEST(SparseMatvec, RejectsArraysThatDoNotFit) {
  const std::size_t p = P();
  // 2P + 1 elements: BLOCKED and CYCLIC place them differently for every P > 1.
  const std::size_t n = 2 * p + 1;
  const dash::CsrMatrix<double> A = distribute(random_matrix(n, n, 2, shared_seed(Team::All())), Team::All());
  dash::Array<double> x(n);
  dash::Array<double> y(n);
  dash::Array<double> short_x(n - 1);
  dash::Array<double> long_y(n + 1);
  expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, short_x, y); },
                                      {"dash::sparse_matvec", "x has " + std::to_string(n - 1)});
  expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, x, long_y); },
                                      {"dash::sparse_matvec", "y " + std::to_string(n + 1)});
  expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, x, x); }, {"different arrays"});
  if (p > 1) {
    dash::Array<double> cyclic_x(n, dash::CYCLIC);
    dash::Array<double> cyclic_y(n, dash::CYCLIC);
    expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, cyclic_x, y); }, {"x must be", "CYCLIC"});
    expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, x, cyclic_y); }, {"y must", "CYCLIC"});
  }
  {
    // x and y on half of the team: on every unit a team other than A's.
    Team& half = Team::All().split(p >= 2 ? 2 : 1);
    if (p >= 2) {
      dash::Array<double> half_x(n, dash::BLOCKED, half);
      dash::Array<double> half_y(n, dash::BLOCKED, half);
      expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, half_x, y); }, {"A's team"});
      expect_error<dash::InvalidArgument>([&] { dash::sparse_matvec(A, x, half_y); }, {"A's team"});
    }
    half.free();
  }
  // The matrix still works after the rejected calls.
  dash::sparse_matvec(A, x, y);
  y.barrier();
}

// A matrix whose local rows are wrong on the last unit only: every unit throws, naming that unit.
TEST(SparseMatvec, RejectsRowsThatAreWrongOnOneUnit) {
  const std::size_t p = P();
  const std::size_t n = 3 * p;  // three rows on every unit
  const GlobalCsr a = random_matrix(n, n, 3, shared_seed(Team::All()));
  const bool last = dash::myid() == static_cast<int>(p - 1);
  const std::string last_unit = "unit " + std::to_string(p - 1) + "'s rows are invalid";
  const LocalRows mine = local_rows(a, Team::All());
  const auto construct = [n](const LocalRows& rows, std::size_t cols) {
    static_cast<void>(dash::CsrMatrix<double>(n, cols, rows.offsets, rows.columns, rows.values));
  };

  LocalRows short_offsets = mine;
  if (last) {
    short_offsets.offsets.pop_back();
    short_offsets.columns.resize(short_offsets.offsets.back());
    short_offsets.values.resize(short_offsets.offsets.back());
  }
  expect_error<dash::InvalidArgument>(
      [&] { construct(short_offsets, n); },
      {"dash::CsrMatrix", last_unit, "row_offsets has 3 entries", "expected local rows + 1 = 4"});

  LocalRows far_column = mine;
  if (last) {
    far_column.offsets.back() += 1;
    far_column.columns.push_back(n);
    far_column.values.push_back(1.0);
  }
  expect_error<dash::InvalidArgument>([&] { construct(far_column, n); },
                                      {last_unit, "] = " + std::to_string(n), "below cols = " + std::to_string(n)});

  LocalRows decreasing = mine;
  if (last) {
    decreasing.offsets[1] = decreasing.offsets.back() + 1;
  }
  expect_error<dash::InvalidArgument>([&] { construct(decreasing, n); }, {last_unit, "decreases at local row 1"});

  LocalRows extra_value = mine;
  if (last) {
    extra_value.values.push_back(2.0);
  }
  expect_error<dash::InvalidArgument>([&] { construct(extra_value, n); }, {last_unit, "row_offsets.back()"});

  // Sizes that differ between units, checked before any unit's rows.
  if (p > 1) {
    expect_error<dash::InvalidArgument>([&] { construct(mine, last ? n + 1 : n); },
                                        {"dash::CsrMatrix", "the same on every unit", "unit " + std::to_string(p - 1)});
  }
  // And correct rows are still taken.
  EXPECT_EQ(dash::CsrMatrix<double>(n, n, mine.offsets, mine.columns, mine.values).local_nonzeros(),
            mine.values.size());
}

TEST(SparseMatvec, RejectsColumnBlocksTheIndexTypeCannotHold) {
  const std::size_t cols = 300 * P();  // 300 columns per unit, more than 8 bits count
  const GlobalCsr a = random_matrix(4, cols, 2, shared_seed(Team::All()));
  expect_error<dash::OutOfRange>([&] { distribute<std::uint8_t>(a, Team::All()); },
                                 {"dash::CsrMatrix", "'cols' = " + std::to_string(cols), "at most 255"});
  const dash::CsrMatrix<double> A = distribute(a, Team::All());
  expect_error<dash::OutOfRange>([&] { static_cast<void>(A.column_block(P())); },
                                 {"dash::CsrMatrix::column_block", "'owner' = " + std::to_string(P())});
}

}  // namespace
