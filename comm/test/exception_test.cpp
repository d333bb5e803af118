#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace {

TEST(Exceptions, InvalidArgumentNamesFunctionArgumentValueAndExpectation) {
  const dash::InvalidArgument error = dash::invalid_argument("dash::f", "root", 7, "a rank in [0, 4)");
  EXPECT_STREQ(error.what(), "dash::f: invalid argument 'root' = 7; expected a rank in [0, 4)");
}

TEST(Exceptions, StringValuesAreQuoted) {
  const dash::InvalidArgument error = dash::invalid_argument("dash::g", "mode", "loud", "quiet");
  EXPECT_STREQ(error.what(), "dash::g: invalid argument 'mode' = 'loud'; expected quiet");
}

TEST(Exceptions, OutOfRangeMessage) {
  const dash::OutOfRange error = dash::out_of_range("dash::Array::at", "index", 10u, "less than 10");
  EXPECT_STREQ(error.what(),
               "dash::Array::at: argument 'index' = 10 is out of range; expected less than 10");
}

TEST(Exceptions, HierarchyDerivesFromDashException) {
  EXPECT_THROW(throw dash::InvalidArgument("x"), dash::Exception);
  EXPECT_THROW(throw dash::OutOfRange("x"), dash::Exception);
  EXPECT_THROW(throw dash::InvalidState("x"), dash::Exception);
  EXPECT_THROW(throw dash::BadAlloc("x"), dash::Exception);
  EXPECT_THROW(throw dash::AssertionFailure("x"), dash::Exception);
  EXPECT_THROW(throw dash::MpiError("MPI_Send", 1, 1, "bad"), dash::Exception);
}

// check_mpi's failure path needs MPI_Error_string, which MPI allows only after MPI_Init; the
// MPI tests provoke a real failing call.
TEST(Exceptions, CheckMpiPassesOnSuccess) { EXPECT_NO_THROW(dash::comm::check_mpi(MPI_SUCCESS, "MPI_Send")); }

}  // namespace
