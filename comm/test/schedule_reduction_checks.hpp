#pragma once
// What the reduction generators' tests share (schedule_reductions_test.cpp: reduce-scatter and
// allreduce; schedule_reduce_test.cpp: the oracle table and reduce): shapes, the verifier's run
// and the metrics a schedule must measure, rank-order violations, group sizes and their ranges.
// In an anonymous namespace as in a test source: each test source has its own copy.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using Generator = Schedule (*)(const CollectiveShape&, int);

inline CollectiveShape shape_of(Coll collective, int p, std::uint32_t segments, bool commutative, int root = 0) {
  CollectiveShape shape;
  shape.collective = collective;
  shape.size = p;
  shape.segments = segments;
  shape.root = root;
  shape.op.commutative = commutative;
  return shape;
}

inline VerificationReport run(const CollectiveShape& shape, Generator generator) {
  return verify(shape, [&](int rank) { return generator(shape, rank); });
}

inline std::string where(const CollectiveShape& shape) {
  return "P=" + std::to_string(shape.size) + " root=" + std::to_string(shape.root) +
         " S=" + std::to_string(shape.segments) + (shape.op.commutative ? "" : " non-commutative");
}

// Metrics a schedule must measure; unset fields are not checked.
struct Expected {
  std::optional<std::size_t> rounds;    // most communication rounds of a rank
  std::optional<std::size_t> messages;  // most messages a rank sends
  std::optional<double> blocks;         // most blocks a rank sends
  std::optional<std::size_t> total_messages;
  std::optional<double> total_blocks;
  std::optional<double> startups;  // critical path
  std::optional<double> critical_blocks;
  std::optional<double> reduced;
};

inline void expect_metrics(const CollectiveShape& shape, const VerificationReport& report, const Expected& want) {
  const ScheduleMetrics& got = report.metrics;
  const std::string at = where(shape);
  if (want.rounds) {
    EXPECT_EQ(got.max_communication_rounds, *want.rounds) << at;
  }
  if (want.messages) {
    EXPECT_EQ(got.max_messages_sent, *want.messages) << at;
  }
  if (want.blocks) {
    EXPECT_EQ(static_cast<double>(got.max_blocks_sent), *want.blocks) << at;
  }
  if (want.total_messages) {
    EXPECT_EQ(got.total_messages, *want.total_messages) << at;
  }
  if (want.total_blocks) {
    EXPECT_EQ(static_cast<double>(got.total_blocks_sent), *want.total_blocks) << at;
  }
  if (want.startups) {
    EXPECT_EQ(got.critical_startups, *want.startups) << at;
  }
  if (want.critical_blocks) {
    EXPECT_EQ(got.critical_blocks, *want.critical_blocks) << at;
  }
  if (want.reduced) {
    EXPECT_EQ(got.critical_reduced_blocks, *want.reduced) << at;
  }
}

// Verifies and returns the metrics; fails the test with the verifier's error otherwise.
inline VerificationReport verified(const CollectiveShape& shape, Generator generator) {
  VerificationReport report = run(shape, generator);
  EXPECT_TRUE(report.ok) << where(shape) << ": " << report.error;
  return report;
}

inline void expect_rank_order_violation(const CollectiveShape& shape, Generator generator) {
  const VerificationReport report = run(shape, generator);
  EXPECT_FALSE(report.ok) << where(shape);
  EXPECT_NE(report.error.find("breaks rank order"), std::string::npos)
      << where(shape) << ": " << report.error;
}

struct Group {
  double p;
  double p2;  // p'
  double r;
  double lg;  // lg p'
  bool power_of_two;
  explicit Group(int size)
      : p(size),
        p2(floor_pow2(static_cast<std::uint32_t>(size))),
        r(p - p2),
        lg(floor_log2(static_cast<std::uint32_t>(size))),
        power_of_two(r == 0) {}
  std::size_t count(double x) const { return static_cast<std::size_t>(x); }
};

constexpr std::uint32_t small_segments[] = {0, 1, 3};

// The operations to verify an order-keeping generator with. A schedule the verifier accepts for a
// non-commutative operation it also accepts for a commutative one (its commutative rules are
// strictly weaker; schedules and metrics do not depend on the operation), so beyond 64 ranks only
// the non-commutative run is made.
inline std::vector<bool> commutativity_for(int p) {
  return p <= 64 ? std::vector<bool>{true, false} : std::vector<bool>{false};
}

// Ranges of group sizes of about equal verification cost for generators with p(p-1) messages,
// each its own test so that none runs long.
struct GroupSizes {
  int first;
  int last;
};

inline std::string range_name(const ::testing::TestParamInfo<GroupSizes>& info) {
  return "P" + std::to_string(info.param.first) + "to" + std::to_string(info.param.last);
}

const auto quadratic_ranges =
    ::testing::Values(GroupSizes{1, 141}, GroupSizes{142, 178}, GroupSizes{179, 203}, GroupSizes{204, 224},
                      GroupSizes{225, 241}, GroupSizes{242, 256});


}  // namespace
