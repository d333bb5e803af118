// Allgather generators, run through the verifier for every group size up to 256 and sampled
// larger ones, with their measured costs compared against the published closed forms.
//
// Map: Costs, the shape and run helpers, the verify-and-compare check and blocks_per_round; the
// closed forms (ring, logarithmic, recursive doubling, neighbour exchange); Algorithm and Sweep, the
// parameterised sweeps over every group size and large ones; then per-algorithm tests (recursive
// doubling, Bruck, Bruck non-canonical, Sparbit, neighbour exchange) and operation traits.

#include <bit>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using Generator = Schedule (*)(const CollectiveShape&, int);

// What a schedule must measure, per rank (max over ranks) and in total.
struct Costs {
  std::size_t rounds = 0;
  std::size_t messages = 0;  // per rank
  std::uint64_t blocks = 0;  // per rank
  std::size_t total_messages = 0;
  double critical_startups = 0;
  double critical_blocks = 0;
};

using CostFormula = Costs (*)(std::uint64_t p, std::uint64_t s);

CollectiveShape allgather_shape(int p, std::uint32_t segments, bool commutative = true) {
  CollectiveShape shape;
  shape.collective = Coll::allgather;
  shape.size = p;
  shape.segments = segments;
  shape.op.commutative = commutative;
  return shape;
}

VerificationReport run(const CollectiveShape& shape, Generator generator, VerifyOptions options = {}) {
  return verify(shape, [&](int rank) { return generator(shape, rank); }, options);
}

int lg_ceil(std::uint64_t p) { return ceil_log2(static_cast<std::uint32_t>(p)); }
int lg_floor(std::uint64_t p) { return floor_log2(static_cast<std::uint32_t>(p)); }

// Verifies `generator` for group size p and S segments and compares its metrics with `formula`.
void expect_costs(Generator generator, CostFormula formula, int p, std::uint32_t s, VerifyOptions options = {},
                  bool commutative = true) {
  const VerificationReport report = run(allgather_shape(p, s, commutative), generator, options);
  ASSERT_TRUE(report.ok) << "P=" << p << " S=" << s << ": " << report.error;
  const auto pp = static_cast<std::uint64_t>(p);
  const Costs want = formula(pp, s);
  const ScheduleMetrics& got = report.metrics;
  const std::string where = "P=" + std::to_string(p) + " S=" + std::to_string(s);
  EXPECT_EQ(got.max_communication_rounds, want.rounds) << where;
  EXPECT_EQ(got.max_messages_sent, want.messages) << where;
  EXPECT_EQ(got.max_blocks_sent, want.blocks) << where;
  EXPECT_EQ(got.total_messages, want.total_messages) << where;
  // Every algorithm here sends p(p-1)S blocks in all: each rank receives the p - 1 others once.
  EXPECT_EQ(got.total_blocks_sent, pp * (pp - 1) * s) << where;
  EXPECT_EQ(got.critical_startups, want.critical_startups) << where;
  EXPECT_EQ(got.critical_blocks, want.critical_blocks) << where;
  EXPECT_EQ(got.critical_reduced_blocks, 0) << where;
}

// Blocks sent in each communication round of `schedule` (each such round sends one message).
std::vector<std::uint32_t> blocks_per_round(const Schedule& schedule) {
  std::vector<std::uint32_t> result;
  for (const Round& round : schedule.rounds) {
    for (const Action& action : round.actions) {
      if (action.kind == ActionKind::send) {
        result.push_back(action.blocks.size());
      }
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Closed forms. Bandwidth-optimal ones send (p-1)S blocks per rank, and with all ranks moving in
// lockstep the critical path carries the same (p-1)S blocks.

Costs ring_costs(std::uint64_t p, std::uint64_t s) {
  return {p - 1, p - 1, (p - 1) * s, p * (p - 1), static_cast<double>(p - 1), static_cast<double>((p - 1) * s)};
}

Costs logarithmic_costs(std::uint64_t p, std::uint64_t s) {
  const auto rounds = static_cast<std::size_t>(lg_ceil(p));
  return {rounds, rounds, (p - 1) * s, p * rounds, static_cast<double>(rounds),
          static_cast<double>((p - 1) * s)};
}

// p' = 2^⌊lg p⌋, r = p - p'. With r > 0, rank 1 (virtual rank 0) carries the largest aligned
// group in every exchange, 2^k + min(2^k, r) contributions in exchange k, so it sends
// Σ_k (2^k + min(2^k, r)) = (p' - 1) + (2^q - 1) + r(lg p' - q) with q = bit_width(r), plus the
// p - 1 contributions for rank 0; the critical path adds the folding message (one contribution).
Costs recursive_doubling_costs(std::uint64_t p, std::uint64_t s) {
  const std::uint64_t p2 = std::bit_floor(p);
  const std::uint64_t r = p - p2;
  const auto lg = static_cast<std::uint64_t>(lg_floor(p));
  if (r == 0) {
    return {lg, lg, (p - 1) * s, p * lg, static_cast<double>(lg), static_cast<double>((p - 1) * s)};
  }
  const auto q = static_cast<std::uint64_t>(std::bit_width(r));
  const std::uint64_t largest_groups = (p2 - 1) + ((std::uint64_t{1} << q) - 1) + r * (lg - q);
  const std::uint64_t blocks = (largest_groups + p - 1) * s;
  return {lg + 2, lg + 1, blocks, p2 * lg + 2 * r, static_cast<double>(lg + 2), static_cast<double>(blocks + s)};
}

Costs neighbor_exchange_costs(std::uint64_t p, std::uint64_t s) {
  // One contribution in round 0, a pair in each of the p/2 - 1 others.
  return {p / 2, p / 2, (p - 1) * s, p * (p / 2), static_cast<double>(p / 2), static_cast<double>((p - 1) * s)};
}

// ---------------------------------------------------------------------------------------------
// Every generator, for every group size it serves up to 256 and sampled larger ones. One test
// per (generator, S) and per (generator, P), to keep each short under sanitizers.

struct Algorithm {
  const char* name;
  Generator generator;
  CostFormula costs;
  VerifyOptions options;
  bool even_sizes_only;
  int largest_sample;  // ring and neighbor exchange have Θ(p) rounds: p^2 actions in all
};

const Algorithm algorithms[] = {
    {"ring", allgather_ring, ring_costs, {}, false, 2047},
    {"recursive_doubling", allgather_recursive_doubling, recursive_doubling_costs, {}, false, 4096},
    {"bruck", allgather_bruck, logarithmic_costs, {}, false, 4096},
    {"bruck_noncanonical", allgather_bruck_noncanonical, logarithmic_costs, {.allow_non_canonical = true}, false,
     4096},
    {"sparbit", allgather_sparbit, logarithmic_costs, {}, false, 4096},
    {"neighbor_exchange", allgather_neighbor_exchange, neighbor_exchange_costs, {}, true, 2048},
};

// One test: an algorithm, S and a range of group sizes.
struct Sweep {
  Algorithm algorithm;
  std::uint32_t segments;
  int first;  // group sizes [first, last]
  int last;
};

// Also names the tests (gtest_discover_tests shows the parameter's printed form).
void PrintTo(const Sweep& sweep, std::ostream* out) {
  *out << sweep.algorithm.name << "_S" << sweep.segments << "_P" << sweep.first;
  if (sweep.last != sweep.first) {
    *out << "to" << sweep.last;
  }
}

class AllgatherSweep : public testing::TestWithParam<Sweep> {};

TEST_P(AllgatherSweep, MatchesTheClosedForms) {
  const Sweep& sweep = GetParam();
  for (int p = sweep.first; p <= sweep.last && !HasFatalFailure(); ++p) {
    if (p % 2 == 0 || !sweep.algorithm.even_sizes_only) {
      expect_costs(sweep.algorithm.generator, sweep.algorithm.costs, p, sweep.segments, sweep.algorithm.options);
    }
  }
}

// Group sizes 1..256 in two halves of about equal verification work (about p^2 for one p).
std::vector<Sweep> every_group_size() {
  std::vector<Sweep> sweeps;
  for (const Algorithm& algorithm : algorithms) {
    for (const std::uint32_t s : {0u, 1u, 3u}) {
      sweeps.push_back({algorithm, s, 1, 200});
      sweeps.push_back({algorithm, s, 201, 256});
    }
  }
  return sweeps;
}

std::vector<Sweep> large_groups() {
  std::vector<Sweep> sweeps;
  for (const Algorithm& algorithm : algorithms) {
    for (int p : {257, 1000, 2047, 4096}) {
      p = algorithm.even_sizes_only && p % 2 != 0 ? p + 1 : p;
      if (p <= algorithm.largest_sample) {
        sweeps.push_back({algorithm, 1, p, p});
      }
    }
  }
  return sweeps;
}

INSTANTIATE_TEST_SUITE_P(EveryGroupSizeUpTo256, AllgatherSweep, testing::ValuesIn(every_group_size()));
INSTANTIATE_TEST_SUITE_P(LargeGroups, AllgatherSweep, testing::ValuesIn(large_groups()));

TEST(AllgatherRecursiveDoubling, PowersOfTwoDoubleDistanceAndVolume) {
  // Round k: partner rank ^ 2^k, 2^k contributions.
  const int p = 64;
  const std::uint32_t s = 3;
  for (const int rank : {0, 37, 63}) {
    const Schedule schedule = allgather_recursive_doubling(allgather_shape(p, s), rank);
    std::vector<std::uint32_t> want;
    for (int k = 0; k < 6; ++k) {
      want.push_back((1u << k) * s);
    }
    EXPECT_EQ(blocks_per_round(schedule), want) << "rank " << rank;
    int k = 0;
    for (const Round& round : schedule.rounds) {
      for (const Action& action : round.actions) {
        if (action.kind == ActionKind::send) {
          EXPECT_EQ(action.peer, rank ^ (1 << k)) << "rank " << rank << " round " << k;
          ++k;
        }
      }
    }
  }
}

TEST(AllgatherRecursiveDoubling, FoldsTheExtraRanksInAndOut) {
  // p = 12: p' = 8, r = 4. Rank 0 hands its block to rank 1 and gets the other 11 back in one
  // message; rank 1 (virtual rank 0) then sends groups of 2, 2 + 2 and 4 + 4 contributions.
  const int p = 12;
  const std::uint32_t s = 3;
  EXPECT_EQ(blocks_per_round(allgather_recursive_doubling(allgather_shape(p, s), 0)), std::vector<std::uint32_t>{s});
  EXPECT_EQ(blocks_per_round(allgather_recursive_doubling(allgather_shape(p, s), 1)),
            (std::vector<std::uint32_t>{2 * s, 4 * s, 8 * s, 11 * s}));
  EXPECT_EQ(blocks_per_round(allgather_recursive_doubling(allgather_shape(p, s), 11)),
            (std::vector<std::uint32_t>{1 * s, 2 * s, 4 * s}));
}

TEST(AllgatherBruck, SendsToRankMinusDistanceAndEndsWithOneReorderCopy) {
  const int p = 13;  // rounds of 1, 2, 4 and 13 - 8 = 5 contributions
  const std::uint32_t s = 3;
  const int rank = 2;
  const Schedule schedule = allgather_bruck(allgather_shape(p, s), rank);
  EXPECT_EQ(blocks_per_round(schedule), (std::vector<std::uint32_t>{1 * s, 2 * s, 4 * s, 5 * s}));
  int distance = 1;
  for (const Round& round : schedule.rounds) {
    for (const Action& action : round.actions) {
      if (action.kind == ActionKind::send) {
        EXPECT_EQ(action.peer, modulo(rank - distance, p));
      } else if (action.kind == ActionKind::receive) {
        EXPECT_EQ(action.peer, modulo(rank + distance, p));
        distance *= 2;
      }
    }
  }
  EXPECT_EQ(schedule.scratch_blocks, p * s);
  const Round& last = schedule.rounds.back();
  ASSERT_EQ(last.actions.size(), 1u);
  EXPECT_EQ(last.actions[0].kind, ActionKind::copy);
  EXPECT_EQ(last.actions[0].blocks.size(), p * s);
}

TEST(AllgatherBruckNoncanonical, LeavesTheOutputRotatedWithoutReorder) {
  // Rank i's position t holds rank i + t, so the canonical check rejects the output, and the
  // schedule needs neither scratch nor a local copy after the messages.
  for (const int p : {2, 3, 8, 13}) {
    EXPECT_FALSE(run(allgather_shape(p, 1), allgather_bruck_noncanonical).ok) << "P=" << p;
    const Schedule schedule = allgather_bruck_noncanonical(allgather_shape(p, 1), 1);
    EXPECT_EQ(schedule.scratch_blocks, 0u);
    EXPECT_EQ(schedule.rounds.size(), static_cast<std::size_t>(ceil_log2(static_cast<std::uint32_t>(p))));
  }
}

TEST(AllgatherSparbit, BlocksPerStepMatchThePublishedTable) {
  // Loch & Koslovski 2021, Alg. 1 (its two typos fixed), as an independent simulation of it prints.
  const std::vector<std::pair<int, std::vector<std::uint32_t>>> table = {
      {5, {1, 1, 2}},
      {6, {1, 1, 3}},
      {7, {1, 2, 3}},
      {12, {1, 1, 3, 6}},
      {21, {1, 1, 3, 5, 10}},
      {96, {1, 1, 3, 6, 12, 24, 48}},
      {100, {1, 2, 3, 6, 12, 25, 50}},
      {128, {1, 2, 4, 8, 16, 32, 64}},
      {255, {1, 2, 4, 8, 16, 32, 64, 127}},
      {320, {1, 1, 2, 5, 10, 20, 40, 80, 160}},
  };
  for (const auto& [p, want] : table) {
    expect_costs(allgather_sparbit, logarithmic_costs, p, 1);
    for (const int rank : {0, p / 2, p - 1}) {
      EXPECT_EQ(blocks_per_round(allgather_sparbit(allgather_shape(p, 1), rank)), want)
          << "P=" << p << " rank " << rank;
    }
  }
}

TEST(AllgatherSparbit, DistancesHalveFromTheTop) {
  const int p = 21;  // distances 16, 8, 4, 2, 1
  const int rank = 5;
  const Schedule schedule = allgather_sparbit(allgather_shape(p, 3), rank);
  int distance = 16;
  for (const Round& round : schedule.rounds) {
    for (const Action& action : round.actions) {
      if (action.kind == ActionKind::send) {
        EXPECT_EQ(action.peer, modulo(rank + distance, p));
      } else if (action.kind == ActionKind::receive) {
        EXPECT_EQ(action.peer, modulo(rank - distance, p));
        distance /= 2;
      }
    }
  }
  EXPECT_EQ(distance, 0);
  EXPECT_EQ(schedule.scratch_blocks, 0u);
}

TEST(AllgatherNeighborExchange, AlternatesNeighboursAndMovesPairs) {
  const int p = 10;
  for (const int rank : {0, 3}) {
    const Schedule schedule = allgather_neighbor_exchange(allgather_shape(p, 1), rank);
    EXPECT_EQ(blocks_per_round(schedule), (std::vector<std::uint32_t>{1, 2, 2, 2, 2}));
    int round = 0;
    for (const Round& r : schedule.rounds) {
      for (const Action& action : r.actions) {
        if (action.kind == ActionKind::send) {
          // Even ranks: r + (-1)^s; odd ranks: r - (-1)^s (Loch & Koslovski 2021 §II).
          const int sign = (round % 2 == 0 ? 1 : -1) * (rank % 2 == 0 ? 1 : -1);
          EXPECT_EQ(action.peer, modulo(rank + sign, p)) << "rank " << rank << " round " << round;
          ++round;
        }
      }
    }
  }
}

TEST(AllgatherNeighborExchange, RejectsOddGroupSizes) {
  for (const int p : {1, 3, 7, 255}) {
    try {
      allgather_neighbor_exchange(allgather_shape(p, 1), 0);
      ADD_FAILURE() << "P=" << p << " was accepted";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()),
                "dash::comm::schedule::allgather_neighbor_exchange: invalid argument 'size' = " + std::to_string(p) +
                    "; expected an even group size");
    }
  }
}

// Allgather combines nothing, so the operation's traits must not matter.
TEST(Allgather, IgnoresTheOperationsTraits) {
  for (int p = 1; p <= 64; ++p) {
    for (const std::uint32_t s : {0u, 2u}) {
      expect_costs(allgather_ring, ring_costs, p, s, {}, false);
      expect_costs(allgather_recursive_doubling, recursive_doubling_costs, p, s, {}, false);
      expect_costs(allgather_bruck, logarithmic_costs, p, s, {}, false);
      expect_costs(allgather_bruck_noncanonical, logarithmic_costs, p, s, VerifyOptions{.allow_non_canonical = true},
                   false);
      expect_costs(allgather_sparbit, logarithmic_costs, p, s, {}, false);
      if (p % 2 == 0) {
        expect_costs(allgather_neighbor_exchange, neighbor_exchange_costs, p, s, {}, false);
      }
    }
  }
}

}  // namespace
