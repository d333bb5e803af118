#include <string>

#include <gtest/gtest.h>

#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>

namespace {

TEST(Check, CheapChecksAreOnByDefaultIncludingReleaseBuilds) {
  // The default DASH_ASSERT_LEVEL is 1 whatever CMAKE_BUILD_TYPE is; CI builds with the default.
  static_assert(dash::check_enabled<dash::CheckLevel::cheap> == (DASH_ASSERT_LEVEL >= 1));
  static_assert(!dash::check_enabled<dash::CheckLevel::off>);
  if constexpr (dash::check_enabled<dash::CheckLevel::cheap>) {
    EXPECT_THROW(dash::assert_that(false, "broken invariant"), dash::AssertionFailure);
  }
  EXPECT_NO_THROW(dash::assert_that(true, "fine"));
}

TEST(Check, FailureMessageCarriesLocationAndText) {
  if constexpr (dash::check_enabled<dash::CheckLevel::cheap>) {
    try {
      dash::assert_that(1 + 1 == 3, "arithmetic is broken");
      FAIL() << "no exception";
    } catch (const dash::AssertionFailure& failure) {
      const std::string what = failure.what();
      EXPECT_NE(what.find("check_test.cpp:"), std::string::npos) << what;
      EXPECT_NE(what.find(": arithmetic is broken"), std::string::npos) << what;
    }
  }
}

TEST(Check, MessageCallableIsEvaluatedOnlyOnFailure) {
  int evaluations = 0;
  auto describe = [&] {
    ++evaluations;
    return std::string("lazy");
  };
  dash::assert_that(true, describe);
  EXPECT_EQ(evaluations, 0);
  if constexpr (dash::check_enabled<dash::CheckLevel::cheap>) {
    EXPECT_THROW(dash::assert_that(false, describe), dash::AssertionFailure);
    EXPECT_EQ(evaluations, 1);
  }
}

TEST(Check, ExpensiveChecksFollowTheCompiledLevel) {
  bool threw = false;
  try {
    dash::assert_that<dash::CheckLevel::expensive>(false, "expensive");
  } catch (const dash::AssertionFailure&) {
    threw = true;
  }
  EXPECT_EQ(threw, DASH_ASSERT_LEVEL >= 2);
}

}  // namespace
