// NPB CG on dash (bench/npb/cg.hpp) must verify like the reference code: zeta within 1e-10 of NPB's
// value for classes S, W and A (B, too long for CTest, runs in dash-bench's full sweep), on any
// number of units, with and without partial aggregation in the products, on Team::All() and on half
// of it. The matrix must not depend on the number of units, and unknown classes are rejected.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "npb/cg.hpp"

namespace {

namespace npb = dash::bench::npb;

void expect_verified(const npb::CgResult& result, char klass, const dash::Team& team) {
  const npb::CgClass& expected = npb::cg_class(klass);
  EXPECT_EQ(result.klass, klass);
  EXPECT_EQ(result.na, expected.na);
  EXPECT_EQ(result.units, team.size());
  EXPECT_LE(std::abs(result.zeta - expected.zeta_reference), npb::cg_tolerance * expected.zeta_reference)
      << "zeta " << result.zeta << ", reference " << expected.zeta_reference;
  EXPECT_LE(result.error, npb::cg_tolerance);
  EXPECT_TRUE(result.verified);
  // Each of the na random vectors adds at least its diagonal entry; duplicates are summed.
  EXPECT_GE(result.nonzeros, expected.na);
  EXPECT_LE(result.nonzeros, expected.na * static_cast<std::size_t>((expected.nonzer + 1) * (expected.nonzer + 1)));
  EXPECT_TRUE(std::isfinite(result.rnorm));
  EXPECT_GT(result.seconds, 0);
  EXPECT_GT(result.mops, 0);
}

TEST(NpbCg, ClassSVerifies) { expect_verified(npb::run_cg('S', dash::Team::All()), 'S', dash::Team::All()); }

TEST(NpbCg, ClassSVerifiesWithoutPartialAggregation) {
  dash::SparseMatvecOptions options;
  options.partial = false;
  expect_verified(npb::run_cg('S', dash::Team::All(), options), 'S', dash::Team::All());
}

TEST(NpbCg, ClassSVerifiesOnHalfTheUnits) {
  dash::Team& half = dash::Team::All().split(dash::size() >= 2 ? 2 : 1);
  expect_verified(npb::run_cg('S', half), 'S', half);
  half.free();
}

TEST(NpbCg, ClassWVerifies) { expect_verified(npb::run_cg('W', dash::Team::All()), 'W', dash::Team::All()); }

TEST(NpbCg, ClassAVerifies) { expect_verified(npb::run_cg('A', dash::Team::All()), 'A', dash::Team::All()); }

// The matrix does not depend on the number of units: the same entries on a team of one.
TEST(NpbCg, TheMatrixIsTheSameOnOneUnit) {
  dash::Team& alone = dash::Team::All().split(static_cast<int>(dash::size()));
  const npb::CgResult on_one = npb::run_cg('S', alone);
  alone.free();
  const npb::CgResult on_all = npb::run_cg('S', dash::Team::All());
  EXPECT_EQ(on_one.nonzeros, on_all.nonzeros);
  EXPECT_TRUE(on_one.verified);
  // Only the order of the sums differs (seen: 2e-16 relative).
  EXPECT_LE(std::abs(on_one.zeta - on_all.zeta), 1e-12 * on_all.zeta);
}

TEST(NpbCg, UnknownClassesAreRejected) {
  try {
    npb::run_cg('Q', dash::Team::All());
    ADD_FAILURE() << "no exception for class Q";
  } catch (const dash::InvalidArgument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("dash::bench::npb::cg_class"), std::string::npos) << message;
    EXPECT_NE(message.find("'Q'"), std::string::npos) << message;
    EXPECT_NE(message.find("'S', 'W', 'A' or 'B'"), std::string::npos) << message;
  }
}

}  // namespace
