#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/uniform_check.hpp>

#include "dash_testing.hpp"

namespace {

TEST(UniformCheck, EqualValuesPass) {
  EXPECT_NO_THROW(dash::comm::check_uniform(42, "dash::test", "count", dash::comm::base_comm()));
  const double root_and_scale[2] = {0.0, 1.5};
  EXPECT_NO_THROW(
      dash::comm::check_uniform(root_and_scale, "dash::test", "pair", dash::comm::base_comm()));
}

TEST(UniformCheck, DifferingValuesThrowOnEveryRank) {
  if (dash::size() < 2) {
    // One rank always agrees with itself.
    EXPECT_NO_THROW(dash::comm::check_uniform(dash::myid(), "dash::test", "root", dash::comm::base_comm()));
    return;
  }
  const int value = dash::myid() == 1 ? 7 : 3;
  try {
    dash::comm::check_uniform(value, "dash::comm::bcast", "root", dash::comm::base_comm());
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::bcast: argument 'root' must be the same on every rank, but the ranks "
              "passed different values (rank " + std::to_string(dash::myid()) + " passed " +
                  std::to_string(value) + ")");
  }
}

TEST(UniformCheck, GatedVariantFollowsTheBuildOption) {
  if (dash::size() < 2) {
    return;
  }
  bool threw = false;
  try {
    dash::comm::check_uniform_if_enabled(dash::myid(), "dash::test", "rank", dash::comm::base_comm());
  } catch (const dash::InvalidArgument&) {
    threw = true;
  }
  EXPECT_EQ(threw, dash::comm::cross_rank_checks_enabled);
}

// Ring shift of `n` doubles using MessageCount; returns the received values.
std::vector<double> ring_shift(std::size_t n, bool& derived) {
  const int rank = dash::myid();
  const int size = static_cast<int>(dash::size());
  std::vector<double> send(n);
  std::iota(send.begin(), send.end(), 1000.0 * rank);
  std::vector<double> receive(n, -1.0);
  const dash::comm::MessageCount count(n, MPI_DOUBLE, "dash::test::ring_shift");
  derived = count.is_derived();
  dash::comm::check_mpi(MPI_Sendrecv(send.data(), count.count(), count.type(), (rank + 1) % size, 0,
                                     receive.data(), count.count(), count.type(),
                                     (rank + size - 1) % size, 0, dash::comm::base_comm(),
                                     MPI_STATUS_IGNORE),
                        "MPI_Sendrecv");
  return receive;
}

void expect_from_left_neighbour(const std::vector<double>& received) {
  const int size = static_cast<int>(dash::size());
  const int left = (dash::myid() + size - 1) % size;
  for (std::size_t i = 0; i < received.size(); ++i) {
    ASSERT_EQ(received[i], 1000.0 * left + static_cast<double>(i)) << "element " << i;
  }
}

TEST(MessageCount, SmallCountsUseTheBaseType) {
  bool derived = true;
  const std::vector<double> received = ring_shift(100, derived);
  EXPECT_FALSE(derived);
  expect_from_left_neighbour(received);
}

TEST(MessageCount, CountsBeyondTheLimitTravelAsDerivedTypes) {
  const dash::comm::ScopedIntCountLimit limit(64);
  for (const std::size_t n : {std::size_t{64}, std::size_t{65}, std::size_t{128}, std::size_t{1000}, std::size_t{64 * 64}}) {
    bool derived = false;
    const std::vector<double> received = ring_shift(n, derived);
    EXPECT_EQ(derived, n > 64) << n;
    expect_from_left_neighbour(received);
  }
}

TEST(MessageCount, RejectsCountsBeyondLimitSquared) {
  const dash::comm::ScopedIntCountLimit limit(8);
  try {
    dash::comm::MessageCount count(65, MPI_DOUBLE, "dash::test");
    FAIL() << "no exception";
  } catch (const dash::OutOfRange& error) {
    EXPECT_STREQ(error.what(),
                 "dash::test: argument 'count' = 65 is out of range; expected at most 8 * 8 "
                 "elements in one message");
  }
}

}  // namespace
