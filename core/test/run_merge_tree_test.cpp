// Merging sorted runs as they land: any landing order and any split of a run into pieces gives
// the stable merge (lower source first on equal keys) in the destination, also with one run
// resident in the destination and with the final merge held back until finish(); runs never
// reported are merged by finish(). The four-chain merge on its own: the stable merge for any sizes,
// and a permutation of its inputs under an order that is not strict weak.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/run_merge_tree.hpp>

namespace {

using dash::detail::RunMergePlacement;
using dash::detail::RunMergeTree;

struct Tagged {
  int key = 0;
  std::size_t source = 0;
  std::size_t position = 0;
};

bool by_key(const Tagged& a, const Tagged& b) { return a.key < b.key; }

struct Runs {
  std::vector<Tagged> buffer;        // runs side by side, each sorted by key
  std::vector<std::size_t> sizes;
};

Runs random_runs(std::mt19937_64& random, std::size_t sources, std::size_t max_size, int key_range) {
  std::uniform_int_distribution<std::size_t> size(0, max_size);
  std::uniform_int_distribution<int> key(0, key_range - 1);
  Runs runs;
  for (std::size_t s = 0; s < sources; ++s) {
    std::vector<Tagged> run(size(random));
    for (auto& element : run) {
      element.key = key(random);
      element.source = s;
    }
    std::stable_sort(run.begin(), run.end(), by_key);
    for (std::size_t i = 0; i < run.size(); ++i) {
      run[i].position = i;
    }
    runs.sizes.push_back(run.size());
    runs.buffer.insert(runs.buffer.end(), run.begin(), run.end());
  }
  return runs;
}

void expect_stable_merge(std::vector<Tagged> merged, const Runs& runs) {
  auto expected = runs.buffer;
  std::stable_sort(expected.begin(), expected.end(), by_key);
  ASSERT_EQ(merged.size(), expected.size());
  for (std::size_t i = 0; i < merged.size(); ++i) {
    ASSERT_EQ(merged[i].key, expected[i].key) << "at " << i;
    ASSERT_EQ(merged[i].source, expected[i].source) << "at " << i;
    ASSERT_EQ(merged[i].position, expected[i].position) << "at " << i;
  }
}

TEST(RunMergeTree, AnyLandingOrderInPiecesGivesTheStableMerge) {
  std::mt19937_64 random(4242);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t sources = 1 + static_cast<std::size_t>(trial) % 17;
    const Runs runs = random_runs(random, sources, static_cast<std::size_t>(trial % 40), trial % 2 == 0 ? 5 : 1000);
    SCOPED_TRACE("trial " + std::to_string(trial) + " sources " + std::to_string(sources));
    // Each run lands in one to three pieces; pieces of different runs interleave at random.
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    for (std::size_t s = 0; s < sources; ++s) {
      std::size_t left = runs.sizes[s];
      while (left > 0) {
        const std::size_t piece = std::uniform_int_distribution<std::size_t>(1, left)(random);
        pieces.emplace_back(s, piece);
        left -= piece;
      }
    }
    std::shuffle(pieces.begin(), pieces.end(), random);
    // Every third trial keeps one run in the destination; every second one holds the final merge back.
    RunMergePlacement placement;
    placement.destination_busy = trial % 2 == 1;
    std::vector<Tagged> received = runs.buffer;
    std::vector<Tagged> destination(runs.buffer.size());
    if (trial % 3 == 0) {
      placement.resident = static_cast<std::size_t>(trial / 3) % sources;
      const auto resident = static_cast<std::ptrdiff_t>(placement.resident);
      const auto begin = static_cast<std::ptrdiff_t>(
          std::accumulate(runs.sizes.begin(), runs.sizes.begin() + resident, std::size_t{0}));
      const std::size_t count = runs.sizes[placement.resident];
      std::copy_n(runs.buffer.begin() + begin, count, destination.begin() + begin);
      // What lands in `received` for the resident run is never read.
      std::fill_n(received.begin() + begin, count, Tagged{-1, 99, 99});
    }
    RunMergeTree<Tagged, decltype(&by_key)> merge(received, destination, runs.sizes, &by_key, placement);
    for (const auto& [source, count] : pieces) {
      if (source != placement.resident) {
        merge.landed(source, count);
      }
    }
    EXPECT_EQ(merge.done(), !placement.destination_busy);
    merge.finish();
    EXPECT_TRUE(merge.done());
    expect_stable_merge(destination, runs);
  }
}

TEST(RunMergeTree, MergesAsSoonAsNeighboursAreComplete) {
  // Sources 0 and 1 are siblings in the tree of four, source 0 resident in the destination: their
  // merge happens on the landing of source 1, into the received buffer's memory of both.
  std::vector<int> received{-1, -1, 1, 2, 9, 0};
  std::vector<int> destination{5, 6, -1, -1, -1, -1};
  const std::vector<std::size_t> sizes{2, 2, 1, 1};
  RunMergeTree<int, std::less<>> merge(received, destination, sizes, std::less<>(),
                                       RunMergePlacement{.resident = 0, .destination_busy = true});
  merge.landed(1, 2);
  EXPECT_EQ(received, (std::vector<int>{1, 2, 5, 6, 9, 0}));
  merge.landed(3, 1);
  merge.landed(2, 1);
  EXPECT_FALSE(merge.done());
  EXPECT_EQ(destination, (std::vector<int>{5, 6, -1, -1, -1, -1}));
  merge.finish();
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(destination, (std::vector<int>{0, 1, 2, 5, 6, 9}));
}

TEST(RunMergeTree, AResidentRunStaysInPlaceAndTheFinalMergeWaitsWhenTheDestinationIsBusy) {
  // Two sources, the first resident in the destination (as with two members, member 0 in place).
  std::vector<int> received{0, 0, 0, 2, 3, 8};
  std::vector<int> destination{1, 4, 7, -1, -1, -1};
  const std::vector<std::size_t> sizes{3, 3};
  RunMergeTree<int, std::less<>> merge(received, destination, sizes, std::less<>(),
                                       RunMergePlacement{.resident = 0, .destination_busy = true});
  merge.landed(1, 3);
  EXPECT_FALSE(merge.done());
  EXPECT_EQ(destination, (std::vector<int>{1, 4, 7, -1, -1, -1}));
  merge.finish();
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(destination, (std::vector<int>{1, 2, 3, 4, 7, 8}));
  // The last of two sources resident: merged from the front.
  std::vector<int> received_last{2, 9, -1, -1, -1, -1};
  std::vector<int> destination_last{-1, -1, 1, 5, 6, 10};
  const std::vector<std::size_t> sizes_last{2, 4};
  RunMergeTree<int, std::less<>> merge_last(received_last, destination_last, sizes_last, std::less<>(),
                                            RunMergePlacement{.resident = 1, .destination_busy = false});
  EXPECT_FALSE(merge_last.done());
  merge_last.landed(0, 2);
  EXPECT_TRUE(merge_last.done());
  EXPECT_EQ(destination_last, (std::vector<int>{1, 2, 5, 6, 9, 10}));
}

TEST(RunMergeTree, RunsAlreadyInOrderAreConcatenated) {
  std::vector<int> received{1, 2, 3, 4, 5, 6, 7};
  std::vector<int> destination(7, -1);
  const std::vector<std::size_t> sizes{1, 2, 0, 3, 1};
  RunMergeTree<int, std::less<>> merge(received, destination, sizes, std::less<>());
  for (std::size_t source = 0; source < sizes.size(); ++source) {
    merge.landed(source, sizes[source]);
  }
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(destination, received);
}

TEST(RunMergeTree, FinishMergesRunsThatWereNeverReported) {
  std::mt19937_64 random(17);
  const Runs runs = random_runs(random, 6, 20, 8);
  std::vector<Tagged> received = runs.buffer;
  std::vector<Tagged> destination(received.size());
  RunMergeTree<Tagged, decltype(&by_key)> merge(received, destination, runs.sizes, &by_key);
  merge.landed(4, runs.sizes[4]);
  merge.landed(0, runs.sizes[0]);
  merge.finish();
  EXPECT_TRUE(merge.done());
  expect_stable_merge(destination, runs);
}

TEST(RunMergeTree, EmptyRunsAreCompleteFromTheStart) {
  std::vector<int> received{3, 1};
  std::vector<int> destination(2, -1);
  const std::vector<std::size_t> sizes{0, 1, 0, 0, 1, 0};
  RunMergeTree<int, std::less<>> merge(received, destination, sizes, std::less<>());
  EXPECT_FALSE(merge.done());
  merge.landed(4, 1);
  merge.landed(1, 1);
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(destination, (std::vector<int>{1, 3}));
  std::vector<int> nothing;
  std::vector<int> nowhere;
  const std::vector<std::size_t> all_empty{0, 0, 0};
  EXPECT_TRUE((RunMergeTree<int, std::less<>>(nothing, nowhere, all_empty, std::less<>()).done()));
}

// The four-chain merge against std::merge (stable: the first input first on equal keys), for
// balanced and lopsided sizes from empty to thousands, with many and with few equal keys.
TEST(MergeFourChains, GivesTheStableMerge) {
  std::mt19937_64 random(99);
  const std::vector<std::size_t> sizes{0, 1, 2, 3, 7, 64, 1000, 4099};
  for (const std::size_t a_size : sizes) {
    for (const std::size_t b_size : sizes) {
      for (const int key_range : {3, 100000}) {
        SCOPED_TRACE("sizes " + std::to_string(a_size) + " and " + std::to_string(b_size) + ", keys below " +
                     std::to_string(key_range));
        std::uniform_int_distribution<int> key(0, key_range - 1);
        std::vector<Tagged> a(a_size);
        std::vector<Tagged> b(b_size);
        for (std::size_t i = 0; i < a_size; ++i) {
          a[i] = Tagged{key(random), 0, 0};
        }
        for (std::size_t i = 0; i < b_size; ++i) {
          b[i] = Tagged{key(random), 1, 0};
        }
        std::sort(a.begin(), a.end(), by_key);
        std::sort(b.begin(), b.end(), by_key);
        for (std::size_t i = 0; i < a_size; ++i) {
          a[i].position = i;
        }
        for (std::size_t i = 0; i < b_size; ++i) {
          b[i].position = i;
        }
        std::vector<Tagged> expected(a_size + b_size);
        std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), by_key);
        std::vector<Tagged> merged(a_size + b_size, Tagged{-1, 9, 9});
        auto less = &by_key;
        dash::detail::merge_four_chains(a.data(), a.data() + a_size, b.data(), b.data() + b_size, merged.data(), less);
        for (std::size_t i = 0; i < merged.size(); ++i) {
          ASSERT_EQ(merged[i].key, expected[i].key) << "at " << i;
          ASSERT_EQ(merged[i].source, expected[i].source) << "at " << i;
          ASSERT_EQ(merged[i].position, expected[i].position) << "at " << i;
        }
      }
    }
  }
}

// An order that is not strict weak (NaN compares false both ways): the chains must not pass
// each other, so the output is still a permutation of the inputs.
TEST(MergeFourChains, PermutesTheInputsUnderAnOrderThatIsNotStrictWeak) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a{1, nan, 2, nan, 3, 4, nan, nan, 9, 10};
  std::vector<double> b{nan, 0.5, nan, nan, 2.5, 3.5, nan, 8, nan};
  std::vector<double> merged(a.size() + b.size(), -1);
  std::less<> less;
  dash::detail::merge_four_chains(a.data(), a.data() + a.size(), b.data(), b.data() + b.size(), merged.data(), less);
  std::vector<double> inputs = a;
  inputs.insert(inputs.end(), b.begin(), b.end());
  const auto same = [](double x, double y) { return std::isnan(x) ? std::isnan(y) : x == y; };
  EXPECT_TRUE(std::is_permutation(merged.begin(), merged.end(), inputs.begin(), inputs.end(), same));
}

TEST(RunMergeTree, RejectsMoreElementsThanARunHas) {
  std::vector<int> received{1, 2, 3};
  std::vector<int> destination(3);
  const std::vector<std::size_t> sizes{2, 1};
  RunMergeTree<int, std::less<>> merge(received, destination, sizes, std::less<>());
  merge.landed(0, 1);
  EXPECT_THROW(merge.landed(0, 2), dash::AssertionFailure);
}

}  // namespace
