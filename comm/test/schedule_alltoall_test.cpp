// Alltoall schedules: every generator is verified symbolically for every P in 1..256 and sampled
// larger P, and its counts are compared with the closed forms of Kowalewski 2021 §4.4.
//
// The verifier runs an order of magnitude slower in unoptimised builds (Debug, sanitizers;
// docs/testing.md, "Schedules and the verifier"), so there the sweeps take P <= 32 and a sample up
// to 256, and the large-P tests sample P = 257 instead.
//
// Map: shape, run and context helpers; PRange and the EveryP sweep fixture; then per generator, its
// sweep and its specific tests: pairwise, linear, hypercube XOR, one-factor (partner function, FMPI's
// formulas, schedule), Bruck (canonical and not); operation traits; the sweeps' instantiation.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/alltoall.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using Generator = Schedule (*)(const CollectiveShape&, int);

constexpr std::uint32_t segment_counts[] = {0, 1, 3};

CollectiveShape shape_of(int size, std::uint32_t segments, bool commutative = true) {
  CollectiveShape shape;
  shape.collective = Coll::alltoall;
  shape.size = size;
  shape.segments = segments;
  shape.op.commutative = commutative;
  return shape;
}

VerificationReport run(const CollectiveShape& shape, Generator generator, VerifyOptions options = {}) {
  return verify(shape, [&](int rank) { return generator(shape, rank); }, options);
}

std::string context(const CollectiveShape& shape, const VerificationReport& report) {
  return "P=" + std::to_string(shape.size) + " S=" + std::to_string(shape.segments) + ": " + report.error;
}

std::uint64_t u64(int value) { return static_cast<std::uint64_t>(value); }

// The sweeps over P = 1..256 run as one test per (S, range of P); the verifier's work grows as P^2
// for direct exchanges and P^2 lg P for Bruck, so the ranges split it into about equal parts.
struct PRange {
  int first;
  int last;
};
constexpr PRange p_ranges[] = {{1, 160}, {161, 203}, {204, 232}, {233, 256}};

// Keeps gtest's parameter description readable (and CTest's test names stable).
void PrintTo(const PRange& range, std::ostream* out) { *out << "P" << range.first << "to" << range.last; }

#ifdef __OPTIMIZE__
constexpr bool optimized_build = true;
#else
constexpr bool optimized_build = false;
#endif

// A large group size to sample: `p` in optimised builds; unoptimised ones (a far slower verifier)
// sample the smallest size past the exhaustive sweep instead.
constexpr int large(int p) { return optimized_build ? p : 257; }

bool swept(int p) {
  constexpr int sample[] = {63, 64, 65, 100, 127, 128, 129, 191, 210, 255, 256};
  return optimized_build || p <= 32 || std::find(std::begin(sample), std::end(sample), p) != std::end(sample);
}

class EveryP : public ::testing::TestWithParam<std::tuple<std::uint32_t, PRange>> {
protected:
  static std::uint32_t segments() { return std::get<0>(GetParam()); }
  template <class Check>
  static void for_each_p(Check check) {
    for (int p = std::get<1>(GetParam()).first; p <= std::get<1>(GetParam()).last; ++p) {
      if (!swept(p)) {
        continue;
      }
      check(p);
      if (::testing::Test::HasFatalFailure()) {
        return;
      }
    }
  }
};

// Costs of a direct exchange: every rank sends one message of S blocks to each other rank.
void expect_direct_exchange(const CollectiveShape& shape, const VerificationReport& report,
                            std::size_t rounds, double startups) {
  const int p = shape.size;
  const std::uint64_t s = shape.segments;
  const ScheduleMetrics& m = report.metrics;
  const std::string where = context(shape, report);
  EXPECT_EQ(m.max_communication_rounds, rounds) << where;
  EXPECT_EQ(m.max_messages_sent, static_cast<std::size_t>(p - 1)) << where;
  EXPECT_EQ(m.total_messages, static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1)) << where;
  EXPECT_EQ(m.max_blocks_sent, u64(p - 1) * s) << where;
  EXPECT_EQ(m.total_blocks_sent, u64(p) * u64(p - 1) * s) << where;
  EXPECT_EQ(m.critical_startups, startups) << where;
  EXPECT_EQ(m.critical_blocks, startups * static_cast<double>(s)) << where;
  EXPECT_EQ(m.critical_reduced_blocks, 0) << where;
}

// Pairwise and hypercube: p - 1 rounds of one exchange each, one start-up per round.
void check_round_per_peer(Generator generator, int p, std::uint32_t s) {
  const CollectiveShape shape = shape_of(p, s);
  const VerificationReport report = run(shape, generator);
  ASSERT_TRUE(report.ok) << context(shape, report);
  expect_direct_exchange(shape, report, static_cast<std::size_t>(p - 1), p - 1);
}

TEST_P(EveryP, Pairwise) {
  for_each_p([](int p) { check_round_per_peer(alltoall_pairwise, p, segments()); });
}

TEST(ScheduleAlltoall, PairwiseSendsToRankPlusJAndReceivesFromRankMinusJ) {
  const int p = 7;
  for (int rank = 0; rank < p; ++rank) {
    const Schedule schedule = alltoall_pairwise(shape_of(p, 2), rank);
    ASSERT_EQ(schedule.rounds.size(), static_cast<std::size_t>(p - 1));
    for (int j = 1; j < p; ++j) {
      int to = -1;
      int from = -1;
      for (const Action& action : schedule.rounds[static_cast<std::size_t>(j - 1)].actions) {
        if (action.kind == ActionKind::send) {
          to = action.peer;
        } else if (action.kind == ActionKind::receive) {
          from = action.peer;
        }
      }
      EXPECT_EQ(to, modulo(rank + j, p)) << "rank " << rank << " round " << j;
      EXPECT_EQ(from, modulo(rank - j, p)) << "rank " << rank << " round " << j;
    }
  }
}

TEST(ScheduleAlltoall, PairwiseAt257) { check_round_per_peer(alltoall_pairwise, 257, 1); }

TEST(ScheduleAlltoall, PairwiseAtALargeP) {
  check_round_per_peer(alltoall_pairwise, large(700), 1);
}

TEST_P(EveryP, Linear) {
  for_each_p([](int p) {
    const CollectiveShape shape = shape_of(p, segments());
    const VerificationReport report = run(shape, alltoall_linear);
    ASSERT_TRUE(report.ok) << context(shape, report);
    // All messages start together: one round, one start-up on the critical path.
    expect_direct_exchange(shape, report, p > 1 ? 1 : 0, p > 1 ? 1 : 0);
  });
}

TEST(ScheduleAlltoall, HypercubeXorForEveryPowerOfTwoUpTo256) {
  for (int p = 1; p <= 256; p *= 2) {
    for (const std::uint32_t s : segment_counts) {
      check_round_per_peer(alltoall_hypercube_xor, p, s);
    }
  }
}

TEST(ScheduleAlltoall, HypercubeXorAt512) { check_round_per_peer(alltoall_hypercube_xor, 512, 1); }

TEST(ScheduleAlltoall, HypercubeXorAtALargeP) {
  check_round_per_peer(alltoall_hypercube_xor, optimized_build ? 1024 : 512, 1);
}

TEST(ScheduleAlltoall, HypercubeXorRejectsOtherSizes) {
  for (int p = 3; p <= 256; ++p) {
    if (std::has_single_bit(static_cast<unsigned>(p))) {
      continue;
    }
    try {
      (void)alltoall_hypercube_xor(shape_of(p, 1), 0);
      ADD_FAILURE() << "P=" << p << " accepted";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_NE(std::string(error.what()).find("power of two"), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find(std::to_string(p)), std::string::npos) << error.what();
    }
  }
}

TEST(ScheduleAlltoall, OneFactorPartnersAreInvolutionsCoveringEveryPairOnce) {
  for (int p = 2; p <= 256; ++p) {
    const int rounds = one_factor_rounds(p);
    ASSERT_EQ(rounds, p % 2 == 1 ? p : p - 1) << "P=" << p;
    std::vector<int> met(static_cast<std::size_t>(p) * static_cast<std::size_t>(p), 0);
    auto times_met = [&](int a, int b) -> int& {
      return met[static_cast<std::size_t>(a) * static_cast<std::size_t>(p) + static_cast<std::size_t>(b)];
    };
    for (int round = 0; round < rounds; ++round) {
      int idle = 0;
      for (int rank = 0; rank < p; ++rank) {
        const int partner = one_factor_partner(p, round, rank);
        ASSERT_TRUE(partner >= 0 && partner < p) << "P=" << p << " round " << round << " rank " << rank;
        ASSERT_EQ(one_factor_partner(p, round, partner), rank)
            << "P=" << p << " round " << round << " rank " << rank << " partner " << partner;
        idle += partner == rank ? 1 : 0;
        ++times_met(rank, partner);
      }
      // Odd p: exactly one idle rank per round; even p: a perfect matching.
      EXPECT_EQ(idle, p % 2) << "P=" << p << " round " << round;
    }
    // Every ordered pair once; each rank idles once for odd p, never for even p.
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b < p; ++b) {
        EXPECT_EQ(times_met(a, b), a != b ? 1 : p % 2) << "P=" << p << " pair " << a << "," << b;
      }
    }
  }
}

TEST(ScheduleAlltoall, OneFactorFollowsTheFmpiFormulas) {
  // Odd p: (j - i) mod p (errata §10.1). Even p = 6: ranks 0..4 as for p = 5, the idle one with 5.
  EXPECT_EQ(one_factor_partner(5, 3, 1), 2);
  EXPECT_EQ(one_factor_partner(5, 3, 4), 4);  // 2 * 4 = 8 ≡ 3 (mod 5): idle
  EXPECT_EQ(one_factor_partner(6, 3, 4), 5);  // idle of the p - 1 = 5 construction: 3 * 3 mod 5 = 4
  EXPECT_EQ(one_factor_partner(6, 3, 5), 4);
  EXPECT_EQ(one_factor_partner(6, 3, 0), 3);
  EXPECT_EQ(one_factor_partner(2, 0, 0), 1);
  EXPECT_EQ(one_factor_partner(1, 0, 0), 0);
}

// The schedule follows the partner function: round t exchanges with one_factor_partner(p, t, r),
// and copies its own block in its idle round.
void check_one_factor_schedule(int p) {
  for (int rank = 0; rank < p; ++rank) {
    const Schedule schedule = alltoall_one_factor(shape_of(p, 1), rank);
    ASSERT_EQ(schedule.rounds.size(), static_cast<std::size_t>(one_factor_rounds(p))) << "P=" << p;
    for (int t = 0; t < one_factor_rounds(p); ++t) {
      const int partner = one_factor_partner(p, t, rank);
      for (const Action& action : schedule.rounds[static_cast<std::size_t>(t)].actions) {
        if (action.is_message()) {
          EXPECT_EQ(action.peer, partner) << "P=" << p << " rank " << rank << " round " << t;
        } else {
          EXPECT_TRUE(partner == rank || (p % 2 == 0 && t == 0)) << "P=" << p << " rank " << rank;
        }
      }
    }
  }
}

// Odd p has p rounds, so a start-up chain through an idle rank's round has length p.
double one_factor_startups(int p) { return p == 1 ? 0 : one_factor_rounds(p); }

TEST(ScheduleAlltoall, OneFactorScheduleFollowsThePartnerFunction) {
  for (int p = 1; p <= 256; ++p) {
    if (swept(p)) {
      check_one_factor_schedule(p);
    }
  }
}


void check_one_factor(int p, std::uint32_t s) {
  const CollectiveShape shape = shape_of(p, s);
  const VerificationReport report = run(shape, alltoall_one_factor);
  ASSERT_TRUE(report.ok) << context(shape, report);
  expect_direct_exchange(shape, report, static_cast<std::size_t>(p - 1), one_factor_startups(p));
}

TEST_P(EveryP, OneFactor) {
  for_each_p([](int p) { check_one_factor(p, segments()); });
}

TEST(ScheduleAlltoall, OneFactorAt257) { check_one_factor(257, 1); }

TEST(ScheduleAlltoall, OneFactorAtALargeP) {
  check_one_factor(large(700), 1);
}

// Slots k < p with bit j set: what Bruck's round j sends.
std::uint64_t bruck_slots(int p, int j) {
  std::uint64_t count = 0;
  for (int k = 0; k < p; ++k) {
    count += static_cast<std::uint64_t>((k >> j) & 1);
  }
  return count;
}

void check_bruck(Generator generator, int p, std::uint32_t s, bool canonical) {
  const CollectiveShape shape = shape_of(p, s);
  const VerificationReport report = run(shape, generator, VerifyOptions{.allow_non_canonical = !canonical});
  ASSERT_TRUE(report.ok) << context(shape, report);
  const auto steps = ceil_log2(static_cast<std::uint32_t>(p));
  const auto half = static_cast<std::uint64_t>(p / 2) * s;
  // Each round: one send and one receive of the bit-j slots, at most ⌊p/2⌋ S blocks.
  const Schedule schedule = generator(shape, p / 2);
  std::uint64_t blocks = 0;
  int round = 0;
  for (const Round& r : schedule.rounds) {
    int sends = 0;
    int receives = 0;
    for (const Action& action : r.actions) {
      if (action.kind == ActionKind::send) {
        ++sends;
        EXPECT_EQ(action.blocks.size(), bruck_slots(p, round) * s) << "P=" << p << " round " << round;
        EXPECT_LE(action.blocks.size(), half) << "P=" << p << " round " << round;
        EXPECT_EQ(action.peer, modulo(p / 2 + (1 << round), p));
        blocks += action.blocks.size();
      }
      receives += action.kind == ActionKind::receive ? 1 : 0;
    }
    EXPECT_EQ(sends, receives) << "P=" << p;
    EXPECT_LE(sends, 1) << "P=" << p;
    round += sends;
  }
  EXPECT_EQ(round, steps);
  EXPECT_LE(schedule.scratch_blocks, static_cast<std::uint64_t>(p) * s);

  // Σ_j |{k < p : bit j of k}| = Σ_{k<p} popcount(k) slots leave every rank.
  std::uint64_t popcounts = 0;
  for (int k = 0; k < p; ++k) {
    popcounts += static_cast<std::uint64_t>(std::popcount(static_cast<unsigned>(k)));
  }
  const ScheduleMetrics& m = report.metrics;
  const std::string where = context(shape, report);
  EXPECT_EQ(blocks, popcounts * s) << where;
  EXPECT_EQ(m.max_communication_rounds, static_cast<std::size_t>(steps)) << where;
  EXPECT_EQ(m.max_messages_sent, static_cast<std::size_t>(steps)) << where;
  EXPECT_EQ(m.total_messages, static_cast<std::size_t>(p) * static_cast<std::size_t>(steps)) << where;
  EXPECT_EQ(m.max_blocks_sent, popcounts * s) << where;
  EXPECT_EQ(m.total_blocks_sent, u64(p) * popcounts * s) << where;
  EXPECT_EQ(m.critical_startups, steps) << where;
  EXPECT_EQ(m.critical_blocks, static_cast<double>(popcounts * s)) << where;
}

TEST_P(EveryP, Bruck) {
  for_each_p([](int p) { check_bruck(alltoall_bruck, p, segments(), true); });
}

TEST_P(EveryP, BruckNoncanonical) {
  for_each_p([](int p) { check_bruck(alltoall_bruck_noncanonical, p, segments(), false); });
}

TEST(ScheduleAlltoall, BruckNoncanonicalIsNotCanonical) {
  // Without the reorder, rank r's output slot 1 holds rank r - 1's block, not rank 1's.
  for (int p = 2; p <= 64; ++p) {
    for (const std::uint32_t s : {1u, 3u}) {
      const VerificationReport report = run(shape_of(p, s), alltoall_bruck_noncanonical);
      EXPECT_FALSE(report.ok) << "P=" << p << " S=" << s;
      EXPECT_NE(report.error.find("output block"), std::string::npos) << report.error;
    }
  }
}

TEST(ScheduleAlltoall, BruckAt257) {
  check_bruck(alltoall_bruck, 257, 1, true);
  check_bruck(alltoall_bruck_noncanonical, 257, 1, false);
}

TEST(ScheduleAlltoall, BruckAtALargeP) {
  check_bruck(alltoall_bruck, large(1000), 1, true);
  check_bruck(alltoall_bruck_noncanonical, large(1000), 1, false);
}

TEST(ScheduleAlltoall, BruckAtTheLargestP) {
  check_bruck(alltoall_bruck, large(2047), 1, true);
}

TEST(ScheduleAlltoall, BruckNoncanonicalAtAPowerOfTwo) {
  check_bruck(alltoall_bruck_noncanonical, optimized_build ? 2048 : 256, 1, false);
}

// Alltoall combines nothing, so the operation's traits must not matter.
TEST(ScheduleAlltoall, OperationTraitsDoNotMatter) {
  for (const Generator generator :
       {alltoall_pairwise, alltoall_linear, alltoall_one_factor, alltoall_bruck}) {
    for (int p = 1; p <= 33; ++p) {
      const CollectiveShape shape = shape_of(p, 2, false);
      const VerificationReport report = run(shape, generator);
      EXPECT_TRUE(report.ok) << context(shape, report);
    }
  }
}

std::string sweep_name(const ::testing::TestParamInfo<EveryP::ParamType>& info) {
  const auto [s, range] = info.param;
  return "S" + std::to_string(s) + "_P" + std::to_string(range.first) + "to" + std::to_string(range.last);
}

INSTANTIATE_TEST_SUITE_P(ScheduleAlltoall, EveryP,
                         ::testing::Combine(::testing::ValuesIn(segment_counts),
                                            ::testing::ValuesIn(p_ranges)),
                         sweep_name);

}  // namespace
