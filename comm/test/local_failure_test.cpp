// A collective that fails a local argument check on some members (a buffer of the wrong size, a
// root out of range) throws on every member instead of leaving the others waiting, in builds with
// DASH_CROSS_RANK_CHECKS (include/dash/comm/detail/local_failure_report.hpp). After such an error
// the group's later collectives are not defined, so CTest runs each test in a job of its own.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::testing::mentions;
using dash::testing::thrown_message;
using dash::comm::Group;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

constexpr const char* differing_arguments = "must be the same on every rank";

// The last member passes an output one element short; the library chooses the algorithm (on one
// node: the shared-memory arena).
TEST(LocalFailures, AWrongOutputSizeOnOneMemberFailsTheCallEverywhere) {
  const bool failing = me() == P() - 1;
  std::vector<int> in(1000, me());
  std::vector<int> out(in.size() * static_cast<std::size_t>(P()) - (failing ? 1 : 0));
  const std::string error = thrown_message([&] { dash::comm::allgather(in, out); });
  if (failing) {
    EXPECT_TRUE(mentions(error, "dash::comm::allgather") && mentions(error, "out.size()")) << error;
  } else {
    EXPECT_TRUE(mentions(error, differing_arguments)) << error;
  }
}

// The last member names a root outside the group; the others run a schedule of messages.
TEST(LocalFailures, ARootOutOfRangeOnOneMemberFailsTheCallEverywhere) {
  const bool failing = me() == P() - 1;
  std::vector<double> buffer(64, 1.0);
  dash::comm::Options options;
  options.algorithm = "binomial";
  const std::string error =
      thrown_message([&] { dash::comm::bcast(buffer, failing ? P() : 0, Group::world(), options); });
  if (failing) {
    EXPECT_TRUE(mentions(error, "dash::comm::bcast") && mentions(error, "root")) << error;
  } else {
    EXPECT_TRUE(mentions(error, differing_arguments)) << error;
  }
}

// Every member fails its own check: each reports its own error, none waits for the others.
TEST(LocalFailures, EveryMemberFailingReportsItsOwnError) {
  std::vector<double> in(8, 1.0);
  std::vector<double> out(in.size() + 1);
  const std::string error = thrown_message([&] { dash::comm::allreduce(in, out, dash::plus{}); });
  EXPECT_TRUE(mentions(error, "dash::comm::allreduce") && mentions(error, "out.size()")) << error;
}

}  // namespace
