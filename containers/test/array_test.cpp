// dash::Array: every distribution with sizes that do not divide evenly, element types int, double
// and a 24-byte struct; element access through local parts, operator[], at() and global iterators;
// delayed allocation, moves, sub-teams, and the errors of misuse.

#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/containers/array.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::Team;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

struct Record {
  double weight;
  std::int64_t key;
  std::int32_t a;
  std::int32_t b;
  friend bool operator==(const Record&, const Record&) = default;
};
static_assert(sizeof(Record) == 24);

template <class T>
T value_at(std::size_t global) {
  if constexpr (std::is_same_v<T, Record>) {
    return Record{0.5 * static_cast<double>(global), static_cast<std::int64_t>(global) * 3 - 7,
                  static_cast<std::int32_t>(global % 11), -static_cast<std::int32_t>(global)};
  } else {
    return static_cast<T>(global * 7 % 1009) + static_cast<T>(1);
  }
}

std::vector<dash::Distribution> distributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4), dash::BLOCKCYCLIC(1000)};
}

std::vector<std::size_t> sizes() {
  const auto p = static_cast<std::size_t>(P());
  return {0, 1, p > 1 ? p - 1 : 0, p + 1, 97, 10007};
}

template <class T>
class ArrayTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<int, double, Record>;
TYPED_TEST_SUITE(ArrayTest, ElementTypes);

// Each unit writes its own elements (by the pattern's global index); every unit then reads the whole
// array through operator[] and through iterators.
TYPED_TEST(ArrayTest, LocalWritesAreGloballyVisibleForEveryDistribution) {
  using T = TypeParam;
  for (const dash::Distribution& distribution : distributions()) {
    for (const std::size_t n : sizes()) {
      SCOPED_TRACE(distribution.name() + " n=" + std::to_string(n));
      dash::Array<T> a(n, distribution);
      ASSERT_EQ(a.size(), n);
      const auto unit = static_cast<std::size_t>(me());
      ASSERT_EQ(a.local.size(), a.pattern().local_size(unit));
      for (std::size_t i = 0; i < a.local.size(); ++i) {
        a.local[i] = value_at<T>(a.pattern().global_index(unit, i));
      }
      a.barrier();
      bool ok = true;
      for (std::size_t g = 0; g < n; ++g) {
        ok = ok && static_cast<T>(a[g]) == value_at<T>(g);
      }
      std::size_t position = 0;
      for (auto it = a.begin(); it != a.end(); ++it, ++position) {
        ok = ok && static_cast<T>(*it) == value_at<T>(position);
      }
      ok = ok && position == n && static_cast<std::size_t>(a.end() - a.begin()) == n;
      unsigned long long local_total = a.local.size();
      unsigned long long total = 0;
      MPI_Allreduce(&local_total, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, dash::comm::base_comm());
      ok = ok && total == n;
      EXPECT_TRUE(dash::testing::on_all_ranks(ok));
      a.barrier();
    }
  }
}

// Writes through global references land at the owner.
TYPED_TEST(ArrayTest, RemoteWritesThroughOperatorBracketAndIterators) {
  using T = TypeParam;
  const std::size_t n = 4 * static_cast<std::size_t>(P()) + 3;
  for (const dash::Distribution& distribution : distributions()) {
    dash::Array<T> a(n, distribution);
    // Unit u writes the elements g with g % P == u, wherever they live.
    for (std::size_t g = static_cast<std::size_t>(me()); g < n; g += static_cast<std::size_t>(P())) {
      if (g % 2 == 0) {
        a[g] = value_at<T>(g);
      } else {
        *(a.begin() + static_cast<std::ptrdiff_t>(g)) = value_at<T>(g);
      }
    }
    a.barrier();
    bool ok = true;
    const auto unit = static_cast<std::size_t>(me());
    for (std::size_t i = 0; i < a.local.size(); ++i) {
      ok = ok && a.local[i] == value_at<T>(a.pattern().global_index(unit, i));
    }
    EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << distribution.name();
    a.barrier();
  }
}

TEST(Array, AtThrowsOutOfRangeWithTheIndexAndTheRange) {
  dash::Array<int> a(static_cast<std::size_t>(P()) + 1);
  EXPECT_NO_THROW(static_cast<void>(static_cast<int>(a.at(a.size() - 1))));
  try {
    static_cast<void>(a.at(a.size()));
    ADD_FAILURE() << "at(size()) did not throw";
  } catch (const dash::OutOfRange& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("dash::Array::at"), std::string::npos) << text;
    EXPECT_NE(text.find(std::to_string(a.size())), std::string::npos) << text;
  }
  a.barrier();
}

TEST(Array, ZeroSizedArraysAreEmptyAndSafe) {
  dash::Array<double> a(0);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.begin(), a.end());
  EXPECT_EQ(a.local.size(), 0U);
  EXPECT_EQ(a.lbegin(), a.lend());
  EXPECT_THROW(static_cast<void>(a.at(0)), dash::OutOfRange);
  a.barrier();
}

TEST(Array, DelayedAllocationDeallocationAndMoves) {
  dash::Array<long> a;
  EXPECT_FALSE(a.is_allocated());
  EXPECT_EQ(a.size(), 0U);
  EXPECT_THROW(a.barrier(), dash::InvalidState);
  EXPECT_THROW(static_cast<void>(a.pattern()), dash::InvalidState);
  EXPECT_THROW(static_cast<void>(*a.end()), dash::OutOfRange);
  a.allocate(static_cast<std::size_t>(3 * P()), dash::CYCLIC);
  EXPECT_TRUE(a.is_allocated());
  EXPECT_THROW(a.allocate(5), dash::InvalidState);
  std::iota(a.local.begin(), a.local.end(), 100L * me());
  a.barrier();
  dash::Array<long> b(std::move(a));
  EXPECT_FALSE(a.is_allocated());  // NOLINT: moved-from state is specified
  EXPECT_EQ(b.size(), static_cast<std::size_t>(3 * P()));
  // CYCLIC: element g lives on unit g % P at local index g / P.
  EXPECT_EQ(static_cast<long>(b[static_cast<std::size_t>(P())]), 1);
  b.barrier();
  b.deallocate();
  EXPECT_FALSE(b.is_allocated());
  b.allocate(7, dash::BLOCKED);
  EXPECT_EQ(b.size(), 7U);
  b.barrier();
}

TEST(Array, OnASubTeam) {
  Team& part = Team::All().split(P() >= 2 ? 2 : 1);
  dash::Array<int> a(10, dash::BLOCKCYCLIC(2), part);
  EXPECT_EQ(&a.team(), &part);
  EXPECT_EQ(a.pattern().num_units(), part.size());
  std::fill(a.local.begin(), a.local.end(), part.myid());
  a.barrier();
  bool ok = true;
  for (std::size_t g = 0; g < a.size(); ++g) {
    ok = ok && static_cast<int>(a[g]) == static_cast<int>((g / 2) % part.size());
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  a.barrier();
}

TEST(Array, AllocationOnATeamTheCallerIsNotInThrows) {
  EXPECT_THROW(dash::Array<int>(4, Team::Null()), dash::InvalidArgument);
  if (P() >= 2) {
    Team& first = Team::All().split_by(me() == 0 ? 0 : Team::Undefined, 0);
    if (first.is_null()) {
      EXPECT_THROW(dash::Array<int>(4, first), dash::InvalidArgument);
    } else {
      dash::Array<int> a(4, first);
      EXPECT_EQ(a.local.size(), 4U);
    }
  }
}

TEST(Array, DifferentSizesOnDifferentUnitsThrowOnEveryUnit) {
  // Unit 0 asks for another size or distribution than the rest; with one unit nobody disagrees and
  // the same calls allocate.
  const auto size_call = [] { dash::Array<int> a(me() == 0 ? 10 : 11); };
  const auto distribution_call = [] { dash::Array<int> a(10, me() == 0 ? dash::BLOCKED : dash::CYCLIC); };
  if (P() > 1) {
    EXPECT_THROW(size_call(), dash::InvalidArgument);
    EXPECT_THROW(distribution_call(), dash::InvalidArgument);
  } else {
    EXPECT_NO_THROW(size_call());
    EXPECT_NO_THROW(distribution_call());
  }
}

// Sizes whose parts cannot be addressed: every unit throws, none is left in the collective allocation.
TEST(Array, SizesBeyondTheAddressSpaceThrowOnEveryUnit) {
  constexpr std::size_t largest = std::numeric_limits<std::size_t>::max();
  // The byte count of the largest part overflows size_t at every unit count.
  EXPECT_THROW(static_cast<void>(dash::Array<double>(largest)), dash::OutOfRange);
  // Unit 0 alone asks for more than a window can hold; the others ask for nothing.
  EXPECT_THROW(static_cast<void>(dash::Array<char>(largest, dash::BLOCKCYCLIC(largest))), dash::OutOfRange);
  dash::barrier();
}

// Parts that MPI could address but no node could hold (1 PiB in all): every unit throws BadAlloc
// before the windows are created (some MPI libraries grant the shared window, then fail to register
// it on one member only and leave the others inside MPI_Win_create).
TEST(Array, MoreThanTheNodesMemoryThrowsBadAllocOnEveryUnit) {
  const std::size_t petabyte = std::size_t{1} << 50;
  try {
    dash::Array<char> a(petabyte);
    ADD_FAILURE() << "a 1 PiB array was allocated";
  } catch (const dash::BadAlloc& error) {
    EXPECT_NE(std::string(error.what()).find("more than the node's memory and swap"), std::string::npos)
        << error.what();
  }
  dash::barrier();
}

TEST(Array, IteratorsOfDifferentArraysDoNotMix) {
  dash::Array<int> a(8);
  dash::Array<int> b(8);
  EXPECT_THROW(static_cast<void>(a.end() - b.begin()), dash::InvalidArgument);
  EXPECT_THROW(static_cast<void>(a.begin() < b.end()), dash::InvalidArgument);
  EXPECT_NE(a.begin(), b.begin());
  EXPECT_THROW(static_cast<void>(*a.end()), dash::OutOfRange);
  a.barrier();
}

TEST(Array, ConstAccessAndIteratorConversion) {
  dash::Array<int> a(static_cast<std::size_t>(2 * P()));
  std::fill(a.local.begin(), a.local.end(), me());
  a.barrier();
  const dash::Array<int>& view = a;
  dash::Array<int>::const_iterator it = a.begin();
  EXPECT_EQ(it, view.begin());
  EXPECT_EQ(static_cast<int>(view[static_cast<std::size_t>(2 * P() - 1)]), P() - 1);
  EXPECT_EQ(static_cast<int>(*(view.end() - 1)), P() - 1);
  a.barrier();
}

}  // namespace
