#include <climits>
#include <cstddef>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>

namespace {

TEST(IntCount, DefaultLimitIsIntMax) { EXPECT_EQ(dash::comm::int_count_limit(), INT_MAX); }

TEST(IntCount, ConvertsCountsUpToTheLimit) {
  EXPECT_EQ(dash::comm::to_int_count(0, "f", "n"), 0);
  EXPECT_EQ(dash::comm::to_int_count(std::size_t{INT_MAX}, "f", "n"), INT_MAX);
}

TEST(IntCount, RejectsCountsBeyondIntMax) {
  try {
    dash::comm::to_int_count(std::size_t{INT_MAX} + 1, "dash::comm::bcast", "count");
    FAIL() << "no exception";
  } catch (const dash::OutOfRange& error) {
    EXPECT_STREQ(error.what(),
                 "dash::comm::bcast: argument 'count' = 2147483648 is out of range; expected at "
                 "most 2147483647 (the MPI int count limit)");
  }
}

TEST(IntCount, ScopedLimitShrinksAndRestores) {
  {
    const dash::comm::ScopedIntCountLimit limit(100);
    EXPECT_EQ(dash::comm::int_count_limit(), 100);
    EXPECT_EQ(dash::comm::to_int_count(100, "f", "n"), 100);
    try {
      dash::comm::to_int_count(101, "dash::f", "count");
      FAIL() << "no exception";
    } catch (const dash::OutOfRange& error) {
      EXPECT_STREQ(error.what(),
                   "dash::f: argument 'count' = 101 is out of range; expected at most 100 (the MPI "
                   "int count limit)");
    }
    {
      const dash::comm::ScopedIntCountLimit nested(10);
      EXPECT_THROW(dash::comm::to_int_count(11, "f", "n"), dash::OutOfRange);
    }
    EXPECT_EQ(dash::comm::int_count_limit(), 100);
  }
  EXPECT_EQ(dash::comm::int_count_limit(), INT_MAX);
}

TEST(IntCount, ScopedLimitMustBePositive) {
  EXPECT_THROW(dash::comm::ScopedIntCountLimit(0), dash::InvalidArgument);
  EXPECT_EQ(dash::comm::int_count_limit(), INT_MAX);
}

}  // namespace
