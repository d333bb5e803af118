// Reduction generators against published figures and reduce: the critical paths of Rabenseifner
// 2004's schedules in a message-level simulation (the oracle table, allreduce and reduce), then
// reduce (binomial, k-nomial, Rabenseifner, large groups), each run through the verifier for every
// group size up to 256 and sampled larger ones. Helpers: schedule_reduction_checks.hpp.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/verifier.hpp>

#include "rabenseifner_critical_paths.hpp"
#include "schedule_reduction_checks.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// Critical paths of the paper's schedules in a message-level simulation (its closed forms,
// Rabenseifner 2004 §3.3-§3.7, f_α = f_β = 1, reduce to root 0), with its vector length:
// (start-ups, blocks / n, combined blocks / n), printed to 3 decimals.

void expect_row(const CollectiveShape& shape, Generator generator, const double (&want)[3]) {
  const VerificationReport report = verified(shape, generator);
  const double n = shape.segments;
  const double printed = 0.0005 + 1e-9;  // half a unit of the third decimal
  EXPECT_EQ(report.metrics.critical_startups, want[0]) << where(shape);
  EXPECT_NEAR(report.metrics.critical_blocks / n, want[1], printed) << where(shape);
  EXPECT_NEAR(report.metrics.critical_reduced_blocks / n, want[2], printed) << where(shape);
}

TEST(ScheduleReductions, MatchTheOracleTable) {
  for (const dash::testing::RabenseifnerRow& row : dash::testing::rabenseifner_critical_paths) {
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

TEST(ScheduleReduce, RabenseifnerMatchesPublishedTotalsForEveryRoot) {
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
