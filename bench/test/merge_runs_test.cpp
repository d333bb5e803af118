// bench/suites/merge_runs: the merges of the all-to-all + merge benchmark (dash-bench, dash-sim-alltoall).
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>

#include "suites/merge_runs.hpp"

namespace {

using dash::bench::alltoall_merge::merge_pairwise;
using dash::bench::alltoall_merge::ProgressiveMerge;

// `runs` sorted runs of `length` doubles, with many ties (values from a small range).
std::vector<double> sorted_runs(std::size_t runs, std::size_t length, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> value(-50, 50);
  std::vector<double> data(runs * length);
  for (std::size_t r = 0; r < runs; ++r) {
    const auto first = data.begin() + static_cast<std::ptrdiff_t>(r * length);
    std::generate(first, first + static_cast<std::ptrdiff_t>(length), [&] { return value(random) * 0.5; });
    std::sort(first, first + static_cast<std::ptrdiff_t>(length));
  }
  return data;
}

std::vector<double> sorted_copy(std::vector<double> data) {
  std::sort(data.begin(), data.end());
  return data;
}

TEST(MergePairwise, MergesEveryRunCountIntoOneSortedSequence) {
  for (const std::size_t runs : {1u, 2u, 3u, 7u, 8u, 13u}) {
    std::vector<double> data = sorted_runs(runs, 37, static_cast<unsigned>(runs));
    const std::vector<double> expected = sorted_copy(data);
    std::vector<double> scratch(data.size());
    std::vector<double> out(data.size());
    merge_pairwise(data, 37, scratch, out);
    EXPECT_EQ(out, expected) << runs << " runs";
  }
}

// Adds the runs in the order given, calling consolidate() before the run at each index in
// `consolidate_before` (as often as it is listed), and returns the output.
std::vector<double> merge_progressively(const std::vector<double>& data, std::size_t runs, std::size_t length,
                                        const std::vector<std::size_t>& order,
                                        const std::vector<std::size_t>& consolidate_before) {
  std::vector<double> out(data.size());
  ProgressiveMerge merge(runs, length, out);
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (const std::size_t at : consolidate_before) {
      if (at == i) {
        merge.consolidate();
      }
    }
    merge.add(std::span<const double>(data).subspan(order[i] * length, length));
  }
  return out;
}

TEST(ProgressiveMerge, MergesRunsArrivingInAnyOrder) {
  for (const std::size_t runs : {1u, 2u, 5u, 8u, 64u}) {
    const std::vector<double> data = sorted_runs(runs, 29, static_cast<unsigned>(runs));
    std::vector<std::size_t> order(runs);
    for (std::size_t i = 0; i < runs; ++i) {
      order[i] = (i * 7 + 3) % runs;
    }
    if (std::count(order.begin(), order.end(), order.front()) != 1) {
      std::iota(order.begin(), order.end(), std::size_t{0});
    }
    EXPECT_EQ(merge_progressively(data, runs, 29, order, {}), sorted_copy(data)) << runs << " runs";
  }
}

TEST(ProgressiveMerge, ConsolidatingBetweenRunsKeepsTheResultAndFindsNothingToMergeInOneRun) {
  const std::size_t runs = 64;
  const std::size_t length = 50;
  const std::vector<double> data = sorted_runs(runs, length, 11);
  std::vector<std::size_t> order(runs);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Consolidations at every stage: after 1 run (nothing to merge), after 3, several in a row after
  // 48 (down to one stored run, then nothing), and right before the last run.
  const std::vector<std::size_t> at{1, 3, 3, 20, 48, 48, 48, 48, 48, 63};
  EXPECT_EQ(merge_progressively(data, runs, length, order, at), sorted_copy(data));

  std::vector<double> out(length * 2);
  ProgressiveMerge merge(2, length, out);
  EXPECT_FALSE(merge.consolidate());
  merge.add(std::span<const double>(data).subspan(0, length));
  EXPECT_FALSE(merge.consolidate()) << "one stored run";
}

// A long consolidated run meeting single runs exercises the galloping merge (lengths 8x apart and
// more), with ties between the two sides and runs entirely below or above the other.
TEST(ProgressiveMerge, MergesRunsOfVeryDifferentLengths) {
  const std::size_t runs = 40;
  const std::size_t length = 16;
  std::vector<double> data = sorted_runs(runs, length, 5);
  std::fill_n(data.begin(), length, -100.0);                                        // below everything
  std::fill_n(data.begin() + static_cast<std::ptrdiff_t>(length), length, 100.0);  // above everything
  std::vector<std::size_t> order(runs);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::size_t> at;
  for (std::size_t i = 2; i < runs; ++i) {
    at.insert(at.end(), {i, i, i, i, i, i});  // everything consolidated before every run
  }
  EXPECT_EQ(merge_progressively(data, runs, length, order, at), sorted_copy(data));
}

TEST(ProgressiveMerge, StartsOverAfterTheLastRun) {
  const std::vector<double> data = sorted_runs(6, 10, 3);
  std::vector<double> out(data.size());
  ProgressiveMerge merge(6, 10, out);
  for (int call = 0; call < 2; ++call) {
    std::fill(out.begin(), out.end(), 0.0);
    for (std::size_t r = 0; r < 6; ++r) {
      if (r == 4) {
        merge.consolidate();
      }
      merge.add(std::span<const double>(data).subspan(r * 10, 10));
    }
    EXPECT_EQ(out, sorted_copy(data)) << "call " << call;
  }
}

TEST(ProgressiveMerge, RejectsRunsOfTheWrongLengthAndEmptyShapes) {
  std::vector<double> out(8);
  EXPECT_THROW(ProgressiveMerge(0, 8, out), dash::InvalidArgument);
  EXPECT_THROW(ProgressiveMerge(2, 0, out), dash::InvalidArgument);
  EXPECT_THROW(ProgressiveMerge(3, 4, out), dash::InvalidArgument);
  ProgressiveMerge merge(2, 4, out);
  const std::vector<double> run(3);
  EXPECT_THROW(merge.add(run), dash::InvalidArgument);
}

}  // namespace
