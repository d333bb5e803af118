// The exact-splitter parallel sort (dash/core/detail/parallel_sort.hpp) on the world group and on
// subgroups: every member's slice must be exactly its part of what std::stable_sort makes of all
// members' inputs concatenated in member order: same elements, same order (equal keys keep member
// then input order), and exactly global ranks [floor(k N / p), floor((k + 1) N / p)).
//
// Map: Record and records (keys with their origin); the checking sort against the sequential
// reference and the rounds' record; ParallelSort (random keys, the spreadsort and vqsort kernels,
// equal and duplicate keys, empty and lopsided members, sorted input, presorted input, a descending
// comparator, a large input, subgroups); ExactSplitPositions (arbitrary targets, bad targets).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>
#include <dash/core/detail/exact_splitters.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/detail/vqsort.hpp>

#include "dash_testing.hpp"

namespace {

using dash::comm::Group;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

// A key with a payload that says where the element came from; sorted by key only.
struct Record {
  std::uint64_t key = 0;
  std::int32_t member = 0;
  std::int32_t position = 0;

  friend bool operator==(const Record&, const Record&) = default;
};

bool by_key(const Record& a, const Record& b) { return a.key < b.key; }

std::vector<Record> records(const std::vector<std::uint64_t>& keys, int member) {
  std::vector<Record> result;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    result.push_back({keys[i], member, static_cast<std::int32_t>(i)});
  }
  return result;
}

// Sorts `local` across `group` and checks this member's slice against the sequential reference.
// Collective; true on every member only if every member's slice is right.
template <class T, class Less>
bool sorts_exactly(const std::vector<T>& local, Less less, const Group& group, int* rounds = nullptr,
                   const dash::detail::ParallelSortSettings& settings = {}) {
  const auto everything = dash::comm::allgatherv(local, group);
  std::vector<T> reference = everything.data;
  std::stable_sort(reference.begin(), reference.end(), less);
  const std::uint64_t n = reference.size();
  const auto p = static_cast<std::uint64_t>(group.size());
  const auto k = static_cast<std::uint64_t>(group.rank());

  const dash::detail::SortedSlice<T> slice = dash::detail::parallel_sort(local, less, group, settings);

  const std::uint64_t first = k * n / p;
  const std::uint64_t last = (k + 1) * n / p;
  bool ok = true;
  EXPECT_EQ(slice.global_count, n);
  EXPECT_EQ(slice.global_first, first);
  ok = ok && slice.global_count == n && slice.global_first == first;
  EXPECT_EQ(slice.elements.size(), last - first) << "member " << k << " of " << p;
  if (slice.elements.size() == last - first) {
    const auto expected = std::span<const T>(reference).subspan(first, last - first);
    const auto mismatch = std::mismatch(slice.elements.begin(), slice.elements.end(), expected.begin());
    EXPECT_TRUE(mismatch.first == slice.elements.end())
        << "member " << k << ": first wrong element at slice position " << (mismatch.first - slice.elements.begin());
    ok = ok && mismatch.first == slice.elements.end();
  } else {
    ok = false;
  }
  if (rounds != nullptr) {
    *rounds = slice.splitter_rounds;
  }
  return dash::testing::on_all_ranks(ok);
}

void record_rounds(const std::string& name, int rounds) {
  ::testing::Test::RecordProperty("splitter_rounds_" + name + "_p" + std::to_string(P()), rounds);
}

TEST(ParallelSort, RandomKeys) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(std::uniform_int_distribution<std::size_t>(500, 3000)(random));
  for (auto& key : keys) {
    key = random();
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(keys, std::less<>(), Group::world(), &rounds));
  record_rounds("random", rounds);
}

// The radix kernel on full-range 64-bit keys with duplicates, enough per member (spreadsort hands
// fewer than 1000 elements to pdqsort) that its radix passes run; elements it cannot sort are
// rejected on every member before any communication.
TEST(ParallelSort, SpreadsortKernel) {
  std::mt19937_64 random(dash::testing::seed() + 3);
  std::vector<std::uint64_t> keys(5000 + static_cast<std::size_t>(me()) * 301);
  for (auto& key : keys) {
    key = random() % 8 == 0 ? random() % 5 : random();
  }
  dash::detail::ParallelSortSettings settings;
  settings.kernel = dash::detail::LocalSortKernel::spreadsort;
  EXPECT_TRUE(sorts_exactly(keys, std::less<>(), Group::world(), nullptr, settings));

  EXPECT_THROW(dash::detail::parallel_sort(records(keys, me()), by_key, Group::world(), settings),
               dash::InvalidArgument);
  EXPECT_TRUE(dash::testing::on_all_ranks(true));
}

// Highway's vqsort kernel on full-range 64-bit keys with duplicates and on doubles with both zeros
// and both infinities, enough per member that vqsort partitions; elements it cannot sort are rejected
// on every member before any communication, and in a build without vqsort the kernel itself is.
TEST(ParallelSort, VqsortKernel) {
  std::mt19937_64 random(dash::testing::seed() + 5);
  std::vector<std::uint64_t> keys(4000 + static_cast<std::size_t>(me()) * 257);
  for (auto& key : keys) {
    key = random() % 8 == 0 ? random() % 5 : random();
  }
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const std::array<double, 5> special{0.0, -0.0, infinity, -infinity, std::numeric_limits<double>::denorm_min()};
  std::vector<double> doubles(3000 + static_cast<std::size_t>(me()) * 131);
  for (double& x : doubles) {
    const double mantissa = static_cast<double>(random() % 2001) - 1000.0;
    const int exponent = static_cast<int>(random() % 64) - 32;
    x = random() % 4 == 0 ? special[random() % special.size()] : std::ldexp(mantissa, exponent);
  }
  dash::detail::ParallelSortSettings settings;
  settings.kernel = dash::detail::LocalSortKernel::vqsort;
  if (dash::detail::vqsort_built()) {
    EXPECT_TRUE(sorts_exactly(keys, std::less<>(), Group::world(), nullptr, settings));
    EXPECT_TRUE(sorts_exactly(doubles, std::less<>(), Group::world(), nullptr, settings));
  } else {
    try {
      dash::detail::parallel_sort(keys, std::less<>(), Group::world(), settings);
      ADD_FAILURE() << "vqsort is not rejected in a build without it";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_NE(std::string(error.what()).find("dash was built without Highway's vqsort (libhwy-dev)"),
                std::string::npos)
          << error.what();
    }
  }

  EXPECT_THROW(dash::detail::parallel_sort(records(keys, me()), by_key, Group::world(), settings),
               dash::InvalidArgument);
  std::vector<std::int32_t> narrow(100, 3);
  EXPECT_THROW(dash::detail::parallel_sort(narrow, std::less<>(), Group::world(), settings), dash::InvalidArgument);
  EXPECT_TRUE(dash::testing::on_all_ranks(true));
}

TEST(ParallelSort, AllKeysEqual) {
  // Only member and position order the elements: the balance must still be exact.
  const auto local = records(std::vector<std::uint64_t>(100 + static_cast<std::size_t>(me()) * 37, 7), me());
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(local, by_key, Group::world(), &rounds));
  record_rounds("all_equal", rounds);
}

TEST(ParallelSort, ManyDuplicates) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(std::uniform_int_distribution<std::size_t>(0, 2000)(random));
  for (auto& key : keys) {
    key = random() % 5;
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), by_key, Group::world(), &rounds));
  record_rounds("duplicates", rounds);
}

TEST(ParallelSort, SomeMembersEmpty) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(me() % 2 == 1 ? 0 : 1500);
  for (auto& key : keys) {
    key = random() % 100000;
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), by_key, Group::world(), &rounds));
  record_rounds("some_empty", rounds);
}

TEST(ParallelSort, AllMembersEmpty) {
  int rounds = -1;
  EXPECT_TRUE(sorts_exactly(std::vector<Record>(), by_key, Group::world(), &rounds));
  EXPECT_EQ(rounds, 0);
}

TEST(ParallelSort, OneMemberHoldsEverything) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(me() == P() - 1 ? 5000 : 0);
  for (auto& key : keys) {
    key = random() % 3000;
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), by_key, Group::world(), &rounds));
  record_rounds("one_holds_all", rounds);
}

TEST(ParallelSort, AlreadySortedAndReverseSorted) {
  constexpr std::uint64_t n = 1000;
  std::vector<std::uint64_t> ascending(n);
  std::vector<std::uint64_t> descending(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    ascending[i] = static_cast<std::uint64_t>(me()) * n + i;
    descending[i] = static_cast<std::uint64_t>(P() - me()) * n - i;
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(ascending, me()), by_key, Group::world(), &rounds));
  record_rounds("sorted", rounds);
  EXPECT_TRUE(sorts_exactly(records(descending, me()), by_key, Group::world(), &rounds));
  record_rounds("reverse_sorted", rounds);
  // Uneven sizes: the cuts fall inside members.
  ascending.resize(n / 2 + static_cast<std::size_t>(me()) * 131);
  EXPECT_TRUE(sorts_exactly(records(ascending, me()), by_key, Group::world(), &rounds));
  record_rounds("sorted_uneven", rounds);
}

// Input each member has sorted already, as the split service's collected blocks are: with
// `presorted` the local sort is skipped (its phase stays at zero) and the result is the same.
TEST(ParallelSort, PresortedInputSkipsTheLocalSort) {
  std::mt19937_64 random(dash::testing::seed() + 7);
  std::vector<std::uint64_t> keys(3000 + static_cast<std::size_t>(me()) * 211);
  for (auto& key : keys) {
    key = random() % 5000;
  }
  std::sort(keys.begin(), keys.end());
  dash::detail::SortPhases phases;
  dash::detail::ParallelSortSettings settings;
  settings.presorted = true;
  settings.phases = &phases;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), by_key, Group::world(), nullptr, settings));
  EXPECT_EQ(phases.local_sort, 0.0);
}

TEST(ParallelSort, DescendingComparator) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(std::uniform_int_distribution<std::size_t>(0, 2500)(random));
  for (auto& key : keys) {
    key = random() % 700;
  }
  const auto descending = [](const Record& a, const Record& b) { return a.key > b.key; };
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), descending, Group::world(), &rounds));
  record_rounds("descending", rounds);
}

TEST(ParallelSort, LargeRandomInput) {
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(40000 + static_cast<std::size_t>(me()) * 1000);
  for (auto& key : keys) {
    key = random();
  }
  int rounds = 0;
  EXPECT_TRUE(sorts_exactly(records(keys, me()), by_key, Group::world(), &rounds));
  record_rounds("large_random", rounds);
}

TEST(ParallelSort, OnSubgroups) {
  // The members in reverse order, then the even and the odd ranks as two concurrent groups: group
  // ranks, not world ranks, decide the slices.
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(std::uniform_int_distribution<std::size_t>(0, 1200)(random));
  for (auto& key : keys) {
    key = random() % 400;
  }
  const dash::comm::TagSpace after_world{Group::world_tag_space().first + Group::world_tag_space().count, 1000};
  std::vector<int> backwards;
  for (int r = P() - 1; r >= 0; --r) {
    backwards.push_back(r);
  }
  const Group reversed = Group::of_base_ranks(backwards, after_world);
  EXPECT_TRUE(sorts_exactly(records(keys, reversed.rank()), by_key, reversed));

  std::vector<int> parity;
  for (int r = me() % 2; r < P(); r += 2) {
    parity.push_back(r);
  }
  const Group half = Group::of_base_ranks(parity, {after_world.first + after_world.count * (1 + me() % 2), 1000});
  EXPECT_TRUE(sorts_exactly(records(keys, half.rank()), by_key, half));
}

TEST(ExactSplitPositions, HitsArbitraryTargets) {
  // Targets need not be balanced: repeated, at 0 and at N, in any spacing.
  std::mt19937_64 random(dash::testing::seed());
  std::vector<std::uint64_t> keys(std::uniform_int_distribution<std::size_t>(0, 800)(random));
  for (auto& key : keys) {
    key = random() % 50;
  }
  std::sort(keys.begin(), keys.end());
  const auto everything = dash::comm::allgatherv(keys, Group::world());
  const std::uint64_t n = everything.data.size();
  const std::vector<std::uint64_t> targets{0, n / 7, n / 7, n / 3, n / 2 + 1 > n ? n : n / 2 + 1, n, n};
  const auto split = dash::detail::exact_split_positions(std::span<const std::uint64_t>(keys), std::less<>(), targets,
                                                         n, Group::world());
  // The reference: rank every element by (key, member, position) and count ours below each target.
  std::vector<std::pair<std::uint64_t, int>> ranked;
  for (int q = 0; q < P(); ++q) {
    for (const std::uint64_t key : everything.from(q)) {
      ranked.emplace_back(key, q);
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  bool ok = split.cuts.size() == targets.size();
  for (std::size_t j = 0; ok && j < targets.size(); ++j) {
    const auto ours = std::count_if(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(targets[j]),
                                    [](const auto& entry) { return entry.second == me(); });
    EXPECT_EQ(split.cuts[j], static_cast<std::size_t>(ours)) << "target " << targets[j];
    ok = ok && split.cuts[j] == static_cast<std::size_t>(ours);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
}

TEST(ExactSplitPositions, RejectsBadTargetsOnEveryMemberBeforeCommunicating) {
  const std::vector<std::uint64_t> keys{1, 2, 3};
  const std::uint64_t n = 3 * static_cast<std::uint64_t>(P());
  const std::vector<std::uint64_t> beyond{1, n + 1};
  const std::vector<std::uint64_t> decreasing{2, 1};
  const auto sorted = std::span<const std::uint64_t>(keys);
  EXPECT_THROW(dash::detail::exact_split_positions(sorted, std::less<>(), beyond, n, Group::world()),
               dash::OutOfRange);
  EXPECT_THROW(dash::detail::exact_split_positions(sorted, std::less<>(), decreasing, n, Group::world()),
               dash::InvalidArgument);
  // The group is still usable: nothing was left half-way.
  EXPECT_TRUE(dash::testing::on_all_ranks(true));
}

}  // namespace
