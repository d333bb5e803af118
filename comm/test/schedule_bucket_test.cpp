// Bucket schedules on Cartesian grids (Sack 2011 §3.3, §3.4.2, §3.4.4): every generator is verified
// symbolically on cubic, non-cubic, non-power-of-two, mesh and 1-D grids for several segment
// counts, and its measured costs are compared with Sack 2011's invariants: Σ(d_i - 1) rounds and
// (P-1)S blocks per rank for the 1-port bucket, w messages per ring step and a remap of at most
// w messages each way for the multi-port buckets, reduce-scatter the exact reverse of allgather.
//
// Map: Algorithm and the nine generators, shape and grid helpers, Extents and the message lists;
// the parameterised verification with Sack 2011's cost invariants (Case, cases); allreduce's closed
// forms; structure (reverse of the allgather, allreduce as the two, ring order, fences, the 6-way
// remap, message counts); the congestion-aware cost against Sack 2011 §3.5.6; errors.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/network_cost.hpp>
#include <dash/comm/schedule/bucket.hpp>
#include <dash/comm/schedule/verifier.hpp>

#include "grid_names.hpp"

namespace {

using dash::testing::describe;

using namespace dash::comm;
using namespace dash::comm::schedule;

enum class Kind { allgather, reduce_scatter, allreduce };

struct Algorithm {
  const char* name;
  Kind kind;
  int ways;  // 1: the 1-port bucket
};

// Indexed below: 0-2 allgather, 3-5 reduce-scatter, 6-8 allreduce, each 1-port, 3 and 6 ways.
const Algorithm algorithms[] = {
    {"allgather", Kind::allgather, 1},
    {"allgather_3way", Kind::allgather, 3},
    {"allgather_6way", Kind::allgather, 6},
    {"reduce_scatter", Kind::reduce_scatter, 1},
    {"reduce_scatter_3way", Kind::reduce_scatter, 3},
    {"reduce_scatter_6way", Kind::reduce_scatter, 6},
    {"allreduce", Kind::allreduce, 1},
    {"allreduce_3way", Kind::allreduce, 3},
    {"allreduce_6way", Kind::allreduce, 6},
};

Coll collective_of(Kind kind) {
  switch (kind) {
    case Kind::allgather:
      return Coll::allgather;
    case Kind::reduce_scatter:
      return Coll::reduce_scatter;
    case Kind::allreduce:
      break;
  }
  return Coll::allreduce;
}

CollectiveShape shape_of(Kind kind, const CartesianGrid& grid, std::uint32_t segments, bool commutative = true) {
  CollectiveShape shape;
  shape.collective = collective_of(kind);
  shape.size = grid.size();
  shape.segments = segments;
  shape.op.commutative = commutative;
  shape.grid = std::make_shared<const CartesianGrid>(grid);
  return shape;
}

Schedule generate(const Algorithm& algorithm, const CollectiveShape& shape, int rank) {
  const bool one_port = algorithm.ways == 1;
  switch (algorithm.kind) {
    case Kind::allgather:
      return one_port ? allgather_bucket(shape, rank) : allgather_bucket_multiport(shape, rank, algorithm.ways);
    case Kind::reduce_scatter:
      return one_port ? reduce_scatter_bucket(shape, rank)
                      : reduce_scatter_bucket_multiport(shape, rank, algorithm.ways);
    case Kind::allreduce:
      break;
  }
  return one_port ? allreduce_bucket(shape, rank) : allreduce_bucket_multiport(shape, rank, algorithm.ways);
}

VerificationReport run(const Algorithm& algorithm, const CollectiveShape& shape) {
  return verify(shape, [&](int rank) { return generate(algorithm, shape, rank); });
}

CartesianGrid torus(std::vector<int> dims) {
  const std::vector<bool> periodic(dims.size(), true);
  return CartesianGrid(std::move(dims), periodic);
}

CartesianGrid mesh(std::vector<int> dims) {
  const std::vector<bool> periodic(dims.size(), false);
  return CartesianGrid(std::move(dims), periodic);
}

// The grid's ring steps Σ(d_i - 1), its largest extent, and whether all extents are equal.
struct Extents {
  std::uint64_t steps = 0;
  std::uint64_t largest = 1;
  bool uniform = true;
};

Extents extents_of(const CartesianGrid& grid) {
  Extents result;
  for (const int d : grid.dims()) {
    result.steps += static_cast<std::uint64_t>(d - 1);
    result.largest = std::max(result.largest, static_cast<std::uint64_t>(d));
    result.uniform = result.uniform && d == grid.dims().front();
  }
  return result;
}

// The messages of one round: (peer, sends?, blocks), sorted.
using Message = std::tuple<int, bool, std::uint32_t>;

std::vector<Message> messages_of(const Round& round, bool flip = false) {
  std::vector<Message> result;
  for (const Action& action : round.actions) {
    if (action.is_message()) {
      result.emplace_back(action.peer, (action.kind == ActionKind::send) != flip, action.blocks.size());
    }
  }
  std::sort(result.begin(), result.end());
  return result;
}

// The rounds of `schedule` that have messages, in order.
std::vector<std::vector<Message>> communication_of(const Schedule& schedule, bool flip = false) {
  std::vector<std::vector<Message>> result;
  for (const Round& round : schedule.rounds) {
    std::vector<Message> messages = messages_of(round, flip);
    if (!messages.empty()) {
      result.push_back(std::move(messages));
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Verification on tori and meshes, cubic, non-cubic and not powers of two, with cost invariants.

struct Case {
  Algorithm algorithm;
  std::vector<int> dims;
  bool periodic;
  std::vector<std::uint32_t> segment_counts;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.algorithm.name << "_" << (c.periodic ? "torus" : "mesh");
  for (const int d : c.dims) {
    *out << "_" << d;
  }
}

class BucketVerification : public testing::TestWithParam<Case> {};

// Checks the costs Sack 2011 states for `algorithm` on `grid` with S segments.
void expect_costs(const Algorithm& algorithm, const CartesianGrid& grid, std::uint32_t s,
                  const ScheduleMetrics& got, const std::string& where) {
  const auto p = static_cast<std::uint64_t>(grid.size());
  const auto w = static_cast<std::uint64_t>(algorithm.ways);
  const Extents extents = extents_of(grid);
  const auto phases = static_cast<std::uint64_t>(grid.ndims());
  const bool allreduce = algorithm.kind == Kind::allreduce;
  // Every slot of a bucket reaches the P - 1 other ranks once (allgather) or collects from them
  // once (reduce-scatter); the multi-port remap moves at most the whole input once more.
  if (allreduce) {
    EXPECT_EQ(got.total_blocks_sent, 2 * (p - 1) * s) << where;
  } else if (w == 1) {
    EXPECT_EQ(got.total_blocks_sent, p * (p - 1) * s) << where;
  } else {
    EXPECT_GE(got.total_blocks_sent, p * (p - 1) * s) << where;
    EXPECT_LE(got.total_blocks_sent, p * p * s) << where;
  }
  // Exact forms where every section has the same size.
  const std::uint64_t sections = allreduce ? w * p : w;
  if (p == 1 || s == 0 || s % sections != 0) {
    return;
  }
  const std::uint64_t section = s / sections;
  if (w == 1 && !allreduce) {
    EXPECT_EQ(got.max_communication_rounds, extents.steps) << where;
    EXPECT_EQ(got.max_messages_sent, extents.steps) << where;
    EXPECT_EQ(got.max_blocks_sent, (p - 1) * s) << where;
    EXPECT_EQ(got.critical_startups, static_cast<double>(extents.steps)) << where;
    EXPECT_EQ(got.critical_blocks, static_cast<double>((p - 1) * s)) << where;
    const bool reduces = algorithm.kind == Kind::reduce_scatter;
    EXPECT_EQ(got.critical_reduced_blocks, reduces ? static_cast<double>((p - 1) * s) : 0.0) << where;
    return;
  }
  if (allreduce) {
    // Reduce-scatter then allgather phases, no remap.
    const std::uint64_t rounds = w == 1 ? 2 * extents.steps : 2 * phases * (extents.largest - 1);
    EXPECT_EQ(got.max_communication_rounds, rounds) << where;
    EXPECT_EQ(got.max_messages_sent, 2 * w * extents.steps) << where;
    EXPECT_EQ(got.max_blocks_sent, 2 * (p - 1) * w * section) << where;
    if (extents.uniform) {
      EXPECT_EQ(got.critical_blocks, static_cast<double>(2 * (p - 1) * section)) << where;
      EXPECT_EQ(got.critical_reduced_blocks, static_cast<double>((p - 1) * section)) << where;
    }
    return;
  }
  // Multi-port: the remap round plus, in every phase, as many rounds as the longest ring (each
  // phase runs a ring in every dimension when there are no more dimensions than orders); w
  // messages per ring step.
  EXPECT_EQ(got.max_communication_rounds, 1 + phases * (extents.largest - 1)) << where;
  EXPECT_GE(got.max_messages_sent, w * extents.steps) << where;
  EXPECT_LE(got.max_messages_sent, w * extents.steps + w) << where;
  EXPECT_GE(got.max_blocks_sent, (p - 1) * s) << where;
  EXPECT_LE(got.max_blocks_sent, p * s) << where;
  if (extents.uniform) {
    // Every ring step moves equal messages on all links: (P-1)S/w, plus one section remapped.
    EXPECT_EQ(got.critical_startups, static_cast<double>(1 + phases * (extents.largest - 1))) << where;
    EXPECT_EQ(got.critical_blocks, static_cast<double>(p * section)) << where;
  }
}

// The remap round of a multi-port allgather (first) or reduce-scatter (last): at most w
// messages each way, at most 2w peers (about 12 for 6 ways).
void expect_small_remap(const Algorithm& algorithm, const CollectiveShape& shape, const std::string& where) {
  if (algorithm.ways == 1 || algorithm.kind == Kind::allreduce) {
    return;
  }
  for (int rank = 0; rank < shape.size; ++rank) {
    const Schedule schedule = generate(algorithm, shape, rank);
    if (schedule.rounds.empty()) {
      continue;
    }
    const Round& remap =
        algorithm.kind == Kind::allgather ? schedule.rounds.front() : schedule.rounds.back();
    int sends = 0;
    int receives = 0;
    std::set<int> peers;
    for (const Action& action : remap.actions) {
      sends += action.kind == ActionKind::send ? 1 : 0;
      receives += action.kind == ActionKind::receive ? 1 : 0;
      if (action.is_message()) {
        peers.insert(action.peer);
      }
    }
    EXPECT_LE(sends, algorithm.ways) << where << " rank " << rank;
    EXPECT_LE(receives, algorithm.ways) << where << " rank " << rank;
    EXPECT_LE(peers.size(), static_cast<std::size_t>(2 * algorithm.ways)) << where << " rank " << rank;
  }
}

TEST_P(BucketVerification, ComputesTheCollectiveAtThePublishedCosts) {
  const Case& c = GetParam();
  const CartesianGrid grid = c.periodic ? torus(c.dims) : mesh(c.dims);
  for (const std::uint32_t s : c.segment_counts) {
    const CollectiveShape shape = shape_of(c.algorithm.kind, grid, s);
    const std::string where = describe(grid) + " S=" + std::to_string(s);
    const VerificationReport report = run(c.algorithm, shape);
    ASSERT_TRUE(report.ok) << where << ": " << report.error;
    expect_costs(c.algorithm, grid, s, report.metrics, where);
    expect_small_remap(c.algorithm, shape, where);
  }
}

std::vector<Case> cases() {
  const std::vector<std::uint32_t> all_counts = {0, 1, 5, 6, 7, 13};
  struct GridCase {
    std::vector<int> dims;
    bool periodic;
    std::vector<std::uint32_t> counts;
  };
  std::vector<GridCase> grids = {
      {{2, 2, 2}, true, all_counts}, {{4, 4, 4}, true, all_counts}, {{2, 4, 8}, true, all_counts},
      {{2, 4, 8}, false, {1, 6}},    {{8, 8, 8}, true, {0, 6}},     {{3, 5, 2}, true, all_counts},
      {{3, 5, 2}, false, {1, 6}},    {{4, 4}, false, all_counts},   {{4, 4}, true, all_counts},
      {{6, 6}, true, all_counts},    {{1, 1}, true, all_counts},    {{1, 1}, false, {1}},
  };
  for (int p = 1; p <= 16; ++p) {
    grids.push_back({{p}, true, all_counts});
  }
  std::vector<Case> result;
  for (const Algorithm& algorithm : algorithms) {
    for (const GridCase& grid : grids) {
      const bool has_wrap_links = grid.periodic || grid.dims == std::vector<int>{1, 1};
      if (algorithm.ways != 6 || has_wrap_links) {
        result.push_back({algorithm, grid.dims, grid.periodic, grid.counts});
      }
    }
  }
  return result;
}

INSTANTIATE_TEST_SUITE_P(PublishedGrids, BucketVerification, testing::ValuesIn(cases()), testing::PrintToStringParamName());

// Allreduce with sections of equal size (S a multiple of w·P) on a few grids, for the exact forms.
TEST(BucketAllreduce, EqualSectionsGiveTheClosedForms) {
  for (const Algorithm& algorithm : algorithms) {
    if (algorithm.kind != Kind::allreduce) {
      continue;
    }
    for (const CartesianGrid& grid : {torus({2, 2, 2}), torus({4, 4}), torus({3, 5, 2}), torus({7})}) {
      const auto s = static_cast<std::uint32_t>(algorithm.ways * grid.size() * 2);
      const CollectiveShape shape = shape_of(Kind::allreduce, grid, s);
      const std::string where = std::string(algorithm.name) + " " + describe(grid) + " S=" + std::to_string(s);
      const VerificationReport report = run(algorithm, shape);
      ASSERT_TRUE(report.ok) << where << ": " << report.error;
      expect_costs(algorithm, grid, s, report.metrics, where);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Structure.

TEST(BucketReduceScatter, IsTheExactReverseOfTheAllgather) {
  // Round by round, every rank's messages in the reduce-scatter are those of the allgather in
  // reverse order, sends and receives swapped, with the same peers and block counts.
  for (const int ways : {1, 3, 6}) {
    for (const CartesianGrid& grid : {torus({2, 4, 8}), torus({3, 5, 2}), torus({6, 6}), torus({5})}) {
      for (const std::uint32_t s : {1u, 6u, 7u}) {
        const CollectiveShape gather = shape_of(Kind::allgather, grid, s);
        const CollectiveShape scatter = shape_of(Kind::reduce_scatter, grid, s);
        for (int rank = 0; rank < grid.size(); ++rank) {
          const Schedule forward = ways == 1 ? allgather_bucket(gather, rank)
                                             : allgather_bucket_multiport(gather, rank, ways);
          const Schedule backward = ways == 1 ? reduce_scatter_bucket(scatter, rank)
                                              : reduce_scatter_bucket_multiport(scatter, rank, ways);
          auto reversed = communication_of(backward, true);
          std::reverse(reversed.begin(), reversed.end());
          ASSERT_EQ(reversed, communication_of(forward))
              << ways << " ways, " << describe(grid) << " S=" << s << " rank " << rank;
        }
      }
    }
  }
}

// Messages of a schedule as (peer, sends?) per communication round, ignoring block counts.
std::vector<std::vector<std::pair<int, bool>>> peers_of(const Schedule& schedule) {
  std::vector<std::vector<std::pair<int, bool>>> result;
  for (const std::vector<Message>& round : communication_of(schedule)) {
    std::vector<std::pair<int, bool>> peers;
    for (const auto& [peer, sends, blocks] : round) {
      peers.emplace_back(peer, sends);
    }
    result.push_back(std::move(peers));
  }
  return result;
}

TEST(BucketAllreduce, IsReduceScatterThenAllgatherWithoutTheRemaps) {
  for (const int ways : {1, 3, 6}) {
    const CartesianGrid grid = torus({2, 3, 4});
    const auto p = static_cast<std::uint32_t>(grid.size());
    const auto w = static_cast<std::uint32_t>(ways);
    const CollectiveShape reduce = shape_of(Kind::allreduce, grid, w * p);
    const CollectiveShape scatter = shape_of(Kind::reduce_scatter, grid, w);
    const CollectiveShape gather = shape_of(Kind::allgather, grid, w);
    for (int rank = 0; rank < grid.size(); ++rank) {
      auto first = peers_of(ways == 1 ? reduce_scatter_bucket(scatter, rank)
                                      : reduce_scatter_bucket_multiport(scatter, rank, ways));
      auto second = peers_of(ways == 1 ? allgather_bucket(gather, rank)
                                       : allgather_bucket_multiport(gather, rank, ways));
      if (ways > 1) {
        first.pop_back();
        second.erase(second.begin());
      }
      first.insert(first.end(), second.begin(), second.end());
      const Schedule combined = ways == 1 ? allreduce_bucket(reduce, rank)
                                          : allreduce_bucket_multiport(reduce, rank, ways);
      EXPECT_EQ(peers_of(combined), first) << ways << " ways, rank " << rank;
      EXPECT_EQ(combined.scratch_blocks, 0u);
    }
  }
}

TEST(BucketAllgather, RingsRunFastestDimensionFirstWithGrowingMessages) {
  // 3x5x2 (our dimension 2 is Sack's X): a ring of 2, then of 5 (messages of 2
  // contributions), then of 3 (messages of 10); each round one message to the next coordinate.
  const CartesianGrid grid = torus({3, 5, 2});
  const std::uint32_t s = 4;
  const CollectiveShape shape = shape_of(Kind::allgather, grid, s);
  const int rank = grid.rank_of(std::vector<int>{1, 4, 1});
  const Schedule schedule = allgather_bucket(shape, rank);
  const auto rounds = communication_of(schedule);
  ASSERT_EQ(rounds.size(), 1u + 4u + 2u);
  std::vector<Message> want_first = {{grid.rank_of(std::vector<int>{1, 4, 0}), false, s},
                                     {grid.rank_of(std::vector<int>{1, 4, 0}), true, s}};
  std::sort(want_first.begin(), want_first.end());
  EXPECT_EQ(rounds[0], want_first);
  for (std::size_t r = 1; r < 5; ++r) {
    EXPECT_EQ(rounds[r], (std::vector<Message>{{grid.rank_of(std::vector<int>{1, 0, 1}), true, 2 * s},
                                                {grid.rank_of(std::vector<int>{1, 3, 1}), false, 2 * s}}));
  }
  for (std::size_t r = 5; r < 7; ++r) {
    EXPECT_EQ(rounds[r], (std::vector<Message>{{grid.rank_of(std::vector<int>{0, 4, 1}), false, 10 * s},
                                                {grid.rank_of(std::vector<int>{2, 4, 1}), true, 10 * s}}));
  }
}

TEST(Bucket, MultiPortRoundsAreFencedOnePortRoundsRunAhead) {
  // Multi-port buckets run in lockstep (every round after the first fenced, so no bucket's send
  // runs ahead onto a link another bucket still uses); the 1-port bucket's rings never collide.
  const CartesianGrid grid = torus({3, 4, 2});
  for (const Algorithm& algorithm : algorithms) {
    SCOPED_TRACE(algorithm.name);
    const CollectiveShape shape = shape_of(algorithm.kind, grid, 6);
    for (int rank = 0; rank < grid.size(); ++rank) {
      const Schedule schedule = generate(algorithm, shape, rank);
      ASSERT_GT(schedule.rounds.size(), 1u);
      for (std::size_t r = 1; r < schedule.rounds.size(); ++r) {
        EXPECT_EQ(schedule.rounds[r].fence, algorithm.ways > 1) << "rank " << rank << ", round " << r;
      }
    }
  }
}

TEST(BucketAllgather6Way, RemapsSectionsAsThePublishedWorkedExample) {
  // Sack 2011 §3.4.2 on 8x8x8: section 3 of process 200 is s = 1203, bucket ⌊1203/512⌋ = 2 (YZX+),
  // slot 179, which is process 410's slot in that bucket.
  const CollectiveShape shape = shape_of(Kind::allgather, torus({8, 8, 8}), 6);
  const Schedule schedule = allgather_bucket_multiport(shape, 200, 6);
  ASSERT_FALSE(schedule.rounds.empty());
  bool found = false;
  for (const Action& action : schedule.rounds.front().actions) {
    if (action.kind == ActionKind::send && action.blocks == BlockSet::range(3, 1)) {
      EXPECT_EQ(action.peer, 410);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  // Process 410 puts it at its canonical place: contribution 200, segment 3.
  const Schedule receiver = allgather_bucket_multiport(shape, 410, 6);
  bool received = false;
  for (const Action& action : receiver.rounds.front().actions) {
    if (action.kind == ActionKind::receive && action.peer == 200) {
      EXPECT_EQ(action.blocks, BlockSet::range(200 * 6 + 3, 1));
      received = true;
    }
  }
  EXPECT_TRUE(received);
}

TEST(BucketAllgather6Way, Sends106MessagesPerPhaseOn8x16x32) {
  // Sack 2011 §3.5.6, second example: X = 8, Y = 16, Z = 32 (our dims 32x16x8). Every phase runs
  // two rings (one each way) in every dimension: 2((X-1) + (Y-1) + (Z-1)) = 106 messages per rank,
  // in Z - 1 = 31 rounds; the remap adds at most 6.
  const CollectiveShape shape = shape_of(Kind::allgather, torus({32, 16, 8}), 6);
  for (const int rank : {0, 1, 777, 4095}) {
    const Schedule schedule = allgather_bucket_multiport(shape, rank, 6);
    ASSERT_EQ(schedule.rounds.size(), 1u + 3u * 31u) << "rank " << rank;
    EXPECT_LE(messages_of(schedule.rounds.front()).size(), 12u);
    for (std::size_t phase = 0; phase < 3; ++phase) {
      std::size_t sends = 0;
      for (std::size_t r = 1 + 31 * phase; r < 1 + 31 * (phase + 1); ++r) {
        for (const Message& message : messages_of(schedule.rounds[r])) {
          sends += std::get<1>(message) ? 1u : 0u;
        }
      }
      EXPECT_EQ(sends, 106u) << "rank " << rank << " phase " << phase;
    }
  }
}

TEST(BucketAllgather3Way, NonCubicPhasesWaitForTheLongestRing) {
  // 2x4x8 torus, S = 3 (one segment per section): the buckets' phase q rings and message sizes
  // in slots are XYZ (8:1, 4:8, 2:32), YZX (4:1, 2:4, 8:8), ZXY (2:1, 8:2, 4:16). Per round the
  // largest message bounds the critical path: 7·1 + (3·8 + 4·2) + (32 + 2·16 + 4·8) = 135 slots,
  // plus the remap's one.
  const CartesianGrid grid = torus({2, 4, 8});
  const VerificationReport report = run(algorithms[1], shape_of(Kind::allgather, grid, 3));
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_EQ(report.metrics.critical_blocks, 136.0);
  EXPECT_EQ(report.metrics.max_communication_rounds, 1u + 3u * 7u);
}

// ---------------------------------------------------------------------------------------------
// Congestion-aware cost (network_cost.hpp) against the figures of Sack 2011 §3.5.6 and predictions
// recomputed from its model.

Network torus_network(const std::vector<int>& dims) {
  Network network;
  network.kind = NetworkKind::grid;
  network.dims = dims;
  network.wrap.assign(dims.size(), true);
  return network;
}

NetworkCostTerms cost_of(const Algorithm& algorithm, const CollectiveShape& shape, bool multi_port) {
  return network_cost(shape, [&](int rank) { return generate(algorithm, shape, rank); },
                      torus_network(shape.grid->dims()), NetworkCostOptions{multi_port, 1.0});
}

// Σ of stage loads [first, last).
double load_of(const NetworkCostTerms& terms, std::size_t first, std::size_t last) {
  double sum = 0;
  for (std::size_t k = first; k < last; ++k) {
    sum += terms.stage_link_blocks[k];
  }
  return sum;
}

TEST(BucketNetworkCost, OnePortBucketOn8x8x8CostsNTimesPMinusOne) {
  // Sack 2011's model: 511 nδ, 3(∛P - 1) = 21 start-ups; congestion-free, one link per stage.
  for (const std::uint32_t s : {1u, 6u}) {
    const NetworkCostTerms terms = cost_of(algorithms[0], shape_of(Kind::allgather, torus({8, 8, 8}), s), false);
    EXPECT_EQ(terms.startups, 21.0);
    EXPECT_EQ(terms.link_blocks, 511.0 * s);
    // The reduce-scatter runs the same messages backwards.
    EXPECT_EQ(cost_of(algorithms[3], shape_of(Kind::reduce_scatter, torus({8, 8, 8}), s), false).link_blocks,
              511.0 * s);
  }
}

TEST(BucketNetworkCost, MultiPortBucketsOnACubeDivideTheBandwidthByTheWays) {
  // Sack 2011 §3.4.2 on 8x8x8: every link carries one bucket per ring step, so the phases cost
  // (P-1)n/w, with w·3(∛P - 1) start-ups (6 ways: 126 ≈ 18∛P) plus the remap's w.
  for (const int ways : {3, 6}) {
    const auto s = static_cast<std::uint32_t>(ways);  // one block per section: n/w
    const Algorithm& algorithm = algorithms[ways == 3 ? 1 : 2];
    const NetworkCostTerms terms = cost_of(algorithm, shape_of(Kind::allgather, torus({8, 8, 8}), s), true);
    ASSERT_EQ(terms.stage_link_blocks.size(), 1u + 21u);
    EXPECT_EQ(terms.startups, 21.0 * ways + ways);
    EXPECT_EQ(load_of(terms, 1, 22), 511.0) << ways << " ways";
  }
}

// `schedule` with rounds [bounds[i], bounds[i+1]) merged into one: a stage per phase, in which
// every link's messages form an independent train (Sack 2011's §3.1 model for multi-port buckets).
Schedule phases_as_stages(const Schedule& schedule, const std::vector<std::size_t>& bounds) {
  Schedule merged = schedule;
  merged.rounds.clear();
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    Round& stage = merged.add_round();
    for (std::size_t r = bounds[i]; r < bounds[i + 1]; ++r) {
      const auto& actions = schedule.rounds[r].actions;
      stage.actions.insert(stage.actions.end(), actions.begin(), actions.end());
    }
  }
  return merged;
}

TEST(BucketNetworkCost, SixBucketOn8x16x32AgainstThePublishedCount) {
  // Sack 2011 §3.5.6, second example (X = 8, Y = 16, Z = 32; our dims 32x16x8): 327α + (4591/6)nδ =
  // (3 + 6 + 3·106)α + (8 + 8 + 31/6 + 496/6 + 3968/6)nδ, for a pad-to-6 stage, the remap, and
  // three phases. S = 6: one block is n/6.
  const CollectiveShape shape = shape_of(Kind::allgather, torus({32, 16, 8}), 6);
  const NetworkCostTerms terms = cost_of(algorithms[2], shape, true);
  ASSERT_EQ(terms.stage_link_blocks.size(), 1u + 3u * 31u);
  // No pad stage (sections of unequal size instead), so 6 + 318 start-ups: Sack's 327 - 3.
  EXPECT_EQ(terms.startups, 324.0);
  // The remap: 6 messages of n/6 per rank under dimension-ordered routing load a link with
  // 16n; Sack charges it 8n, the bisection bound nZ/4, which network_cost applies to
  // permutation stages only.
  EXPECT_EQ(terms.stage_link_blocks[0], 96.0);
  // Phase 1 (rings of 8, 16, 32 carrying n/6 each): 31 rounds of n/6, Sack's 31n/6.
  EXPECT_EQ(load_of(terms, 1, 32), 31.0);
  // Phases 2 and 3 in lockstep rounds: a round costs its largest message, so the short rings'
  // large messages count on top of the longest ring's train: 7·32 + 24·16 = 608 (Sack: 31·16 =
  // 496) and 7·512 + 8·256 + 16·128 = 7680 (Sack: 31·128 = 3968).
  EXPECT_EQ(load_of(terms, 32, 63), 608.0);
  EXPECT_EQ(load_of(terms, 63, 94), 7680.0);

  // Sack's model lets each link's message train run on its own within a phase. One stage
  // per phase gives exactly its numbers: 106 start-ups and 31, 496, 3968 blocks.
  const std::vector<std::size_t> bounds = {0, 1, 32, 63, 94};
  const NetworkCostTerms trains = network_cost(
      shape, [&](int rank) { return phases_as_stages(allgather_bucket_multiport(shape, rank, 6), bounds); },
      torus_network(shape.grid->dims()), NetworkCostOptions{true, 1.0});
  EXPECT_EQ(trains.startups, 6.0 + 3 * 106.0);
  // The remaining gap to Sack's 327α + (4591/6)nδ: its pad stage (3α + 8n = 48 blocks), and
  // the remap's 96 blocks here against its 48: 324 + 3 = 327, 4591 = 4495 + 48 + 48.
  EXPECT_EQ(trains.stage_link_blocks, (std::vector<double>{96.0, 31.0, 496.0, 3968.0}));
}

// ---------------------------------------------------------------------------------------------
// Errors.

template <class Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const dash::InvalidArgument& error) {
    return error.what();
  }
  return "no error";
}

TEST(Bucket, RejectsAMissingOrMismatchedGrid) {
  CollectiveShape shape = shape_of(Kind::allgather, torus({2, 2}), 1);
  shape.grid.reset();
  EXPECT_EQ(error_of([&] { allgather_bucket(shape, 0); }),
            "dash::comm::schedule::allgather_bucket: shape.grid is not set; bucket schedules run on a process grid");
  shape.grid = std::make_shared<const CartesianGrid>(torus({2, 3}));
  EXPECT_EQ(error_of([&] { allgather_bucket_multiport(shape, 0, 3); }),
            "dash::comm::schedule::allgather_bucket_multiport: invalid argument 'shape.size' = 4; expected the "
            "number of ranks of shape.grid, 6");
}

TEST(Bucket, RejectsWaysOtherThanThreeOrSix) {
  const CollectiveShape shape = shape_of(Kind::reduce_scatter, torus({2, 2}), 1);
  for (const int ways : {0, 1, 2, 4, 5, 7}) {
    EXPECT_EQ(error_of([&] { reduce_scatter_bucket_multiport(shape, 0, ways); }),
              "dash::comm::schedule::reduce_scatter_bucket_multiport: invalid argument 'ways' = " +
                  std::to_string(ways) + "; expected 3 or 6");
  }
}

TEST(Bucket, RejectsSixWaysWithoutWrapAround) {
  const CartesianGrid grid(std::vector<int>{4, 1, 3}, std::vector<bool>{true, false, false});
  const CollectiveShape shape = shape_of(Kind::allreduce, grid, 1);
  EXPECT_EQ(error_of([&] { allreduce_bucket_multiport(shape, 0, 6); }),
            "dash::comm::schedule::allreduce_bucket_multiport: invalid argument 'ways' = 6; expected 3 on this "
            "grid: 6 ways run rings in both directions and need wrap-around links, but dimension 2 (extent 3) of "
            "shape.grid is not periodic");
  EXPECT_TRUE(run(algorithms[7], shape).ok);
}

TEST(Bucket, ReductionsRejectNonCommutativeOperations) {
  const CartesianGrid grid = torus({2, 2});
  for (const Algorithm& algorithm : algorithms) {
    const CollectiveShape shape = shape_of(algorithm.kind, grid, 1, false);
    if (algorithm.kind == Kind::allgather) {
      EXPECT_TRUE(run(algorithm, shape).ok) << algorithm.name;
      continue;
    }
    const std::string error = error_of([&] { generate(algorithm, shape, 0); });
    EXPECT_NE(error.find("invalid argument 'shape.op.commutative' = 'false'; expected a commutative operation"),
              std::string::npos)
        << algorithm.name << ": " << error;
  }
}

}  // namespace
