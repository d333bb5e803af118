// Rooted collectives (bcast, gather, scatter), barrier and prefix reductions (scan, exscan): every
// generator is run through the verifier for all group sizes 1..256 and sampled large ones, every
// kind of root, with and without data, and its measured costs are compared with the closed forms
// of Kowalewski 2021 §4 (Eq. 4.1-4.6) derived for the exact construction.
//
// Map: Expected, the sizes and roots swept, and the verify-and-compare check; the closed-form
// helpers (binomial depth, digit sums, k-ary critical path); then by collective: broadcast (binomial,
// k-ary tree, pipelined chain and binary tree, scatter + allgather), scatter and gather (linear,
// binomial), trees sending one message at a time, barrier (dissemination), scan and exscan.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/barrier.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/gather.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/scan.hpp>
#include <dash/comm/schedule/scatter.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using Generator = std::function<Schedule(const CollectiveShape&, int)>;
using U64 = std::uint64_t;

// The metrics a schedule must have, all exact.
struct Expected {
  std::size_t rounds = 0;
  std::size_t max_messages = 0;
  std::size_t total_messages = 0;
  U64 max_blocks = 0;
  U64 total_blocks = 0;
  double startups = 0;
  double blocks = 0;
  double reduced = 0;
};

using Formula = std::function<Expected(int p, std::uint32_t s)>;

std::vector<int> all_sizes_to(int largest) {
  std::vector<int> sizes;
  for (int p = 1; p <= largest; ++p) {
    sizes.push_back(p);
  }
  return sizes;
}

const std::vector<int> small_sizes = all_sizes_to(256);
const std::vector<int> large_sizes = {257, 1000, 2047, 4096};
const std::vector<std::uint32_t> segment_counts = {0, 1, 3};

std::vector<int> roots_of(Coll collective, int p) {
  CollectiveShape shape;
  shape.collective = collective;
  if (!shape.is_rooted()) {
    return {0};
  }
  std::vector<int> roots = {0, p / 2, p - 1};
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

std::string context(const CollectiveShape& shape, const std::string& algorithm) {
  return algorithm + " " + std::string(to_string(shape.collective)) + " p=" + std::to_string(shape.size) +
         " root=" + std::to_string(shape.root) + " S=" + std::to_string(shape.segments) +
         (shape.op.commutative ? "" : " non-commutative");
}

// Verifies `generator` for every size, root and segment count, comparing the metrics with
// `formula`; stops at the first failing case.
void sweep(Coll collective, const Generator& generator, const Formula& formula, const std::vector<int>& sizes,
           const std::vector<std::uint32_t>& segments = segment_counts, OpTraits op = {}) {
  for (const int p : sizes) {
    for (const int root : roots_of(collective, p)) {
      for (const std::uint32_t s : segments) {
        CollectiveShape shape;
        shape.collective = collective;
        shape.size = p;
        shape.root = root;
        shape.segments = s;
        shape.op = op;
        const VerificationReport report = verify(shape, [&](int rank) { return generator(shape, rank); });
        const std::string where = context(shape, generator(shape, 0).algorithm);
        ASSERT_TRUE(report.ok) << where << ": " << report.error;
        const Expected want = formula(p, s);
        const ScheduleMetrics& got = report.metrics;
        EXPECT_EQ(got.max_communication_rounds, want.rounds) << where;
        EXPECT_EQ(got.max_messages_sent, want.max_messages) << where;
        EXPECT_EQ(got.total_messages, want.total_messages) << where;
        EXPECT_EQ(got.max_blocks_sent, want.max_blocks) << where;
        EXPECT_EQ(got.total_blocks_sent, want.total_blocks) << where;
        EXPECT_EQ(got.critical_startups, want.startups) << where;
        EXPECT_EQ(got.critical_blocks, want.blocks) << where;
        EXPECT_EQ(got.critical_reduced_blocks, want.reduced) << where;
        if (::testing::Test::HasFailure()) {
          return;
        }
      }
    }
  }
}

U64 u(std::int64_t value) { return static_cast<U64>(value); }
std::size_t z(std::int64_t value) { return static_cast<std::size_t>(value); }
int lg(int p) { return ceil_log2(static_cast<std::uint32_t>(p)); }

// Σ_{v < p} popcount(v): the sum of all depths in a binomial tree of p ranks (depth = popcount of
// the relative rank), i.e. the sum of the sizes of all subtrees below the root.
U64 binomial_depth_sum(int p) {
  U64 sum = 0;
  for (int v = 1; v < p; ++v) {
    sum += static_cast<U64>(std::popcount(static_cast<unsigned>(v)));
  }
  return sum;
}

// The largest base-k digit sum of the numbers 0..n: n itself, or n with one nonzero digit
// lowered by one and every digit below it raised to k - 1.
int max_digit_sum(std::int64_t n, int k) {
  std::vector<int> digits;  // least significant first
  for (std::int64_t rest = n; rest > 0; rest /= k) {
    digits.push_back(static_cast<int>(rest % k));
  }
  int best = 0;
  int above = 0;  // digit sum of the higher positions
  for (std::size_t i = digits.size(); i-- > 0;) {
    if (digits[i] > 0) {
      best = std::max(best, above + digits[i] - 1 + static_cast<int>(i) * (k - 1));
    }
    above += digits[i];
  }
  return std::max(best, above);
}

// Critical start-ups T_k(p) of a one-port broadcast down the heap-ordered k-ary tree: a node that
// is the c-th child of its parent gets the message c start-ups after it, so T_k(p) is the largest
// sum of child positions on a root-to-node path. The full levels d < D (D = depth of rank p - 1)
// peak at k d (always the last child); the node at offset o of the last level costs D plus the
// base-k digit sum of o, and that level holds offsets 0 .. p - 1 - first(D).
double kary_critical(int p, int k) {
  std::int64_t first = 0;  // index of the first node of level `depth`
  std::int64_t width = 1;
  int depth = 0;
  while (first + width <= p - 1) {
    first += width;
    width *= k;
    ++depth;
  }
  if (depth == 0) {
    return 0;
  }
  return std::max(k * (depth - 1), depth + max_digit_sum(p - 1 - first, k));
}

// ---------------------------------------------------------------------------------------- bcast

Expected binomial_bcast(int p, std::uint32_t s) {
  const int l = lg(p);
  return {z(l), z(l), z(p - 1), u(l) * s, u(p - 1) * s, double(l), double(l) * s, 0};
}

TEST(BcastSchedules, BinomialTakesCeilLgPRoundsFromAnyRoot) {
  sweep(Coll::bcast, bcast_binomial, binomial_bcast, small_sizes);
  sweep(Coll::bcast, bcast_binomial, binomial_bcast, large_sizes);
}

Formula kary_bcast(int k) {
  return [k](int p, std::uint32_t s) {
    const int fan_out = std::min(k, p - 1);  // children of the root
    // Rank 1 receives, then serves its own children (k + 1 .. 2k).
    const int rounds = p <= k + 1 ? p - 1 : std::max(k, 1 + std::min(k, p - 1 - k));
    const double critical = kary_critical(p, k);
    return Expected{z(rounds), z(fan_out), z(p - 1), u(fan_out) * s, u(p - 1) * s, critical, critical * s, 0};
  };
}

TEST(BcastSchedules, KaryTreeCostsTheLargestSumOfChildPositions) {
  for (const int k : {2, 3, 4, 7}) {
    auto generator = [k](const CollectiveShape& shape, int rank) { return bcast_kary_tree(shape, rank, k); };
    sweep(Coll::bcast, generator, kary_bcast(k), small_sizes);
    sweep(Coll::bcast, generator, kary_bcast(k), large_sizes);
  }
}

TEST(BcastSchedules, KaryTreeOnCompleteTreesCostsKPerLevel) {
  // Eq. 4.1: ⌊log_k p⌋ levels, each costing the sender k start-ups.
  for (const int k : {2, 3, 4, 5}) {
    std::int64_t p = 1;
    for (int levels = 0; p <= 4096; ++levels, p = p * k + 1) {
      CollectiveShape shape;
      shape.collective = Coll::bcast;
      shape.size = static_cast<int>(p);
      const VerificationReport report =
          verify(shape, [&](int rank) { return bcast_kary_tree(shape, rank, k); });
      ASSERT_TRUE(report.ok) << "k=" << k << " p=" << p << ": " << report.error;
      EXPECT_EQ(report.metrics.critical_startups, k * levels) << "k=" << k << " p=" << p;
      EXPECT_EQ(report.metrics.critical_startups, kary_critical(static_cast<int>(p), k))
          << "k=" << k << " p=" << p;
    }
  }
}

TEST(BcastSchedules, KaryTreeWithAFanOutAtLeastPMinusOneIsTheLinearBroadcast) {
  CollectiveShape shape;
  shape.collective = Coll::bcast;
  shape.size = 9;
  shape.segments = 2;
  const VerificationReport report = verify(shape, [&](int rank) { return bcast_kary_tree(shape, rank, 8); });
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_EQ(report.metrics.critical_startups, 8);
  EXPECT_EQ(report.metrics.max_messages_sent, 8u);
}

TEST(BcastSchedules, KaryTreeRejectsAnArityBelowTwo) {
  CollectiveShape shape;
  shape.collective = Coll::bcast;
  shape.size = 4;
  EXPECT_THROW(bcast_kary_tree(shape, 0, 1), dash::InvalidArgument);
  EXPECT_THROW(bcast_kary_tree(shape, 0, 0), dash::InvalidArgument);
}

Expected pipelined_chain(int p, std::uint32_t s) {
  if (p == 1 || s == 0) {
    return {};
  }
  // Inner ranks: receive block 0, then S rounds of (send block j, receive block j + 1).
  const std::size_t rounds = p == 2 ? s : s + 1;
  const double critical = p - 2.0 + s;  // Eq. 4.5
  return {rounds, s, z(p - 1) * s, s, u(p - 1) * s, critical, critical, 0};
}

TEST(BcastSchedules, PipelinedChainTakesPPlusSMinusTwoStartups) {
  sweep(Coll::bcast, bcast_pipelined_chain, pipelined_chain, small_sizes, {0, 1, 3, 16});
  sweep(Coll::bcast, bcast_pipelined_chain, pipelined_chain, {257, 1000}, {0, 1, 3, 16});
}

Expected pipelined_binary_tree(int p, std::uint32_t s) {
  if (p == 1 || s == 0) {
    return {};
  }
  const int fan_out = std::min(2, p - 1);
  // Rank 1 has two children from p = 5 on: receive block 0, then 2 S sends.
  const std::size_t rounds = p >= 5 ? 2 * std::size_t{s} + 1 : z(fan_out) * s;
  // Eq. 4.6 for one-port rounds: the tree's depth cost, then 2 start-ups per further block.
  const double critical = kary_critical(p, 2) + fan_out * (s - 1.0);
  return {rounds, z(fan_out) * s, z(p - 1) * s, u(fan_out) * s, u(p - 1) * s, critical, critical, 0};
}

TEST(BcastSchedules, PipelinedBinaryTreeAddsTwoStartupsPerBlock) {
  sweep(Coll::bcast, bcast_pipelined_binary_tree, pipelined_binary_tree, small_sizes, {0, 1, 3, 16});
  sweep(Coll::bcast, bcast_pipelined_binary_tree, pipelined_binary_tree, large_sizes, {0, 1, 3, 16});
}

// The blocks of the parts of relative ranks [first, last) in bcast_scatter_allgather.
U64 parts(int p, std::uint32_t s, int first, int last) {
  return U64{s} * u(last) / u(p) - U64{s} * u(first) / u(p);
}

// Any S: the binomial scatter edge into relative rank v carries the parts of its subtree
// [v, v + lowbit v) (cut at p) and is left out when they are empty; the ring forwards each of the
// min(S, p) nonempty parts p - 1 times.
Expected scatter_allgather_totals(int p, std::uint32_t s) {
  Expected want;
  for (int v = 1; v < p; ++v) {
    const U64 blocks = parts(p, s, v, std::min(v + (v & -v), p));
    want.total_messages += blocks > 0 ? 1 : 0;
    want.total_blocks += blocks;
  }
  want.total_messages += z(p - 1) * std::min<std::size_t>(s, z(p));
  want.total_blocks += u(p - 1) * s;
  return want;
}

TEST(BcastSchedules, ScatterAllgatherWorksForAnySegmentCount) {
  for (const int p : small_sizes) {
    for (const int root : roots_of(Coll::bcast, p)) {
      for (const std::uint32_t s : {0u, 1u, 3u, 5u, 7u}) {
        CollectiveShape shape;
        shape.collective = Coll::bcast;
        shape.size = p;
        shape.root = root;
        shape.segments = s;
        const VerificationReport report =
            verify(shape, [&](int rank) { return bcast_scatter_allgather(shape, rank); });
        const std::string where = context(shape, "scatter_allgather");
        ASSERT_TRUE(report.ok) << where << ": " << report.error;
        const Expected want = scatter_allgather_totals(p, s);
        EXPECT_EQ(report.metrics.total_messages, want.total_messages) << where;
        ASSERT_EQ(report.metrics.total_blocks_sent, want.total_blocks) << where;
      }
    }
  }
}

// S = c p: no part is empty. Scatter: ⌈lg p⌉ start-ups, (p - 1) c blocks from the root (Eq. 4.4);
// ring: p - 1 start-ups of c blocks; the root sends both.
Expected scatter_allgather(int p, std::uint32_t s) {
  const std::uint32_t c = s / static_cast<std::uint32_t>(p);
  const int l = lg(p);
  Expected want = scatter_allgather_totals(p, s);
  want.rounds = z(l + p - 1);
  want.max_messages = z(l + p - 1);
  want.max_blocks = 2 * u(p - 1) * c;
  want.startups = l + p - 1;
  want.blocks = 2.0 * (p - 1) * c;
  return want;
}

TEST(BcastSchedules, ScatterAllgatherCostsLgPPlusPMinusOneStartupsAndTwiceTheData) {
  for (const std::uint32_t c : {1u, 3u}) {
    for (const int p : all_sizes_to(128)) {
      sweep(Coll::bcast, bcast_scatter_allgather, scatter_allgather, {p},
            {c * static_cast<std::uint32_t>(p)});
    }
  }
  sweep(Coll::bcast, bcast_scatter_allgather, scatter_allgather, {200}, {400});
  sweep(Coll::bcast, bcast_scatter_allgather, scatter_allgather, {256}, {256});
}

// ------------------------------------------------------------------------------- scatter, gather

Expected linear_scatter(int p, std::uint32_t s) {
  return {z(p - 1), z(p - 1), z(p - 1), u(p - 1) * s, u(p - 1) * s, p - 1.0, (p - 1.0) * s, 0};
}

Expected linear_gather(int p, std::uint32_t s) {
  const std::size_t senders = p > 1 ? 1 : 0;
  return {z(p - 1), senders, z(p - 1), senders * s, u(p - 1) * s, p - 1.0, (p - 1.0) * s, 0};
}

TEST(ScatterSchedules, LinearServesOneRankPerRound) {
  sweep(Coll::scatter, scatter_linear, linear_scatter, small_sizes);
  sweep(Coll::scatter, scatter_linear, linear_scatter, large_sizes);
}

TEST(GatherSchedules, LinearServesOneRankPerRound) {
  sweep(Coll::gather, gather_linear, linear_gather, small_sizes);
  sweep(Coll::gather, gather_linear, linear_gather, large_sizes);
}

// Eq. 4.4: ⌈lg p⌉ start-ups, (p - 1) S blocks through the root; each rank below the root sends
// (scatter: receives) its subtree once, Σ popcount(v) S blocks in all.
Expected binomial_scatter(int p, std::uint32_t s) {
  const int l = lg(p);
  return {z(l), z(l), z(p - 1), u(p - 1) * s, binomial_depth_sum(p) * s, double(l), (p - 1.0) * s, 0};
}

// The largest subtree below the root: the first child's p - 2^{l-1} ranks or the second's 2^{l-2}.
Expected binomial_gather(int p, std::uint32_t s) {
  const int l = lg(p);
  const int half = p > 1 ? 1 << (l - 1) : 0;
  const std::size_t senders = p > 1 ? 1 : 0;
  const U64 largest = p > 1 ? u(std::max(p - half, half / 2)) : 0;
  return {z(l), senders, z(p - 1), largest * s, binomial_depth_sum(p) * s, double(l), (p - 1.0) * s, 0};
}

TEST(ScatterSchedules, BinomialTakesCeilLgPStartupsAndPMinusOneBlocksPerSegment) {
  sweep(Coll::scatter, scatter_binomial, binomial_scatter, small_sizes);
  sweep(Coll::scatter, scatter_binomial, binomial_scatter, large_sizes);
}

TEST(GatherSchedules, BinomialTakesCeilLgPStartupsAndPMinusOneBlocksPerSegment) {
  sweep(Coll::gather, gather_binomial, binomial_gather, small_sizes);
  sweep(Coll::gather, gather_binomial, binomial_gather, large_sizes);
}

// A rank serving several children sends one message at a time, largest subtree first: a send
// that follows another of its sends is in a fenced round, or the engine's window would post both at
// once and they would share the rank's one link (bcast.cpp).
TEST(RootedSchedules, TreesSendOneMessageAtATime) {
  auto kary = [](const CollectiveShape& shape, int rank) { return bcast_kary_tree(shape, rank, 3); };
  const std::vector<std::pair<Coll, Generator>> trees = {
      {Coll::bcast, bcast_binomial},         {Coll::bcast, kary},
      {Coll::bcast, bcast_pipelined_chain},  {Coll::bcast, bcast_pipelined_binary_tree},
      {Coll::bcast, bcast_scatter_allgather}, {Coll::scatter, scatter_binomial}};
  for (const auto& [collective, generator] : trees) {
    for (const int p : {1, 2, 3, 5, 8, 13, 32, 100}) {
      for (const int root : roots_of(collective, p)) {
        CollectiveShape shape;
        shape.collective = collective;
        shape.size = p;
        shape.root = root;
        shape.segments = 3;
        for (int rank = 0; rank < p; ++rank) {
          const Schedule schedule = generator(shape, rank);
          bool sent_before = false;
          for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
            const auto& actions = schedule.rounds[r].actions;
            const bool sends = std::any_of(actions.begin(), actions.end(),
                                           [](const Action& action) { return action.kind == ActionKind::send; });
            EXPECT_TRUE(!sends || !sent_before || schedule.rounds[r].fence)
                << schedule.algorithm << " p " << p << " root " << root << " rank " << rank << " round " << r;
            sent_before = sent_before || sends;
          }
        }
      }
    }
  }
}

// -------------------------------------------------------------------------------------- barrier

constexpr OpTraits barrier_op{true, true};

Expected dissemination(int p, std::uint32_t) {
  const int l = lg(p);
  return {z(l), z(l), z(l) * z(p), u(l), u(l) * u(p), double(l), double(l), double(l)};
}

TEST(BarrierSchedules, DisseminationTakesCeilLgPRoundsOfOneMessage) {
  sweep(Coll::barrier, barrier_dissemination, dissemination, small_sizes, {1}, barrier_op);
  sweep(Coll::barrier, barrier_dissemination, dissemination, large_sizes, {1}, barrier_op);
}

CollectiveShape barrier_of(int p, OpTraits op = barrier_op) {
  CollectiveShape shape;
  shape.collective = Coll::barrier;
  shape.size = p;
  shape.op = op;
  return shape;
}

TEST(BarrierSchedules, VerifierRejectsADisseminationMissingItsLastRound) {
  const CollectiveShape shape = barrier_of(5);
  auto truncated = [&](int rank) {
    Schedule schedule = barrier_dissemination(shape, rank);
    schedule.rounds.resize(schedule.rounds.size() - 2);  // the snapshot and the distance-4 exchange
    return schedule;
  };
  const VerificationReport report = verify(shape, truncated);
  EXPECT_FALSE(report.ok);
  EXPECT_NE(report.error.find(
                "rank 0 output block 0 holds block 0 of ranks {0,2..4}, expected block 0 of ranks {0..4}"),
            std::string::npos)
      << report.error;
}

// Dissemination hears from some ranks twice when p is not a power of two; the verifier treats
// barrier tokens as idempotent whatever the shape's op says, so that is accepted.
TEST(BarrierSchedules, RepeatedTokensAreAcceptedForAnyP) {
  const OpTraits counting{true, false};
  for (const int p : {5, 6, 7, 8}) {
    const CollectiveShape shape = barrier_of(p, counting);
    const VerificationReport report = verify(shape, [&](int rank) { return barrier_dissemination(shape, rank); });
    EXPECT_TRUE(report.ok) << "p=" << p << ": " << report.error;
  }
}

// ---------------------------------------------------------------------------------- scan, exscan

constexpr OpTraits non_commutative{false, false};

// In round j every rank r >= 2^j receives, every rank r < p - 2^j sends: l p - 2^l + 1 messages.
Expected recursive_doubling_scan(int p, std::uint32_t s) {
  const int l = lg(p);
  const std::size_t messages = z(l) * z(p) - (z(1) << l) + 1;
  return {z(l), z(l), messages, u(l) * s, messages * s, double(l), double(l) * s, double(l) * s};
}

TEST(ScanSchedules, RecursiveDoublingTakesCeilLgPRoundsAndKeepsRankOrder) {
  sweep(Coll::scan, scan_recursive_doubling, recursive_doubling_scan, small_sizes);
  sweep(Coll::scan, scan_recursive_doubling, recursive_doubling_scan, small_sizes, segment_counts,
        non_commutative);
  sweep(Coll::scan, scan_recursive_doubling, recursive_doubling_scan, large_sizes, segment_counts,
        non_commutative);
}

// The same messages, but a rank takes its first prefix as it comes; only the prefix it forwards
// is combined in round 0, which for p <= 3 no rank needs.
Expected recursive_doubling_exscan(int p, std::uint32_t s) {
  Expected want = recursive_doubling_scan(p, s);
  want.reduced = (p <= 1 ? 0 : p <= 3 ? lg(p) - 1 : lg(p)) * double(s);
  return want;
}

TEST(ScanSchedules, ExclusiveRecursiveDoublingTakesCeilLgPRoundsAndKeepsRankOrder) {
  sweep(Coll::exscan, exscan_recursive_doubling, recursive_doubling_exscan, small_sizes);
  sweep(Coll::exscan, exscan_recursive_doubling, recursive_doubling_exscan, small_sizes, segment_counts,
        non_commutative);
  sweep(Coll::exscan, exscan_recursive_doubling, recursive_doubling_exscan, large_sizes, segment_counts,
        non_commutative);
}

// A chain: ranks 1 .. p - 2 receive, combine, send (two rounds with messages).
Expected linear_scan(int p, std::uint32_t s) {
  const std::size_t rounds = p >= 3 ? 2 : z(p - 1);
  const std::size_t senders = p > 1 ? 1 : 0;
  return {rounds, senders, z(p - 1), senders * s, u(p - 1) * s, p - 1.0, (p - 1.0) * s, (p - 1.0) * s};
}

// As linear_scan, but the last rank combines nothing.
Expected linear_exscan(int p, std::uint32_t s) {
  Expected want = linear_scan(p, s);
  want.reduced = std::max(0, p - 2) * double(s);
  return want;
}

TEST(ScanSchedules, LinearChainTakesPMinusOneSteps) {
  sweep(Coll::scan, scan_linear, linear_scan, small_sizes);
  sweep(Coll::scan, scan_linear, linear_scan, small_sizes, segment_counts, non_commutative);
  sweep(Coll::scan, scan_linear, linear_scan, large_sizes, segment_counts, non_commutative);
}

TEST(ScanSchedules, ExclusiveLinearChainTakesPMinusOneSteps) {
  sweep(Coll::exscan, exscan_linear, linear_exscan, small_sizes);
  sweep(Coll::exscan, exscan_linear, linear_exscan, small_sizes, segment_counts, non_commutative);
  sweep(Coll::exscan, exscan_linear, linear_exscan, large_sizes, segment_counts, non_commutative);
}

}  // namespace
