// Reduction generators (reduce-scatter, allreduce, reduce), run through the verifier for every
// group size up to 256 and sampled larger ones, with commutative and non-commutative operations,
// and their measured costs compared with Rabenseifner 2004's closed forms (critical path in
// start-ups, blocks and combined blocks; n = S blocks is the vector, p' = 2^⌊lg p⌋, r = p - p').
//
// Map: shape, run and metric helpers (Expected, expect_metrics, rank-order violations), Group and
// the group-size ranges; then reduce-scatter (ring, pairwise, recursive halving, empty rounds, large
// groups), allreduce (recursive doubling, Rabenseifner, binary blocks, ring, pairwise ring, large
// groups), the oracle table of all three, and reduce (binomial, k-nomial, Rabenseifner, large groups).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using Generator = Schedule (*)(const CollectiveShape&, int);

CollectiveShape shape_of(Coll collective, int p, std::uint32_t segments, bool commutative, int root = 0) {
  CollectiveShape shape;
  shape.collective = collective;
  shape.size = p;
  shape.segments = segments;
  shape.root = root;
  shape.op.commutative = commutative;
  return shape;
}

VerificationReport run(const CollectiveShape& shape, Generator generator) {
  return verify(shape, [&](int rank) { return generator(shape, rank); });
}

std::string where(const CollectiveShape& shape) {
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

void expect_metrics(const CollectiveShape& shape, const VerificationReport& report, const Expected& want) {
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
VerificationReport verified(const CollectiveShape& shape, Generator generator) {
  VerificationReport report = run(shape, generator);
  EXPECT_TRUE(report.ok) << where(shape) << ": " << report.error;
  return report;
}

void expect_rank_order_violation(const CollectiveShape& shape, Generator generator) {
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
std::vector<bool> commutativity_for(int p) {
  return p <= 64 ? std::vector<bool>{true, false} : std::vector<bool>{false};
}

// Ranges of group sizes of about equal verification cost for generators with p(p-1) messages,
// each its own test so that none runs long.
struct GroupSizes {
  int first;
  int last;
};

std::string range_name(const ::testing::TestParamInfo<GroupSizes>& info) {
  return "P" + std::to_string(info.param.first) + "to" + std::to_string(info.param.last);
}

const auto quadratic_ranges =
    ::testing::Values(GroupSizes{1, 141}, GroupSizes{142, 178}, GroupSizes{179, 203}, GroupSizes{204, 224},
                      GroupSizes{225, 241}, GroupSizes{242, 256});

// ---------------------------------------------------------------------------------------------
// Reduce-scatter

Expected reduce_scatter_linear_costs(int size, double s, bool pairwise) {
  const Group g(size);
  const double steps = s == 0 ? 0 : g.p - 1;
  Expected want;
  want.rounds = want.messages = g.count(steps);
  want.blocks = (g.p - 1) * s;
  want.total_messages = g.count(g.p * steps);
  want.total_blocks = g.p * (g.p - 1) * s;
  want.startups = steps;
  want.critical_blocks = (g.p - 1) * s;
  // Pairwise: the scratch sum of the higher ranks starts with a plain receive and is appended by
  // one extra local combination, which the critical path sees for p >= 3.
  want.reduced = (pairwise && size >= 3 ? g.p : g.p - 1) * s;
  return want;
}

class ReduceScatterRing : public ::testing::TestWithParam<GroupSizes> {};

TEST_P(ReduceScatterRing, IsCorrectWithPMinusOneStepsAndCommutativeOnly) {
  for (int p = GetParam().first; p <= GetParam().last; ++p) {
    for (const std::uint32_t s : small_segments) {
      const CollectiveShape shape = shape_of(Coll::reduce_scatter, p, s, true);
      expect_metrics(shape, verified(shape, reduce_scatter_ring), reduce_scatter_linear_costs(p, s, false));
    }
    if (p >= 2) {
      expect_rank_order_violation(shape_of(Coll::reduce_scatter, p, 1, false), reduce_scatter_ring);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ScheduleReduceScatter, ReduceScatterRing, quadratic_ranges, range_name);

class ReduceScatterPairwise : public ::testing::TestWithParam<GroupSizes> {};

TEST_P(ReduceScatterPairwise, KeepsRankOrderWithPMinusOneSteps) {
  for (int p = GetParam().first; p <= GetParam().last; ++p) {
    for (const std::uint32_t s : small_segments) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::reduce_scatter, p, s, commutative);
        expect_metrics(shape, verified(shape, reduce_scatter_pairwise),
                       reduce_scatter_linear_costs(p, s, true));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ScheduleReduceScatter, ReduceScatterPairwise, quadratic_ranges, range_name);

// Rabenseifner 2004 §3.5's halving over the p·S-block vector. p = p': lg p steps, (p-1)S blocks
// sent and combined along the critical path. Otherwise, along the critical path: the pre-step moves
// pS blocks and combines the larger half, (p'/2 + ⌈r/2⌉)S; the halving step at distance m moves and
// combines the chunks of p'/2m survivors, ⌈r/2m⌉ of them paired (two chunks); the last message
// carries S. The survivors' paths meet after each step, so the steps' maxima add up.
Expected recursive_halving_costs(int size, double s) {
  const Group g(size);
  Expected want;
  if (g.power_of_two) {
    const double steps = s == 0 ? 0 : g.lg;
    want.rounds = want.messages = g.count(steps);
    want.blocks = (g.p - 1) * s;
    want.total_messages = g.count(g.p * steps);
    want.total_blocks = g.p * (g.p - 1) * s;
    want.startups = steps;
    want.critical_blocks = want.reduced = (g.p - 1) * s;
    return want;
  }
  double paired_chunks = 0;  // Σ over distances m of ⌈r / 2m⌉
  for (double m = 1; m < g.p2; m *= 2) {
    paired_chunks += static_cast<double>(static_cast<int>((g.r + 2 * m - 1) / (2 * m)));
  }
  const double half = g.p2 / 2 + static_cast<double>(static_cast<int>((g.r + 1) / 2));
  const bool any = s > 0;
  want.rounds = g.count(any ? g.lg + 3 : 0);
  want.messages = g.count(any ? g.lg + 2 : 0);
  want.total_messages = g.count(any ? g.p2 * g.lg + 4 * g.r : 0);
  want.startups = any ? g.lg + 3 : 0;
  want.critical_blocks = (g.p + g.p2 + paired_chunks) * s;
  want.reduced = (half + g.p2 - 1 + paired_chunks) * s;
  return want;
}

TEST(ScheduleRounds, DroppingEmptyRoundsKeepsTheirFences) {
  // A fenced round that ends up empty for this rank still separates what comes before it from
  // what comes after: its fence moves to the next round kept, and only there.
  Schedule schedule;
  detail::add_send(schedule.add_round(), 1, Buffer::input, BlockSet::range(0, 1));
  schedule.add_round().fence = true;
  schedule.add_round();
  detail::add_send(schedule.add_round(), 1, Buffer::input, BlockSet::range(1, 1));
  detail::add_send(schedule.add_round(), 1, Buffer::input, BlockSet::range(2, 1));
  const Schedule kept = detail::without_empty_rounds(schedule);
  ASSERT_EQ(kept.rounds.size(), 3u);
  EXPECT_FALSE(kept.rounds[0].fence);
  EXPECT_TRUE(kept.rounds[1].fence);
  EXPECT_FALSE(kept.rounds[2].fence);
}

TEST(ScheduleReduceScatter, RecursiveHalvingKeepsRankOrderForAnyGroupSize) {
  for (int p = 1; p <= 256; ++p) {
    for (const std::uint32_t s : small_segments) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::reduce_scatter, p, s, commutative);
        expect_metrics(shape, verified(shape, reduce_scatter_recursive_halving),
                       recursive_halving_costs(p, s));
      }
    }
  }
}

TEST(ScheduleReduceScatter, LargeGroups) {
  // The pairwise exchange is left out: its p(p-1) distinct channels make the verifier slow here.
  for (const int p : {257, 1000, 1024, 2047}) {
    const CollectiveShape shape = shape_of(Coll::reduce_scatter, p, 1, false);
    expect_metrics(shape, verified(shape, reduce_scatter_recursive_halving), recursive_halving_costs(p, 1));
  }
  for (const int p : {257, 1000}) {
    const CollectiveShape shape = shape_of(Coll::reduce_scatter, p, 1, true);
    expect_metrics(shape, verified(shape, reduce_scatter_ring), reduce_scatter_linear_costs(p, 1, false));
  }
}

// ---------------------------------------------------------------------------------------------
// Allreduce

// Rabenseifner 2004 §3.4 with the MPICH-style fold for p ≠ p' (full vectors, so costs do not depend
// on S beyond the factor n): (⌈lg p⌉ + [p ≠ p'], same n, ⌈lg p⌉ n).
Expected recursive_doubling_costs(int size, double s) {
  const Group g(size);
  const double fold = g.power_of_two ? 0 : 1;
  Expected want;
  want.rounds = g.count(g.lg + 2 * fold);
  want.messages = g.count(g.lg + fold);
  want.blocks = (g.lg + fold) * s;
  want.total_messages = g.count(g.p2 * g.lg + 2 * g.r);
  want.startups = g.lg + 2 * fold;
  want.critical_blocks = (g.lg + 2 * fold) * s;
  want.reduced = (g.lg + fold) * s;
  return want;
}

TEST(ScheduleAllreduce, RecursiveDoublingKeepsRankOrder) {
  for (int p = 1; p <= 256; ++p) {
    for (const std::uint32_t s : small_segments) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::allreduce, p, s, commutative);
        expect_metrics(shape, verified(shape, allreduce_recursive_doubling), recursive_doubling_costs(p, s));
      }
    }
  }
}

// Rabenseifner 2004 §3.5 totals with f_α = f_β = 1, exact for S a multiple of 2p' (every part and
// half the same size). p = p': (2 lg p, 2(1 - 1/p)n, (1 - 1/p)n). Otherwise (2 lg p' + 3, (3 +
// (1 + f_β)/2)n - (2/p')n = (4 - 2/p')n, (3/2 - 1/p')n).
Expected rabenseifner_allreduce_costs(int size, double s) {
  const Group g(size);
  Expected want;
  if (g.power_of_two) {
    want.rounds = want.messages = g.count(2 * g.lg);
    want.blocks = 2 * (1 - 1 / g.p) * s;
    want.total_messages = g.count(2 * g.p * g.lg);
    want.total_blocks = 2 * (g.p - 1) * s;
    want.startups = 2 * g.lg;
    want.critical_blocks = 2 * (1 - 1 / g.p) * s;
    want.reduced = (1 - 1 / g.p) * s;
    return want;
  }
  want.rounds = g.count(2 * g.lg + 3);
  want.messages = g.count(2 * g.lg + 2);
  want.blocks = (3.5 - 2 / g.p2) * s;  // a paired survivor: s/2, 2(1 - 1/p')s, s
  want.total_messages = g.count(2 * g.p2 * g.lg + 4 * g.r);
  want.total_blocks = (2.5 * g.r + 2 * (g.p2 - 1)) * s;
  want.startups = 2 * g.lg + 3;
  want.critical_blocks = (4 - 2 / g.p2) * s;
  want.reduced = (1.5 - 1 / g.p2) * s;
  return want;
}

// Start-ups do not depend on S once every part is non-empty (S >= p'); with S = 0 nothing moves.
double rabenseifner_allreduce_startups(int size) {
  const Group g(size);
  return g.power_of_two ? 2 * g.lg : 2 * g.lg + 3;
}

TEST(ScheduleAllreduce, RabenseifnerMatchesSeedTotals) {
  for (int p = 1; p <= 256; ++p) {
    const auto s = 2 * floor_pow2(static_cast<std::uint32_t>(p));
    for (const bool commutative : commutativity_for(p)) {
      const CollectiveShape shape = shape_of(Coll::allreduce, p, s, commutative);
      expect_metrics(shape, verified(shape, allreduce_rabenseifner), rabenseifner_allreduce_costs(p, s));
    }
  }
}

TEST(ScheduleAllreduce, RabenseifnerHandlesShortVectorsAndKeepsRankOrder) {
  for (int p = 1; p <= 256; ++p) {
    const auto p2 = floor_pow2(static_cast<std::uint32_t>(p));
    for (const std::uint32_t s : {0u, 1u, 3u, p2, p2 + 1}) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::allreduce, p, s, commutative);
        const VerificationReport report = verified(shape, allreduce_rabenseifner);
        if (s == 0) {
          EXPECT_EQ(report.metrics.total_messages, 0u) << where(shape);
        } else if (s >= p2) {
          EXPECT_EQ(report.metrics.critical_startups, rabenseifner_allreduce_startups(p)) << where(shape);
        }
      }
    }
  }
}

// Binary blocks' critical paths from an independent message-level simulation of the reconstruction
// (Rabenseifner 2004 §3.6 gives no closed form), with eager sends: a message may leave before its
// receiver posts the receive. The verifier instead starts a message when both sides have posted it,
// so the same schedule (the simulation's step lists, one message per round) measures more start-ups
// and blocks where a small block's many pieces queue up behind a larger block still reducing.
// `verifier` holds the simulation's own step lists re-timed with that rule (outside this code
// base); the combined blocks (γ) agree under both rules.
struct BinaryBlocksRow {
  int p;
  double simulated[3];    // (α count, nβ, nγ) per that simulation
  double verifier[3];  // (start-ups, blocks / n, combined blocks / n) measured here
};

constexpr BinaryBlocksRow binary_blocks_table[] = {
    {13, {11, 2.5, 1.125}, {13, 3.5, 1.125}},
    {15, {11, 3.25, 1.375}, {12, 3.75, 1.375}},
    {24, {10, 2.0, 1.0}, {12, 2.125, 1.0}},
    {33, {64, 2.0, 1.0}, {74, 3.9375, 1.0}},
    {36, {20, 2.0, 1.0}, {26, 2.4375, 1.0}},
    {60, {15, 2.3125, 1.09375}, {16, 2.4375, 1.09375}},
    {96, {14, 2.0, 1.0}, {16, 2.03125, 1.0}},
    {100, {20, 2.0625, 1.015625}, {26, 2.4375, 1.015625}},
};

// Combined blocks / n on the critical path of binary blocks: block k (exponent e_k, largest
// first) has combined 1 - 2^-e_k after its own halving; adding the next smaller block's piece
// costs 2^-e_k more and waits for that block to be done: T_m = 1 - 2^-e_m,
// T_k = max(1 - 2^-e_k, T_{k+1}) + 2^-e_k; the answer is T_1.
double binary_blocks_reduced(int p) {
  std::vector<int> exponents;
  for (int e = floor_log2(static_cast<std::uint32_t>(p)); e >= 0; --e) {
    if ((p >> e & 1) != 0) {
      exponents.push_back(e);
    }
  }
  auto part = [](int e) { return 1.0 / static_cast<double>(1 << e); };
  double t = 1 - part(exponents.back());
  for (auto e = exponents.rbegin() + 1; e != exponents.rend(); ++e) {
    t = std::max(1 - part(*e), t) + part(*e);
  }
  return t;
}

TEST(ScheduleAllreduce, BinaryBlocksKeepsRankOrderAndCombinesAsTheDigestSays) {
  for (int p = 1; p <= 256; ++p) {
    const auto fine = floor_pow2(static_cast<std::uint32_t>(p));
    for (const std::uint32_t s : {0u, 1u, 3u, 2 * fine}) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::allreduce, p, s, commutative);
        const VerificationReport report = verified(shape, allreduce_binary_blocks);
        if (s == 2 * fine) {
          EXPECT_EQ(report.metrics.critical_reduced_blocks, binary_blocks_reduced(p) * s) << where(shape);
          if (fine == static_cast<std::uint32_t>(p)) {  // identical to halving and doubling
            expect_metrics(shape, report, rabenseifner_allreduce_costs(p, s));
          }
        }
      }
    }
  }
}

TEST(ScheduleAllreduce, BinaryBlocksCriticalPathOfTheDigestExamples) {
  for (const BinaryBlocksRow& row : binary_blocks_table) {
    const double s = 2 * floor_pow2(static_cast<std::uint32_t>(row.p));
    const CollectiveShape shape = shape_of(Coll::allreduce, row.p, static_cast<std::uint32_t>(s), false);
    const VerificationReport report = verified(shape, allreduce_binary_blocks);
    EXPECT_EQ(report.metrics.critical_startups, row.verifier[0]) << where(shape);
    EXPECT_EQ(report.metrics.critical_blocks, row.verifier[1] * s) << where(shape);
    EXPECT_EQ(report.metrics.critical_reduced_blocks, row.verifier[2] * s) << where(shape);
    EXPECT_EQ(row.simulated[2], row.verifier[2]);
    EXPECT_EQ(binary_blocks_reduced(row.p), row.simulated[2]) << row.p;
  }
}

Expected ring_allreduce_costs(int size, double s) {
  const Group g(size);
  Expected want;
  want.rounds = want.messages = g.count(2 * (g.p - 1));
  want.blocks = 2 * (g.p - 1) / g.p * s;
  want.total_messages = g.count(2 * g.p * (g.p - 1));
  want.total_blocks = 2 * (g.p - 1) * s;
  want.startups = 2 * (g.p - 1);
  want.critical_blocks = 2 * (1 - 1 / g.p) * s;
  want.reduced = (1 - 1 / g.p) * s;
  return want;
}

class AllreduceRing : public ::testing::TestWithParam<GroupSizes> {};

TEST_P(AllreduceRing, MatchesSeedTotalsAndIsCommutativeOnly) {
  for (int p = GetParam().first; p <= GetParam().last; ++p) {
    const auto size = static_cast<std::uint32_t>(p);
    for (const std::uint32_t s : {0u, 1u, 3u, size}) {
      const CollectiveShape shape = shape_of(Coll::allreduce, p, s, true);
      const VerificationReport report = verified(shape, allreduce_ring);
      if (s % size == 0 && s > 0) {
        expect_metrics(shape, report, ring_allreduce_costs(p, s));
      } else if (s == 0) {
        EXPECT_EQ(report.metrics.total_messages, 0u) << where(shape);
      }
    }
    if (p >= 2) {
      expect_rank_order_violation(shape_of(Coll::allreduce, p, size, false), allreduce_ring);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ScheduleAllreduce, AllreduceRing, quadratic_ranges, range_name);

class AllreducePairwiseRing : public ::testing::TestWithParam<GroupSizes> {};

TEST_P(AllreducePairwiseRing, MatchesSeedTotalsAndKeepsRankOrder) {
  for (int p = GetParam().first; p <= GetParam().last; ++p) {
    const auto size = static_cast<std::uint32_t>(p);
    for (const std::uint32_t s : {0u, 1u, 3u, size}) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::allreduce, p, s, commutative);
        const VerificationReport report = verified(shape, allreduce_pairwise_ring);
        if (s % size == 0 && s > 0) {
          // Rabenseifner's ring costs, but the higher ranks' partial sum is appended by one more
          // combination of a part: (p - 1)n/p + n/p combined blocks for p >= 3.
          Expected want = ring_allreduce_costs(p, s);
          want.reduced = p >= 3 ? s : *want.reduced;
          expect_metrics(shape, report, want);
        } else if (s == 0) {
          EXPECT_EQ(report.metrics.total_messages, 0u) << where(shape);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ScheduleAllreduce, AllreducePairwiseRing, quadratic_ranges, range_name);

TEST(ScheduleAllreduce, LargeGroups) {
  for (const int p : {257, 1000, 2047}) {
    const CollectiveShape one = shape_of(Coll::allreduce, p, 1, false);
    expect_metrics(one, verified(one, allreduce_recursive_doubling), recursive_doubling_costs(p, 1));
    const auto s = 2 * floor_pow2(static_cast<std::uint32_t>(p));
    const CollectiveShape shape = shape_of(Coll::allreduce, p, s, false);
    expect_metrics(shape, verified(shape, allreduce_rabenseifner), rabenseifner_allreduce_costs(p, s));
    const VerificationReport blocks = verified(shape, allreduce_binary_blocks);
    EXPECT_EQ(blocks.metrics.critical_reduced_blocks, binary_blocks_reduced(p) * s) << where(shape);
    verified(shape_of(Coll::allreduce, p, 1, true), allreduce_ring);
    verified(shape_of(Coll::allreduce, p, 1, false), allreduce_pairwise_ring);
  }
  const CollectiveShape ring = shape_of(Coll::allreduce, 257, 257, true);
  expect_metrics(ring, verified(ring, allreduce_ring), ring_allreduce_costs(257, 257));
}

TEST(ScheduleAllreduce, LargestGroup) {
  const int p = 4096;
  const CollectiveShape shape = shape_of(Coll::allreduce, p, p, false);
  expect_metrics(shape, verified(shape, allreduce_rabenseifner), rabenseifner_allreduce_costs(p, p));
  const CollectiveShape one = shape_of(Coll::allreduce, p, 1, false);
  expect_metrics(one, verified(one, allreduce_recursive_doubling), recursive_doubling_costs(p, 1));
  verified(one, allreduce_binary_blocks);
  verified(shape_of(Coll::allreduce, p, 1, true), allreduce_ring);
  verified(one, allreduce_pairwise_ring);
}

// ---------------------------------------------------------------------------------------------
// Critical paths of the paper's schedules in a message-level simulation (its closed forms,
// Rabenseifner 2004 §3.3-§3.7, f_α = f_β = 1, reduce to root 0), with its vector length:
// (start-ups, blocks / n, combined blocks / n), printed to 3 decimals.

struct OracleRow {
  int p;
  double halving_doubling[3];
  double ring[3];
  double recursive_doubling[3];
  double reduce[3];
};

constexpr OracleRow oracle_table[] = {
    {4, {4, 1.5, 0.75}, {6, 1.5, 0.75}, {2, 2, 2}, {4, 1.5, 0.75}},
    {8, {6, 1.75, 0.875}, {14, 1.75, 0.875}, {3, 3, 3}, {6, 1.75, 0.875}},
    {13, {9, 3.75, 1.375}, {24, 1.846, 0.923}, {5, 5, 4}, {8, 2.75, 1.375}},
    {15, {9, 3.75, 1.375}, {28, 1.867, 0.933}, {5, 5, 4}, {8, 2.75, 1.375}},
    {16, {8, 1.875, 0.938}, {30, 1.875, 0.938}, {4, 4, 4}, {8, 1.875, 0.938}},
    {24, {11, 3.875, 1.438}, {46, 1.917, 0.958}, {6, 6, 5}, {10, 2.875, 1.438}},
    {33, {13, 3.938, 1.469}, {64, 1.939, 0.970}, {7, 7, 6}, {12, 2.938, 1.469}},
    {36, {13, 3.938, 1.469}, {70, 1.944, 0.972}, {7, 7, 6}, {12, 2.938, 1.469}},
    {60, {13, 3.938, 1.469}, {118, 1.967, 0.983}, {7, 7, 6}, {12, 2.938, 1.469}},
    {96, {15, 3.969, 1.484}, {190, 1.979, 0.990}, {8, 8, 7}, {14, 2.969, 1.484}},
    {100, {15, 3.969, 1.484}, {198, 1.980, 0.990}, {8, 8, 7}, {14, 2.969, 1.484}},
};

void expect_row(const CollectiveShape& shape, Generator generator, const double (&want)[3]) {
  const VerificationReport report = verified(shape, generator);
  const double n = shape.segments;
  const double printed = 0.0005 + 1e-9;  // half a unit of the third decimal
  EXPECT_EQ(report.metrics.critical_startups, want[0]) << where(shape);
  EXPECT_NEAR(report.metrics.critical_blocks / n, want[1], printed) << where(shape);
  EXPECT_NEAR(report.metrics.critical_reduced_blocks / n, want[2], printed) << where(shape);
}

TEST(ScheduleReductions, MatchTheOracleTable) {
  for (const OracleRow& row : oracle_table) {
    // The script's vector length: lcm(p, p'), doubled when below 8.
    std::uint32_t n = static_cast<std::uint32_t>(row.p);
    while (n % floor_pow2(static_cast<std::uint32_t>(row.p)) != 0) {
      n += static_cast<std::uint32_t>(row.p);
    }
    n *= n < 8 ? 2 : 1;
    expect_row(shape_of(Coll::allreduce, row.p, n, false), allreduce_rabenseifner, row.halving_doubling);
    expect_row(shape_of(Coll::allreduce, row.p, n, true), allreduce_ring, row.ring);
    expect_row(shape_of(Coll::allreduce, row.p, n, false), allreduce_recursive_doubling,
               row.recursive_doubling);
    expect_row(shape_of(Coll::reduce, row.p, n, false), reduce_rabenseifner, row.reduce);
  }
}

// ---------------------------------------------------------------------------------------------
// Reduce

std::vector<int> roots_of(int p) { return p == 1 ? std::vector<int>{0} : std::vector<int>{0, p / 2, p - 1}; }

Expected binomial_reduce_costs(int size, double s) {
  const double depth = ceil_log2(static_cast<std::uint32_t>(size));
  const bool any = s > 0 && size > 1;
  Expected want;
  want.rounds = static_cast<std::size_t>(any ? depth : 0);
  want.messages = any ? 1u : 0u;
  want.blocks = size > 1 ? s : 0;
  want.total_messages = static_cast<std::size_t>(any ? size - 1 : 0);
  want.total_blocks = (size - 1) * s;
  want.startups = any ? depth : 0;
  want.critical_blocks = want.reduced = depth * s;
  return want;
}

std::vector<int> every_root_up_to_40(int p) {
  if (p > 40) {
    return roots_of(p);
  }
  std::vector<int> roots;
  for (int root = 0; root < p; ++root) {
    roots.push_back(root);
  }
  return roots;
}

TEST(ScheduleReduce, BinomialKeepsRankOrderForEveryRoot) {
  for (int p = 1; p <= 256; ++p) {
    for (const int root : every_root_up_to_40(p)) {
      for (const std::uint32_t s : small_segments) {
        for (const bool commutative : commutativity_for(p)) {
          const CollectiveShape shape = shape_of(Coll::reduce, p, s, commutative, root);
          expect_metrics(shape, verified(shape, reduce_binomial), binomial_reduce_costs(p, s));
        }
      }
    }
  }
}

// d = ⌈log_k p⌉ levels, one message per non-root rank; the critical path combines k - 1 children
// per level below the top and ⌈p / k^(d-1)⌉ - 1 at the top.
Expected knomial_reduce_costs(int size, int k, double s) {
  int levels = 0;
  std::int64_t width = 1;  // k^(d-1)
  while (width * k < size) {
    width *= k;
    ++levels;
  }
  const double depth = size > 1 ? levels + 1 : 0;
  const double combined = size > 1 ? static_cast<double>((size + width - 1) / width - 1 + levels * (k - 1)) : 0;
  const bool any = s > 0 && size > 1;
  Expected want;
  want.rounds = static_cast<std::size_t>(any ? depth : 0);
  want.messages = any ? 1u : 0u;
  want.total_messages = static_cast<std::size_t>(any ? size - 1 : 0);
  want.total_blocks = (size - 1) * s;
  want.startups = any ? depth : 0;
  want.critical_blocks = depth * s;
  want.reduced = combined * s;
  return want;
}

TEST(ScheduleReduce, KnomialKeepsRankOrderForEveryRoot) {
  for (const int k : {2, 3, 4, 8}) {
    const auto knomial = [k](const CollectiveShape& shape, int rank) { return reduce_knomial(shape, rank, k); };
    for (int p = 1; p <= 200; ++p) {
      for (const int root : every_root_up_to_40(p)) {
        for (const std::uint32_t s : small_segments) {
          for (const bool commutative : commutativity_for(p)) {
            const CollectiveShape shape = shape_of(Coll::reduce, p, s, commutative, root);
            SCOPED_TRACE("k=" + std::to_string(k));
            const VerificationReport report = verify(shape, [&](int rank) { return knomial(shape, rank); });
            ASSERT_TRUE(report.ok) << where(shape) << ": " << report.error;
            expect_metrics(shape, report, knomial_reduce_costs(p, k, s));
          }
        }
      }
    }
  }
}

// The point of the k-nomial tree: a node takes all children of a level in one round, where the
// binomial tree takes one per round. 4^3 ranks: the root receives 3 messages in each of 3 rounds.
TEST(ScheduleReduce, KnomialTakesALevelsChildrenInOneRound) {
  for (const int root : {0, 21, 63}) {
    const CollectiveShape shape = shape_of(Coll::reduce, 64, 2, false, root);
    const Schedule schedule = reduce_knomial(shape, root, 4);
    std::vector<std::size_t> receives_per_round;
    for (const Round& round : schedule.rounds) {
      std::size_t receives = 0;
      for (const Action& action : round.actions) {
        receives += action.kind == ActionKind::receive || action.kind == ActionKind::receive_reduce ? 1 : 0;
      }
      if (receives > 0) {
        receives_per_round.push_back(receives);
      }
    }
    EXPECT_EQ(receives_per_round, (std::vector<std::size_t>{3, 3, 3})) << "root " << root;
    EXPECT_EQ(schedule.scratch_blocks, 2u * 2u) << "root " << root;  // two children wait per level
  }
}

TEST(ScheduleReduce, KnomialRejectsAnArityBelowTwo) {
  const CollectiveShape shape = shape_of(Coll::reduce, 4, 1, true);
  EXPECT_THROW(reduce_knomial(shape, 0, 1), dash::InvalidArgument);
  EXPECT_THROW(reduce_knomial(shape, 0, 0), dash::InvalidArgument);
}

// Rabenseifner 2004 §3.5 reduce totals with f_α = f_β = 1, S a multiple of 2p'. p = p': (2 lg p,
// 2(1 - 1/p)n, (1 - 1/p)n); otherwise (2 lg p' + 2, (3 - 2/p')n, (3/2 - 1/p')n), for every root:
// the odd-root role swap costs nothing.
Expected rabenseifner_reduce_costs(int size, double s) {
  const Group g(size);
  Expected want;
  // Pre-step 2r + r messages, p' lg p' halving messages, p' - 1 gather messages.
  want.total_messages = g.count(3 * g.r + g.p2 * g.lg + g.p2 - 1);
  // Pre-step 3/2 rS; halving (p' - 1)S; each gather level moves half the vector.
  want.total_blocks = (1.5 * g.r + (g.p2 - 1) + g.lg / 2) * s;
  if (g.power_of_two) {
    want.startups = 2 * g.lg;
    want.critical_blocks = 2 * (1 - 1 / g.p) * s;
    want.reduced = (1 - 1 / g.p) * s;
  } else {
    want.startups = 2 * g.lg + 2;
    want.critical_blocks = (3 - 2 / g.p2) * s;
    want.reduced = (1.5 - 1 / g.p2) * s;
  }
  return want;
}

TEST(ScheduleReduce, RabenseifnerMatchesSeedTotalsForEveryRoot) {
  for (int p = 1; p <= 256; ++p) {
    const auto s = 2 * floor_pow2(static_cast<std::uint32_t>(p));
    // Every root up to 40 ranks, in particular the odd ones below 2r that swap roles.
    for (const int root : every_root_up_to_40(p)) {
      for (const bool commutative : commutativity_for(p)) {
        const CollectiveShape shape = shape_of(Coll::reduce, p, s, commutative, root);
        expect_metrics(shape, verified(shape, reduce_rabenseifner), rabenseifner_reduce_costs(p, s));
      }
    }
  }
}

TEST(ScheduleReduce, RabenseifnerHandlesShortVectors) {
  for (int p = 1; p <= 256; ++p) {
    for (const int root : roots_of(p)) {
      for (const std::uint32_t s : small_segments) {
        for (const bool commutative : commutativity_for(p)) {
          const CollectiveShape shape = shape_of(Coll::reduce, p, s, commutative, root);
          const VerificationReport report = verified(shape, reduce_rabenseifner);
          if (s == 0) {
            EXPECT_EQ(report.metrics.total_messages, 0u) << where(shape);
          }
        }
      }
    }
  }
}

void expect_large_reduce(int p, std::uint32_t s, const std::vector<int>& roots) {
  for (const int root : roots) {
    const CollectiveShape one = shape_of(Coll::reduce, p, 1, false, root);
    expect_metrics(one, verified(one, reduce_binomial), binomial_reduce_costs(p, 1));
    const CollectiveShape shape = shape_of(Coll::reduce, p, s, false, root);
    expect_metrics(shape, verified(shape, reduce_rabenseifner), rabenseifner_reduce_costs(p, s));
  }
}

TEST(ScheduleReduce, LargeGroups) {
  for (const int p : {257, 1000, 2047}) {
    expect_large_reduce(p, 2 * floor_pow2(static_cast<std::uint32_t>(p)), roots_of(p));
  }
}

// S = p suffices at p = p', where no root swaps roles.
TEST(ScheduleReduce, LargestGroup) { expect_large_reduce(4096, 4096, {0, 4095}); }

}  // namespace
