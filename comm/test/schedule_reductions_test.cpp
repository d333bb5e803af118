// Reduction generators (reduce-scatter, allreduce), run through the verifier for every
// group size up to 256 and sampled larger ones, with commutative and non-commutative operations,
// and their measured costs compared with Rabenseifner 2004's closed forms (critical path in
// start-ups, blocks and combined blocks; n = S blocks is the vector, p' = 2^⌊lg p⌋, r = p - p').
//
// Map: reduce-scatter (ring, pairwise, recursive halving, empty rounds, large groups), then
// allreduce (recursive doubling, Rabenseifner, binary blocks, ring, pairwise ring, large groups).
// The oracle table of all three and reduce are in schedule_reduce_test.cpp; the shape, run and
// metric helpers in schedule_reduction_checks.hpp.

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

#include "schedule_reduction_checks.hpp"


namespace {

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

TEST(ScheduleAllreduce, RabenseifnerMatchesPublishedTotals) {
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

TEST(ScheduleAllreduce, BinaryBlocksKeepsRankOrderAndCombinesAsPublished) {
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

TEST(ScheduleAllreduce, BinaryBlocksCriticalPathOfThePublishedExamples) {
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

TEST_P(AllreduceRing, MatchesPublishedTotalsAndIsCommutativeOnly) {
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

TEST_P(AllreducePairwiseRing, MatchesPublishedTotalsAndKeepsRankOrder) {
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

}  // namespace
