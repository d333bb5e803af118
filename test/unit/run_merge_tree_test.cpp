// Merging sorted runs as they land: any landing order and any split of a run into pieces gives
// the stable merge (lower source first on equal keys), and runs never reported are merged by
// finish().

#include <algorithm>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/run_merge_tree.hpp>

namespace {

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
    std::vector<Tagged> buffer = runs.buffer;
    RunMergeTree<Tagged, decltype(&by_key)> merge(buffer, runs.sizes, &by_key);
    for (const auto& [source, count] : pieces) {
      merge.landed(source, count);
    }
    EXPECT_TRUE(merge.done());
    expect_stable_merge(buffer, runs);
  }
}

TEST(RunMergeTree, MergesAsSoonAsNeighboursAreComplete) {
  // Sources 0 and 1 are siblings in the tree of four: their merge happens on the second landing.
  std::vector<int> buffer{5, 6, 1, 2, 9, 0};
  const std::vector<std::size_t> sizes{2, 2, 1, 1};
  RunMergeTree<int, std::less<>> merge(buffer, sizes, std::less<>());
  merge.landed(1, 2);
  EXPECT_EQ(buffer, (std::vector<int>{5, 6, 1, 2, 9, 0}));
  merge.landed(0, 2);
  EXPECT_EQ(buffer, (std::vector<int>{1, 2, 5, 6, 9, 0}));
  EXPECT_FALSE(merge.done());
  merge.landed(3, 1);
  merge.landed(2, 1);
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(buffer, (std::vector<int>{0, 1, 2, 5, 6, 9}));
}

TEST(RunMergeTree, FinishMergesRunsThatWereNeverReported) {
  std::mt19937_64 random(17);
  const Runs runs = random_runs(random, 6, 20, 8);
  std::vector<Tagged> buffer = runs.buffer;
  RunMergeTree<Tagged, decltype(&by_key)> merge(buffer, runs.sizes, &by_key);
  merge.landed(4, runs.sizes[4]);
  merge.landed(0, runs.sizes[0]);
  merge.finish();
  EXPECT_TRUE(merge.done());
  expect_stable_merge(buffer, runs);
}

TEST(RunMergeTree, EmptyRunsAreCompleteFromTheStart) {
  std::vector<int> buffer{3, 1};
  const std::vector<std::size_t> sizes{0, 1, 0, 0, 1, 0};
  RunMergeTree<int, std::less<>> merge(buffer, sizes, std::less<>());
  EXPECT_FALSE(merge.done());
  merge.landed(4, 1);
  merge.landed(1, 1);
  EXPECT_TRUE(merge.done());
  EXPECT_EQ(buffer, (std::vector<int>{1, 3}));
  std::vector<int> nothing;
  const std::vector<std::size_t> all_empty{0, 0, 0};
  EXPECT_TRUE((RunMergeTree<int, std::less<>>(nothing, all_empty, std::less<>()).done()));
}

TEST(RunMergeTree, RejectsMoreElementsThanARunHas) {
  std::vector<int> buffer{1, 2, 3};
  const std::vector<std::size_t> sizes{2, 1};
  RunMergeTree<int, std::less<>> merge(buffer, sizes, std::less<>());
  merge.landed(0, 1);
  EXPECT_THROW(merge.landed(0, 2), dash::AssertionFailure);
}

}  // namespace
