// Global memory: GlobalSegment, GlobPtr, GlobRef (blocking and asynchronous), dash::Atomic, on
// Team::All() and on sub-teams. The same binary runs again with DASH_SHARED_MEMORY=0, where every
// access to another unit takes the RMA path instead of load/store. In order: GlobalSegment (access,
// alignment, sub-teams, non-members), GlobPtr (arithmetic, walks within a unit's part, accesses
// past it), GlobRef (compound and async operations, struct elements), dash::Atomic (every
// operation and type). Futures have their own file, future_test.cpp.

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/containers/array.hpp>
#include <dash/core/atomic.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::Team;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

struct Particle {
  double position[2];
  std::int32_t id;
  std::int32_t flags;
};

TEST(GlobalSegment, EveryUnitReadsAndWritesEveryOther) {
  Team& team = Team::All();
  dash::GlobalSegment segment(team, sizeof(std::int64_t) * 4);
  auto* mine = reinterpret_cast<std::int64_t*>(segment.local().data());
  for (int i = 0; i < 4; ++i) {
    mine[i] = me() * 10 + i;
  }
  segment.barrier();
  bool ok = true;
  for (int unit = 0; unit < P(); ++unit) {
    std::int64_t values[4] = {};
    segment.get(unit, 0, values, sizeof values);
    for (int i = 0; i < 4; ++i) {
      ok = ok && values[i] == unit * 10 + i;
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  segment.barrier();
  // Everyone writes its id into slot (me % 4) of its right neighbour.
  const int right = (me() + 1) % P();
  const std::int64_t value = 1000 + me();
  if (P() > 1 || me() == 0) {
    segment.put(right, sizeof(std::int64_t) * static_cast<std::size_t>(me() % 4), &value, sizeof value);
  }
  segment.barrier();
  const int left = (me() + P() - 1) % P();
  EXPECT_EQ(mine[left % 4], 1000 + left);
}

TEST(GlobalSegment, EveryUnitsMemoryStartsOnACacheLine) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{24}, std::size_t{4096}, std::size_t{1} << 20}) {
    dash::GlobalSegment segment(Team::All(), bytes);
    bool ok = reinterpret_cast<std::uintptr_t>(segment.local().data()) % 64 == 0;
    for (int unit = 0; unit < P(); ++unit) {
      const std::byte* direct = segment.direct(unit);
      ok = ok && (direct == nullptr || reinterpret_cast<std::uintptr_t>(direct) % 64 == 0);
    }
    EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << bytes << " bytes";
  }
}

TEST(GlobalSegment, MembersOfASubTeamOnly) {
  Team& half = Team::All().split(P() >= 2 ? 2 : 1);
  dash::GlobalSegment segment(half, sizeof(int));
  *reinterpret_cast<int*>(segment.local().data()) = me();
  segment.barrier();
  bool ok = true;
  for (int unit = 0; unit < static_cast<int>(half.size()); ++unit) {
    int value = -1;
    segment.get(unit, 0, &value, sizeof value);
    ok = ok && value == half.global_rank(unit);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
}

TEST(GlobalSegment, AllocationOnATeamTheCallerIsNotInThrows) {
  EXPECT_THROW(dash::GlobalSegment(Team::Null(), 8), dash::InvalidArgument);
  if (P() >= 2) {
    Team& odd = Team::All().split_by(me() % 2 == 1 ? 1 : Team::Undefined, me());
    if (odd.is_null()) {
      EXPECT_THROW(dash::GlobalSegment(odd, 8), dash::InvalidArgument);
    } else {
      dash::GlobalSegment segment(odd, 8);
      EXPECT_EQ(segment.local().size(), 8U);
    }
  }
}

TEST(GlobPtr, ArithmeticComparisonAndLocalPointers) {
  dash::Array<int> a(static_cast<std::size_t>(4 * P()));
  std::iota(a.local.begin(), a.local.end(), 4 * me());
  a.barrier();
  const dash::GlobPtr<int> first = a.begin().globptr();
  EXPECT_EQ(first.unit(), 0);
  EXPECT_EQ(first.index(), 0U);
  const dash::GlobPtr<int> third = first + 2;
  EXPECT_EQ(third - first, 2);
  EXPECT_LT(first, third);
  EXPECT_EQ(*third, 2);
  EXPECT_EQ(third[1], 3);
  dash::GlobPtr<int> walk = third;
  ++walk;
  --walk;
  walk += 1;
  EXPECT_EQ(walk, first + 3);
  const dash::GlobPtr<int> own = (a.begin() + 4 * me()).globptr();
  EXPECT_TRUE(own.is_local());
  EXPECT_EQ(own.local(), a.lbegin());
  const dash::GlobPtr<const int> read_only = own;
  EXPECT_EQ(static_cast<int>(*read_only), 4 * me());
  if (P() > 1) {
    const dash::GlobPtr<int> other = (a.begin() + 4 * ((me() + 1) % P())).globptr();
    EXPECT_FALSE(other.is_local());
    EXPECT_THROW(static_cast<void>(other - own), dash::InvalidArgument);
  }
  EXPECT_FALSE(dash::GlobPtr<int>());
}

// A GlobPtr walks one unit's part only (the global iterator moves on to the next unit); reading or
// writing past the part throws instead of touching another unit's memory.
TEST(GlobPtr, WalksWithinOneUnitsPartAndAccessesPastItThrow) {
  dash::Array<int> a(static_cast<std::size_t>(4 * P()));
  std::iota(a.local.begin(), a.local.end(), 4 * me());
  a.barrier();
  const int right = (me() + 1) % P();
  const dash::GlobPtr<int> first = (a.begin() + 4 * right).globptr();
  dash::GlobPtr<int> walk = first;
  bool ok = true;
  for (int i = 0; i < 4; ++i, ++walk) {
    ok = ok && *walk == 4 * right + i && walk.unit() == right;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  EXPECT_EQ(walk, first + 4);
  EXPECT_EQ(walk.unit(), right);  // one past the part, still on the same unit
  if (right + 1 < P()) {
    EXPECT_EQ((a.begin() + 4 * right + 4).globptr().unit(), right + 1);
  }

  const std::string expected = "4 bytes at byte offset 16 of unit " + std::to_string(right) + " lie outside unit " +
                               std::to_string(right) + "'s part of the segment, which has 16 bytes";
  const std::string read = dash::testing::thrown_message([&] { static_cast<void>(static_cast<int>(*walk)); });
  EXPECT_TRUE(dash::testing::mentions(read, "dash::GlobalSegment::get: " + expected)) << read;
  const std::string written = dash::testing::thrown_message([&] { *walk = 1; });
  EXPECT_TRUE(dash::testing::mentions(written, "dash::GlobalSegment::put: " + expected)) << written;
  const std::string read_async = dash::testing::thrown_message([&] { static_cast<void>((*walk).get_async()); });
  EXPECT_TRUE(dash::testing::mentions(read_async, "dash::GlobRef::get_async: " + expected)) << read_async;
  const std::string written_async = dash::testing::thrown_message([&] { static_cast<void>((*walk).put_async(1)); });
  EXPECT_TRUE(dash::testing::mentions(written_async, "dash::GlobRef::put_async: " + expected)) << written_async;
  EXPECT_THROW(static_cast<void>(static_cast<int>(first[-1])), dash::OutOfRange);
  const dash::GlobPtr<int> no_such_unit(a.segment(), P(), 0);
  const std::string unit_message =
      dash::testing::thrown_message([&] { static_cast<void>(static_cast<int>(*no_such_unit)); });
  EXPECT_TRUE(dash::testing::mentions(unit_message, "unit " + std::to_string(P()) + " is not a member"))
      << unit_message;
  EXPECT_EQ(a.segment().part_bytes(right), 16U);

  dash::Array<dash::Atomic<int>> counters(static_cast<std::size_t>(P()));
  const dash::GlobPtr<dash::Atomic<int>> past_counter = counters.begin().globptr() + 1;
  const std::string atomic = dash::testing::thrown_message([&] { static_cast<void>((*past_counter).load()); });
  EXPECT_TRUE(dash::testing::mentions(atomic, "dash::Atomic::load: 4 bytes at byte offset 4 of unit 0")) << atomic;
  EXPECT_THROW((*past_counter).store(1), dash::OutOfRange);
  a.barrier();
}

TEST(GlobRef, ReadWriteCompoundAndAsync) {
  dash::Array<long> a(static_cast<std::size_t>(P()));
  a.local[0] = 0;
  a.barrier();
  // Each unit adds to its right neighbour's element in turn (non-atomic compound ops, one writer).
  const auto right = static_cast<std::size_t>((me() + 1) % P());
  a[right] += 5;
  a.barrier();
  a[right] *= 3;
  a.barrier();
  a[right] -= 1;
  a.barrier();
  EXPECT_EQ(a.local[0], 14);  // ((0 + 5) * 3) - 1
  a.barrier();
  dash::Future<void> written = a[right].put_async(100 + me());
  written.wait();
  a.barrier();
  const int left = (me() + P() - 1) % P();
  EXPECT_EQ(a.local[0], 100 + left);
  dash::Future<long> read = a[right].get_async();
  while (!read.test()) {
  }
  EXPECT_EQ(read.wait(), 100 + me());
  a.barrier();
  // Reference-to-reference assignment copies the value; swap exchanges two elements.
  if (me() == 0) {
    a[0] = 1;
    a[static_cast<std::size_t>(P() - 1)] = 2;
    if (P() > 1) {
      swap(a[0], a[static_cast<std::size_t>(P() - 1)]);
      EXPECT_EQ(static_cast<long>(a[0]), 2);
      a[0] = a[static_cast<std::size_t>(P() - 1)];
      EXPECT_EQ(static_cast<long>(a[0]), 1);
    }
  }
  a.barrier();
}

TEST(GlobRef, StructElements) {
  dash::Array<Particle> particles(static_cast<std::size_t>(2 * P()));
  for (std::size_t i = 0; i < particles.local.size(); ++i) {
    particles.local[i] = Particle{{1.5 * me(), -1.0 * static_cast<double>(i)}, me(), static_cast<std::int32_t>(i)};
  }
  particles.barrier();
  bool ok = true;
  for (std::size_t g = 0; g < particles.size(); ++g) {
    const Particle p = particles[g];
    const auto unit = static_cast<int>(g / 2);
    ok = ok && p.id == unit && p.position[0] == 1.5 * unit && p.flags == static_cast<std::int32_t>(g % 2);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
}

template <class T>
class AtomicTest : public ::testing::Test {};
using AtomicTypes = ::testing::Types<int, std::int64_t, unsigned, double, float>;
TYPED_TEST_SUITE(AtomicTest, AtomicTypes);

TYPED_TEST(AtomicTest, FetchAddFromEveryUnitCountsExactly) {
  using T = TypeParam;
  dash::Array<dash::Atomic<T>> counters(static_cast<std::size_t>(P()));
  counters.local[0].value = T{0};
  counters.barrier();
  constexpr int rounds = 50;
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t unit = 0; unit < counters.size(); ++unit) {
      counters[unit].fetch_add(T{1});
    }
  }
  counters.barrier();
  EXPECT_EQ(counters[static_cast<std::size_t>(me())].load(), static_cast<T>(rounds * P()));
  counters.barrier();
  // exchange and compare_exchange: exactly one unit wins each race for element 0.
  if (me() == 0) {
    counters[0].store(T{0});
  }
  counters.barrier();
  T expected{0};
  const bool won = counters[0].compare_exchange(expected, static_cast<T>(me() + 1));
  int winners = won ? 1 : 0;
  int total = 0;
  MPI_Allreduce(&winners, &total, 1, MPI_INT, MPI_SUM, dash::comm::base_comm());
  EXPECT_EQ(total, 1);
  if (!won) {
    EXPECT_NE(expected, T{0});
  }
  counters.barrier();
  const T before = counters[0].exchange(T{7});
  EXPECT_NE(before, T{0});
  counters.barrier();
  EXPECT_EQ(counters[0].load(), T{7});
  counters.barrier();
  counters[static_cast<std::size_t>(me())] = T{10};
  EXPECT_EQ(counters[static_cast<std::size_t>(me())].fetch_sub(T{3}), T{10});
  EXPECT_EQ(static_cast<T>(counters[static_cast<std::size_t>(me())]), T{7});
  counters.barrier();
  // One element's reference assigned to another's copies the value, as for plain elements.
  if (me() == 0 && P() > 1) {
    const std::size_t last = counters.size() - 1;
    counters[0].store(T{5});
    counters[last].store(T{0});
    counters[last] = counters[0];
    EXPECT_EQ(counters[last].load(), T{5});
  }
  counters.barrier();
}

TEST(Atomic, BitwiseOperationsOnIntegers) {
  dash::Array<dash::Atomic<std::uint64_t>> bits(1);
  if (me() == 0) {
    bits[0].store(0);
  }
  bits.barrier();
  bits[0].fetch_or(std::uint64_t{1} << me());
  bits.barrier();
  const std::uint64_t all = (P() >= 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << P()) - 1;
  EXPECT_EQ(bits[0].load(), all);
  bits.barrier();
  bits[0].fetch_and(~(std::uint64_t{1} << me()));
  bits.barrier();
  EXPECT_EQ(bits[0].load(), 0U);
  bits.barrier();
  bits[0].fetch_xor(std::uint64_t{3});
  bits.barrier();
  EXPECT_EQ(bits[0].load(), P() % 2 == 1 ? 3U : 0U);
}

}  // namespace
