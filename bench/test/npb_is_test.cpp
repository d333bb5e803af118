// NPB IS on dash (bench/npb/is.hpp) must verify like the reference code: all 5 test-key ranks in
// each of the 10 iterations and the full check of the sorted keys, on any number of units, with
// dash::sort stable or not, on Team::All() and on half of it. Also the generator against NPB's
// randlc (the jump must agree with stepping) and the class table's errors.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "npb/is.hpp"

namespace {

namespace npb = dash::bench::npb;

void expect_verified(const npb::IsResult& result, char klass) {
  EXPECT_EQ(result.klass, klass);
  EXPECT_EQ(result.total_keys, npb::is_class(klass).total_keys);
  EXPECT_EQ(result.partial_checks_passed, static_cast<int>(npb::is_test_keys) * npb::is_iterations);
  EXPECT_TRUE(result.fully_verified);
  EXPECT_TRUE(result.verified);
  EXPECT_GT(result.seconds, 0);
  EXPECT_GT(result.mops, 0);
}

TEST(NpbIs, ClassSVerifies) {
  const npb::IsResult result = npb::run_is('S', dash::Team::All());
  expect_verified(result, 'S');
  EXPECT_EQ(result.units, dash::size());
}

TEST(NpbIs, ClassSVerifiesWithAStableSortWithoutPartialMerging) {
  dash::SortOptions options;
  options.stable = true;
  options.partial_merge = false;
  expect_verified(npb::run_is('S', dash::Team::All(), options), 'S');
}

TEST(NpbIs, ClassSVerifiesOnHalfTheUnits) {
  dash::Team& half = dash::Team::All().split(dash::size() >= 2 ? 2 : 1);
  const npb::IsResult result = npb::run_is('S', half);
  expect_verified(result, 'S');
  EXPECT_EQ(result.units, half.size());
  half.free();
}

TEST(NpbIs, ClassWVerifies) { expect_verified(npb::run_is('W', dash::Team::All()), 'W'); }

// The jump to a position equals stepping there one randlc step at a time, and the keys stay in range.
TEST(NpbIs, GeneratorJumpsAgreeWithStepping) {
  const int max_key = npb::is_class('S').max_key;
  std::uint64_t stepped = npb::randlc_seed;
  for (std::uint64_t key = 0; key < 1000; ++key) {
    ASSERT_EQ(stepped, npb::randlc_jump(npb::randlc_seed, 4 * key)) << "key " << key;
    const int value = npb::next_key(stepped, max_key);
    ASSERT_GE(value, 0);
    ASSERT_LT(value, max_key);
  }
  EXPECT_EQ(npb::randlc_jump(npb::randlc_seed, 0), npb::randlc_seed);
  // One step: a x mod 2^46.
  EXPECT_EQ(npb::randlc_jump(npb::randlc_seed, 1),
            (npb::randlc_multiplier * npb::randlc_seed) % (std::uint64_t{1} << 46));
}

TEST(NpbIs, UnknownClassesAreRejected) {
  try {
    npb::run_is('Q', dash::Team::All());
    ADD_FAILURE() << "no exception for class Q";
  } catch (const dash::InvalidArgument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'Q'"), std::string::npos) << message;
    EXPECT_NE(message.find("'S', 'W', 'A' or 'B'"), std::string::npos) << message;
  }
}

}  // namespace
