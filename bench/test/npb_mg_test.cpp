// NPB MG on dash (bench/npb/mg.hpp) must verify like the reference code: rnm2 within 1e-8 of NPB's
// value for classes S and W, at every power-of-two unit count up to 8; other counts (np 3 here) and
// classes are refused on every unit alike.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "npb/mg.hpp"

namespace {

namespace npb = dash::bench::npb;

bool power_of_two_up_to_8(std::size_t units) { return (units & (units - 1)) == 0 && units <= 8; }

void expect_verified(char klass) {
  if (!power_of_two_up_to_8(dash::size())) {
    EXPECT_THROW(npb::run_mg(klass, dash::Team::All()), dash::InvalidArgument);
    return;
  }
  const npb::MgResult result = npb::run_mg(klass, dash::Team::All());
  EXPECT_EQ(result.klass, klass);
  EXPECT_EQ(result.n, npb::mg_class(klass).n);
  EXPECT_EQ(result.units, dash::size());
  EXPECT_TRUE(result.verified) << "class " << klass << ": rnm2 = " << result.rnm2 << ", NPB: "
                               << npb::mg_class(klass).verify_value;
  EXPECT_GT(result.seconds, 0);
  EXPECT_GT(result.mops, 0);
}

TEST(NpbMg, ClassSVerifies) { expect_verified('S'); }

TEST(NpbMg, ClassWVerifies) { expect_verified('W'); }

TEST(NpbMg, RefusesUnknownClassesAndUnitCounts) {
  EXPECT_THROW(npb::mg_class('X'), dash::InvalidArgument);
  EXPECT_THROW(npb::run_mg('Q', dash::Team::All()), dash::InvalidArgument);
  EXPECT_TRUE(power_of_two_up_to_8(1) && power_of_two_up_to_8(8) && !power_of_two_up_to_8(3) &&
              !power_of_two_up_to_8(16));
}

}  // namespace
