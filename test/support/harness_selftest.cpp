// Deliberately failing tests that check the MPI test main itself; run only through
// harness_selftest.cmake with a gtest filter, never as part of a normal sweep.

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/environment.hpp>

namespace {

// One rank fails without any further communication: every rank must exit non-zero and rank 0
// must name the failing rank.
TEST(HarnessSelfTest, FailsOnLastRankOnly) {
  EXPECT_NE(dash::myid() + 1, static_cast<int>(dash::size())) << "deliberate failure";
}

// Rank 0 fails an ASSERT and leaves the test while the others wait in a collective that rank 0
// never joins: the harness must abort the job instead of hanging.
TEST(HarnessSelfTest, FailureWhileOthersWaitInACollective) {
  ASSERT_NE(dash::myid(), 0) << "deliberate failure";
  MPI_Barrier(dash::comm::base_comm());
}

}  // namespace
