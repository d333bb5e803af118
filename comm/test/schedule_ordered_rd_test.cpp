// Reordered recursive doubling (recursive_doubling_order.hpp): the remap R(S, i) and the stage
// orders, and every generator run through the verifier for every power of two P up to 256 and
// sampled larger ones, with S = 0, 1 and 3 segments, for distance doubling, distance halving, the
// torus orders of several grids and random orders; counts as in Sack 2011 §3.4 (a
// swapping rank sends P·S blocks instead of (P-1)·S, in lg P + 1 rounds).
//
// Map: shape and order helpers (orders_for: the orders swept per P); the expected counts per
// collective (expect_swapped, expect_allreduce, expect_rooted); the parameterised sweeps (every power
// of two, large groups); orders and remap; the generators' structure (pre-swap, halving swap,
// reduce-scatter reversing the allgather, allreduce without swap); errors.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <numeric>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/recursive_doubling_order.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

using OrderedGenerator = Schedule (*)(const CollectiveShape&, int, std::span<const int>);

CollectiveShape shape_of(Coll collective, int p, std::uint32_t segments, bool commutative = true) {
  CollectiveShape shape;
  shape.collective = collective;
  shape.size = p;
  shape.segments = segments;
  shape.op.commutative = commutative;
  return shape;
}

int lg(int p) { return std::countr_zero(static_cast<unsigned>(p)); }

std::string describe(std::span<const int> order) {
  std::string text;
  for (const int bit : order) {
    text += (text.empty() ? "" : ", ") + std::to_string(bit);
  }
  return "{" + text + "}";
}

struct NamedOrder {
  std::string name;
  std::vector<int> order;
};

// The orders swept for group size p: the two classic ones, the torus orders of the grids of
// seed §5.5 that have p nodes, and two random permutations (seeded by p).
std::vector<NamedOrder> orders_for(int p) {
  std::vector<NamedOrder> orders = {{"doubling", distance_doubling_order(p)}, {"halving", distance_halving_order(p)}};
  const std::vector<std::vector<int>> grids = {{2, 2, 2}, {4, 4, 4}, {2, 4, 8}, {8, 8, 8}, {4, 4},
                                               {16, 8, 8}, {16, 16, 16}};
  for (const std::vector<int>& dims : grids) {
    if (std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>()) == p) {
      orders.push_back({"torus " + describe(dims), torus_order(dims)});
    }
  }
  std::mt19937 random(static_cast<std::uint32_t>(p));
  for (int k = 0; k < 2; ++k) {
    std::vector<int> order = distance_doubling_order(p);
    std::shuffle(order.begin(), order.end(), random);
    orders.push_back({"random " + describe(order), order});
  }
  return orders;
}

// Ranks whose R(S, i) differs from i: the messages of the swap stage.
int moved(std::span<const int> order) {
  int count = 0;
  for (int i = 0; i < 1 << order.size(); ++i) {
    count += remap(order, i) != i ? 1 : 0;
  }
  return count;
}

// Verifies `generator` and checks the counts of a swapped recursive doubling or halving: lg P
// exchanges of (P-1)S blocks in all, plus one swap message of S blocks from each moved rank.
void expect_swapped(Coll collective, OrderedGenerator generator, int p, std::uint32_t s, const NamedOrder& named) {
  const CollectiveShape shape = shape_of(collective, p, s);
  const VerificationReport report =
      verify(shape, [&](int rank) { return generator(shape, rank, named.order); });
  const std::string where = "P=" + std::to_string(p) + " S=" + std::to_string(s) + " order " + named.name;
  ASSERT_TRUE(report.ok) << where << ": " << report.error;
  const ScheduleMetrics& got = report.metrics;
  const auto pp = static_cast<std::uint64_t>(p);
  const auto m = static_cast<std::uint64_t>(moved(named.order));
  const std::uint64_t swapped = s > 0 && m > 0 ? 1 : 0;
  const std::uint64_t rounds = s == 0 ? 0 : static_cast<std::uint64_t>(lg(p)) + swapped;
  EXPECT_EQ(got.max_communication_rounds, rounds) << where;
  EXPECT_EQ(got.max_messages_sent, rounds) << where;
  EXPECT_EQ(got.total_messages, s == 0 ? 0 : pp * static_cast<std::uint64_t>(lg(p)) + m) << where;
  EXPECT_EQ(got.max_blocks_sent, (pp - 1 + swapped) * s) << where;
  EXPECT_EQ(got.total_blocks_sent, (pp * (pp - 1) + m) * s) << where;
  EXPECT_EQ(got.critical_startups, static_cast<double>(rounds)) << where;
  EXPECT_EQ(got.critical_blocks, static_cast<double>((pp - 1 + swapped) * s)) << where;
  const bool reduces = collective == Coll::reduce_scatter;
  EXPECT_EQ(got.critical_reduced_blocks, reduces ? static_cast<double>((pp - 1) * s) : 0.0) << where;
}

void expect_allgather(int p, std::uint32_t s, const NamedOrder& order) {
  expect_swapped(Coll::allgather, allgather_recursive_doubling_ordered, p, s, order);
}

void expect_reduce_scatter(int p, std::uint32_t s, const NamedOrder& order) {
  expect_swapped(Coll::reduce_scatter, reduce_scatter_recursive_halving_ordered, p, s, order);
}

// Allreduce has no swap: 2 lg P rounds at most (fewer messages where parts are empty); every
// stage moves, over all ranks, the vector once per pair of halves: 2(P-1)S blocks in all.
void expect_allreduce(int p, std::uint32_t s, const NamedOrder& named) {
  const CollectiveShape shape = shape_of(Coll::allreduce, p, s);
  const VerificationReport report =
      verify(shape, [&](int rank) { return allreduce_rabenseifner_ordered(shape, rank, named.order); });
  const std::string where = "P=" + std::to_string(p) + " S=" + std::to_string(s) + " order " + named.name;
  ASSERT_TRUE(report.ok) << where << ": " << report.error;
  const auto pp = static_cast<std::uint64_t>(p);
  EXPECT_LE(report.metrics.max_communication_rounds, static_cast<std::size_t>(2 * lg(p))) << where;
  EXPECT_EQ(report.metrics.total_blocks_sent, 2 * (pp - 1) * s) << where;
  if (s % pp == 0 && s > 0) {  // equal parts: Rabenseifner 2004's (2 lg P, 2(1 - 1/P)n, (1 - 1/P)n)
    EXPECT_EQ(report.metrics.max_communication_rounds, static_cast<std::size_t>(2 * lg(p))) << where;
    EXPECT_EQ(report.metrics.critical_startups, static_cast<double>(2 * lg(p))) << where;
    EXPECT_EQ(report.metrics.critical_blocks, static_cast<double>(2 * (pp - 1) * (s / pp))) << where;
    EXPECT_EQ(report.metrics.critical_reduced_blocks, static_cast<double>((pp - 1) * (s / pp))) << where;
  }
}

// Broadcast and reduce from a few roots, no swap: at most 2 lg P rounds. At equal parts the tree
// phase (the broadcast's scatter, the reduce's gather) moves half the vector per stage, lg P · S/2
// blocks in all, and the other phase (P-1)S, as the allreduce's halves; the broadcast's root sends
// 2(1 - 1/P)S, the reduce combines (1 - 1/P)S along the critical path.
void expect_rooted(Coll collective, OrderedGenerator generator, int p, std::uint32_t s, const NamedOrder& named) {
  for (int root = 0; root < p; root += std::max(1, p / 4)) {
    CollectiveShape shape = shape_of(collective, p, s);
    shape.root = root;
    const VerificationReport report = verify(shape, [&](int rank) { return generator(shape, rank, named.order); });
    const std::string where =
        "P=" + std::to_string(p) + " S=" + std::to_string(s) + " root " + std::to_string(root) + " order " + named.name;
    ASSERT_TRUE(report.ok) << where << ": " << report.error;
    const ScheduleMetrics& got = report.metrics;
    const auto pp = static_cast<std::uint64_t>(p);
    EXPECT_LE(got.max_communication_rounds, static_cast<std::size_t>(2 * lg(p))) << where;
    if (s % pp != 0 || s == 0) {
      continue;
    }
    EXPECT_EQ(got.total_blocks_sent, (pp - 1) * s + static_cast<std::uint64_t>(lg(p)) * s / 2) << where;
    EXPECT_EQ(got.critical_startups, static_cast<double>(2 * lg(p))) << where;
    if (collective == Coll::bcast) {
      EXPECT_EQ(got.max_blocks_sent, 2 * (pp - 1) * (s / pp)) << where;
      EXPECT_EQ(got.critical_blocks, static_cast<double>(2 * (pp - 1) * (s / pp))) << where;
    } else {
      EXPECT_EQ(got.critical_reduced_blocks, static_cast<double>((pp - 1) * (s / pp))) << where;
    }
  }
}

void expect_bcast(int p, std::uint32_t s, const NamedOrder& order) {
  expect_rooted(Coll::bcast, bcast_scatter_allgather_ordered, p, s, order);
}

void expect_reduce(int p, std::uint32_t s, const NamedOrder& order) {
  expect_rooted(Coll::reduce, reduce_rabenseifner_ordered, p, s, order);
}

using Check = void (*)(int p, std::uint32_t s, const NamedOrder& order);

// One test: a collective, S (or, with per_rank, S = segments·P), a list of group sizes and the
// orders_for(p) to take: all, or the one at index `order`.
struct Sweep {
  const char* collective;
  Check check;
  std::uint32_t segments;
  std::vector<int> sizes;
  bool per_rank = false;
  int order = -1;
};

void PrintTo(const Sweep& sweep, std::ostream* out) {
  *out << sweep.collective << "_S" << sweep.segments << (sweep.per_rank ? "P" : "") << "_P" << sweep.sizes.front();
  if (sweep.sizes.size() > 1) {
    *out << "to" << sweep.sizes.back();
  }
  if (sweep.order >= 0) {
    *out << "_order" << sweep.order;
  }
}

class OrderedRecursiveDoubling : public testing::TestWithParam<Sweep> {};

TEST_P(OrderedRecursiveDoubling, VerifiesWithTheSwappedCounts) {
  const Sweep& sweep = GetParam();
  for (const int p : sweep.sizes) {
    const std::vector<NamedOrder> orders = orders_for(p);
    for (std::size_t k = 0; k < orders.size(); ++k) {
      if (sweep.order >= 0 && k != static_cast<std::size_t>(sweep.order)) {
        continue;
      }
      sweep.check(p, sweep.per_rank ? sweep.segments * static_cast<std::uint32_t>(p) : sweep.segments, orders[k]);
      if (HasFatalFailure()) {
        return;
      }
    }
  }
}

const std::pair<const char*, Check> collectives[] = {
    {"allgather", expect_allgather}, {"reduce_scatter", expect_reduce_scatter}, {"allreduce", expect_allreduce}};

std::vector<Sweep> every_power_of_two() {
  std::vector<Sweep> sweeps;
  for (const auto& [name, check] : collectives) {
    for (const std::uint32_t s : {0u, 1u, 3u}) {
      sweeps.push_back({name, check, s, {1, 2, 4, 8, 16, 32, 64, 128}});
      sweeps.push_back({name, check, s, {256}});
    }
  }
  // Equal parts for the allreduce's and the broadcast's closed forms.
  sweeps.push_back({"allreduce", expect_allreduce, 2, {1, 2, 4, 8, 16, 32, 64, 128, 256}, true});
  for (const std::uint32_t s : {0u, 1u, 3u}) {
    sweeps.push_back({"bcast", expect_bcast, s, {1, 2, 4, 8, 16, 32, 64, 128}});
  }
  sweeps.push_back({"bcast", expect_bcast, 2, {1, 2, 4, 8, 16, 32, 64, 128, 256}, true});
  for (const std::uint32_t s : {0u, 1u, 3u}) {
    sweeps.push_back({"reduce", expect_reduce, s, {1, 2, 4, 8, 16, 32, 64, 128}});
  }
  sweeps.push_back({"reduce", expect_reduce, 2, {1, 2, 4, 8, 16, 32, 64, 128, 256}, true});
  return sweeps;
}

// P = 4096 is slow to verify, above all in unoptimised builds (docs/testing.md, "Schedules and the
// verifier"): distance halving and the torus order of 16x16x16 only, one test each.
std::vector<Sweep> large_groups() {
  std::vector<Sweep> sweeps;
  for (const auto& [name, check] : collectives) {
    sweeps.push_back({name, check, 1, {512}});
    sweeps.push_back({name, check, 1, {1024}});
    sweeps.push_back({name, check, 1, {4096}, false, 1});
    sweeps.push_back({name, check, 1, {4096}, false, 2});
  }
  return sweeps;
}

INSTANTIATE_TEST_SUITE_P(EveryGroupSizeUpTo256, OrderedRecursiveDoubling, testing::ValuesIn(every_power_of_two()));
INSTANTIATE_TEST_SUITE_P(LargeGroups, OrderedRecursiveDoubling, testing::ValuesIn(large_groups()));

// ---------------------------------------------------------------------------------------------
// Orders and remap.

TEST(RecursiveDoublingOrder, ClassicOrders) {
  EXPECT_EQ(distance_doubling_order(1), std::vector<int>{});
  EXPECT_EQ(distance_doubling_order(8), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(distance_halving_order(8), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(distance_halving_order(1), std::vector<int>{});
}

TEST(RecursiveDoublingOrder, TorusOrdersTakeTheLargestDimensionsFirst) {
  // Cubes: the table recomputed from Sack 2011's model, exactly.
  EXPECT_EQ(torus_order(std::vector<int>{8, 8, 8}), (std::vector<int>{2, 5, 8, 1, 4, 7, 0, 3, 6}));
  EXPECT_EQ(torus_order(std::vector<int>{32, 32, 32}),
            (std::vector<int>{4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11, 0, 5, 10}));
  // That table's 8x8x16 (our 16x8x8) and 8x16x32 (our 32x16x8): its turns {9}, {2, 5, 8}, ... and
  // {11}, {6, 10}, {2, 5, 9}, ..., each led by the larger dimensions.
  EXPECT_EQ(torus_order(std::vector<int>{16, 8, 8}), (std::vector<int>{9, 8, 2, 5, 7, 1, 4, 6, 0, 3}));
  EXPECT_EQ(torus_order(std::vector<int>{32, 16, 8}), (std::vector<int>{11, 10, 6, 9, 5, 2, 8, 4, 1, 7, 3, 0}));
  // Dimensions of one node hold no bits; a grid of one node has no stages.
  EXPECT_EQ(torus_order(std::vector<int>{1, 8, 1}), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(torus_order(std::vector<int>{}), std::vector<int>{});
  EXPECT_EQ(torus_order(std::vector<int>{4, 4}), (std::vector<int>{1, 3, 0, 2}));
}

int bit_reverse(int x, int bits) {
  int result = 0;
  for (int b = 0; b < bits; ++b) {
    result = result << 1 | (x >> b & 1);
  }
  return result;
}

TEST(RecursiveDoublingOrder, RemapPermutesTheBitsOfARank) {
  // Sack 2011 §3.4.1: P = 16, rank 11 = bits {1, 1, 0, 1} LSB first; distance halving reverses
  // them.
  EXPECT_EQ(remap(distance_halving_order(16), 11), 13);
  EXPECT_EQ(remap(std::vector<int>{1, 2, 3, 0}, 11), 0b1101);  // bits 1, 2, 3, 0 of 11: 1, 0, 1, 1
  for (const int p : {1, 2, 64, 512}) {
    const std::vector<int> halving = distance_halving_order(p);
    const std::vector<int> doubling = distance_doubling_order(p);
    for (int i = 0; i < p; ++i) {
      EXPECT_EQ(remap(halving, i), bit_reverse(i, lg(p)));
      EXPECT_EQ(remap(doubling, i), i);
    }
  }
  for (const NamedOrder& named : orders_for(256)) {
    for (int i = 0; i < 256; ++i) {
      EXPECT_EQ(remap_inverse(named.order, remap(named.order, i)), i) << named.name;
      EXPECT_EQ(remap(named.order, remap_inverse(named.order, i)), i) << named.name;
    }
  }
}

TEST(RecursiveDoublingOrder, ReversedTorusOrderRemapsToMortonOrder) {
  // Sack 2011 §3.4.1: reversing an optimal schedule and applying R gives a Morton (Z-order) curve.
  // On 8x8x8 (coordinates z, y, x with x fastest), R interleaves bit j of z, y, x into 3j, 3j+1,
  // 3j+2.
  std::vector<int> order = torus_order(std::vector<int>{8, 8, 8});
  std::reverse(order.begin(), order.end());
  for (int i = 0; i < 512; ++i) {
    const int x = i % 8;
    const int y = i / 8 % 8;
    const int z = i / 64;
    int morton = 0;
    for (int j = 0; j < 3; ++j) {
      morton |= (z >> j & 1) << (3 * j) | (y >> j & 1) << (3 * j + 1) | (x >> j & 1) << (3 * j + 2);
    }
    EXPECT_EQ(remap(order, i), morton) << "rank " << i;
  }
}

// ---------------------------------------------------------------------------------------------
// The generators' structure.

// Messages of one kind (send or receive) of `schedule`: (round, peer, blocks).
struct Message {
  std::size_t round;
  int peer;
  std::uint32_t blocks;
  friend bool operator==(const Message&, const Message&) = default;
};

std::vector<Message> messages(const Schedule& schedule, ActionKind kind) {
  std::vector<Message> result;
  for (std::size_t k = 0; k < schedule.rounds.size(); ++k) {
    for (const Action& action : schedule.rounds[k].actions) {
      if (action.kind == kind) {
        result.push_back({k, action.peer, action.blocks.size()});
      }
    }
  }
  return result;
}

TEST(AllgatherRecursiveDoublingOrdered, PreSwapIsAPermutationThenPartnersFollowTheOrder) {
  const int p = 64;
  const std::uint32_t s = 3;
  for (const NamedOrder& named : orders_for(p)) {
    const CollectiveShape shape = shape_of(Coll::allgather, p, s);
    std::vector<int> received_by(static_cast<std::size_t>(p), 0);
    for (int rank = 0; rank < p; ++rank) {
      const Schedule schedule = allgather_recursive_doubling_ordered(shape, rank, named.order);
      const int source = remap(named.order, rank);
      std::vector<Message> want_sends;
      std::vector<Message> want_receives;
      if (source != rank) {
        want_sends.push_back({0, remap_inverse(named.order, rank), s});
        want_receives.push_back({0, source, s});
        ++received_by[static_cast<std::size_t>(remap_inverse(named.order, rank))];
      }
      for (std::size_t stage = 0; stage < named.order.size(); ++stage) {
        const Message exchange{stage + 1, rank ^ (1 << named.order[stage]), (1u << stage) * s};
        want_sends.push_back(exchange);
        want_receives.push_back(exchange);
      }
      EXPECT_EQ(messages(schedule, ActionKind::send), want_sends) << named.name << " rank " << rank;
      EXPECT_EQ(messages(schedule, ActionKind::receive), want_receives) << named.name << " rank " << rank;
    }
    // Every rank that swaps receives exactly one swap message.
    for (int rank = 0; rank < p; ++rank) {
      EXPECT_EQ(received_by[static_cast<std::size_t>(rank)], remap(named.order, rank) != rank ? 1 : 0)
          << named.name << " rank " << rank;
    }
  }
}

TEST(AllgatherRecursiveDoublingOrdered, HalvingSwapsWithTheBitReversedRank) {
  const std::vector<int> halving = distance_halving_order(16);
  for (int rank = 0; rank < 16; ++rank) {
    const std::vector<Message> sends =
        messages(allgather_recursive_doubling_ordered(shape_of(Coll::allgather, 16, 1), rank, halving), ActionKind::send);
    const int reversed = bit_reverse(rank, 4);
    ASSERT_EQ(sends.size(), reversed == rank ? 4u : 5u);
    if (reversed != rank) {
      EXPECT_EQ(sends.front(), (Message{0, reversed, 1}));
    }
    EXPECT_EQ(sends.back().peer, rank ^ 1);  // the last, largest stage pairs neighbours
    EXPECT_EQ(sends.back().blocks, 8u);
  }
}

TEST(ReduceScatterRecursiveHalvingOrdered, ReversesTheAllgather) {
  // Halving stages in reverse order with P/2, ..., 1 chunks, then the chunk goes to R(S, i).
  const int p = 64;
  const std::uint32_t s = 2;
  const std::vector<int> order = torus_order(std::vector<int>{4, 4, 4});
  for (const int rank : {0, 1, 21, 42, 63}) {
    const Schedule schedule = reduce_scatter_recursive_halving_ordered(shape_of(Coll::reduce_scatter, p, s), rank, order);
    std::vector<Message> want;
    for (std::size_t stage = order.size(); stage-- > 0;) {
      want.push_back({order.size() - stage, rank ^ (1 << order[stage]), (1u << stage) * s});
    }
    const int target = remap(order, rank);
    if (target != rank) {
      want.push_back({order.size() + 1, target, s});
    }
    EXPECT_EQ(messages(schedule, ActionKind::send), want) << "rank " << rank;
  }
}

TEST(AllreduceRabenseifnerOrdered, NeedsNoSwap) {
  // Every message goes to an XOR partner: lg P halving rounds, then lg P doubling rounds.
  const int p = 32;
  const std::vector<int> order = {3, 0, 4, 1, 2};
  for (int rank = 0; rank < p; ++rank) {
    const Schedule schedule = allreduce_rabenseifner_ordered(shape_of(Coll::allreduce, p, 2 * p), rank, order);
    const std::vector<Message> sends = messages(schedule, ActionKind::send);
    ASSERT_EQ(sends.size(), 10u);
    for (std::size_t k = 0; k < 5; ++k) {
      EXPECT_EQ(sends[k].peer, rank ^ (1 << order[4 - k]));
      EXPECT_EQ(sends[5 + k].peer, rank ^ (1 << order[k]));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Errors.

void expect_invalid(const std::function<void()>& call, const std::string& message) {
  try {
    call();
    ADD_FAILURE() << "accepted: " << message;
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
}

TEST(RecursiveDoublingOrder, RejectsBadArguments) {
  const std::string prefix = "dash::comm::schedule::";
  const std::vector<int> three = {0, 1, 2};
  expect_invalid([&] { allgather_recursive_doubling_ordered(shape_of(Coll::allgather, 12, 1), 0, three); },
                 prefix + "allgather_recursive_doubling_ordered: invalid argument 'shape.size' = 12; expected a power of "
                          "two in [1, 2^30] (ranks are paired by their bits)");
  for (const std::vector<int>& order : {std::vector<int>{0, 0, 1}, {0, 1}, {0, 1, 3}, {-1, 0, 1}}) {
    expect_invalid([&] { reduce_scatter_recursive_halving_ordered(shape_of(Coll::reduce_scatter, 8, 1), 0, order); },
                   prefix + "reduce_scatter_recursive_halving_ordered: invalid argument 'order' = '" + describe(order) +
                       "'; expected a permutation of the 3 bit indices 0 .. lg P - 1 = 2 (one stage per bit)");
  }
  expect_invalid(
      [&] { reduce_scatter_recursive_halving_ordered(shape_of(Coll::reduce_scatter, 8, 1, false), 0, three); },
      prefix + "reduce_scatter_recursive_halving_ordered: invalid argument 'shape.op.commutative' = 'false'; expected "
               "a commutative operation (the schedule combines contributions out of rank order)");
  expect_invalid([&] { allreduce_rabenseifner_ordered(shape_of(Coll::allreduce, 8, 1, false), 0, three); },
                 prefix + "allreduce_rabenseifner_ordered: invalid argument 'shape.op.commutative' = 'false'; expected "
                          "a commutative operation (the schedule combines contributions out of rank order)");
  // Allgather combines nothing: the operation's traits do not matter.
  const CollectiveShape non_commutative = shape_of(Coll::allgather, 8, 1, false);
  EXPECT_TRUE(verify(non_commutative, [&](int rank) {
                return allgather_recursive_doubling_ordered(non_commutative, rank, three);
              }).ok);
  expect_invalid([] { torus_order(std::vector<int>{8, 6}); },
                 prefix + "torus_order: invalid argument 'dims[1]' = 6; expected a power of two in [1, 2^30] (ranks are "
                          "paired by their bits)");
  expect_invalid([] { distance_halving_order(0); }, prefix + "distance_halving_order: invalid argument 'p' = 0; expected a "
                                                             "power of two in [1, 2^30] (ranks are paired by their bits)");
  try {
    remap(three, 8);
    ADD_FAILURE() << "rank 8 of 8 was accepted";
  } catch (const dash::OutOfRange& error) {
    EXPECT_EQ(std::string(error.what()), prefix + "remap: argument 'rank' = 8 is out of range; expected a rank in [0, 8)");
  }
}

}  // namespace
