// dash::sort's counting path (integer keys in a narrow range, docs/sort.md "Counting path"): forced
// and automatic, ascending and descending, on every distribution and on sub-ranges (uneven parts
// and units without elements); phases.counting tells which path ran; one key leaves every element
// in place; integers that are their own keys have their slices written from the global histogram.
// Also where the path is refused. A translation unit of its own beside sort_test.cpp: each
// takes minutes to compile with the sanitizers, and two compile in parallel.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "sort_test_inputs.hpp"
#include "sort_test_oracle.hpp"

namespace {

using namespace dash::testing::sorting;

std::size_t P() { return dash::size(); }

// n integers uniform in [low, high].
template <class T>
std::vector<T> uniform_integers(std::size_t n, T low, T high, std::uint64_t stream) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + stream);
  std::uniform_int_distribution<T> pick(low, high);
  std::vector<T> values(n);
  for (T& x : values) {
    x = pick(random);
  }
  return values;
}

std::string path_name(dash::SortPath path) {
  return path == dash::SortPath::counting ? "counting path forced" : "automatic path";
}

// Sorts [span) of `a` forced onto the counting path (merging while landing) and on the automatic
// path (merging after the exchange), which must take the counting path exactly when
// `automatic_counts`.
template <class T, class Comp = std::ranges::less, class Proj = std::identity>
void expect_counting_sorts(dash::Array<T>& a, const Span& span, bool automatic_counts, Comp comp = {},
                           Proj proj = {}) {
  for (const dash::SortPath path : {dash::SortPath::counting, dash::SortPath::automatic}) {
    SCOPED_TRACE(path_name(path));
    dash::SortPhases phases;
    dash::SortOptions options;
    options.path = path;
    options.partial_merge = path == dash::SortPath::counting;
    options.phases = &phases;
    expect_sorts_like_std(a, span, options, comp, proj);
    if (span.end > span.begin) {
      EXPECT_EQ(phases.counting, path == dash::SortPath::counting || automatic_counts);
    }
  }
}

TEST(SortCounting, NarrowIntegerKeysOnEveryDistribution) {
  const std::size_t n = 999;
  constexpr std::uint32_t wide = std::uint32_t{1} << 21U;
  for (const dash::Distribution& distribution : distributions()) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<std::uint32_t> keys(n, distribution);
    SCOPED_TRACE("40 keys, heavy duplicates");
    write(keys, uniform_integers<std::uint32_t>(n, 1000, 1039, 31));
    expect_counting_sorts(keys, {0, n}, true);
    expect_counting_sorts(keys, {0, n}, true, std::greater<>{});
    SCOPED_TRACE("all keys equal");
    write(keys, std::vector<std::uint32_t>(n, 77));
    expect_counting_sorts(keys, {0, n}, true);
    // Wider than 4096 keys: the coarse histogram has buckets of several keys.
    SCOPED_TRACE("keys in [0, 2^13), two per coarse bucket");
    write(keys, uniform_integers<std::uint32_t>(n, 0, (1U << 13U) - 1, 32));
    expect_counting_sorts(keys, {0, n}, true, std::ranges::greater{});
    // Wider than 2^16 and than N / p: automatic keeps the comparison path.
    SCOPED_TRACE("keys in [0, 2^21)");
    write(keys, uniform_integers<std::uint32_t>(n, 0, wide - 1, 33));
    expect_counting_sorts(keys, {0, n}, false, std::greater<std::uint32_t>{});
  }
}

TEST(SortCounting, SignedAndExtremeKeys) {
  const std::size_t n = 701;
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  constexpr std::uint64_t highest = std::numeric_limits<std::uint64_t>::max();
  for (const dash::Distribution& distribution : {dash::BLOCKCYCLIC(3)}) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<std::int32_t> small(n, distribution);
    write(small, uniform_integers<std::int32_t>(n, -700, 300, 34));
    expect_counting_sorts(small, {0, n}, true, std::greater<>{});
    dash::Array<std::int64_t> low(n, distribution);
    write(low, uniform_integers<std::int64_t>(n, lowest, lowest + 5000, 35));
    expect_counting_sorts(low, {0, n}, true);
    dash::Array<std::uint64_t> high(n, distribution);
    write(high, uniform_integers<std::uint64_t>(n, highest - 9000, highest, 36));
    expect_counting_sorts(high, {0, n}, true, std::greater<>{});
    dash::Array<std::int8_t> tiny(n, distribution);
    const std::vector<std::int16_t> bytes = uniform_integers<std::int16_t>(n, -128, 127, 37);
    write(tiny, std::vector<std::int8_t>(bytes.begin(), bytes.end()));
    expect_counting_sorts(tiny, {0, n}, true);
  }
}

// Structs by an integer member or a computed integer: elements move with their payloads.
TEST(SortCounting, ProjectionsToIntegers) {
  const std::size_t n = 603;
  const auto residue = [](const Item& x) { return static_cast<int>(x.key % 7); };
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC}) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<Item> items(n, distribution);
    std::vector<Item> input(n);
    const std::vector<std::int64_t> keys = uniform_integers<std::int64_t>(n, -50, 50, 38);
    for (std::size_t i = 0; i < n; ++i) {
      input[i] = Item{keys[i], i};
    }
    write(items, input);
    expect_counting_sorts(items, {0, n}, true, std::less<>{}, &Item::key);
    expect_counting_sorts(items, {0, n}, true, std::ranges::greater{}, &Item::key);
    expect_counting_sorts(items, {0, n}, true, std::less<int>{}, residue);
  }
}

// One key on every unit (all projected keys equal): the range is sorted as it lies, so where each
// unit's slice is its own memory (BLOCKED, a sub-range of it) every element stays where it was,
// payload and all, forced onto the counting path or not. (Elsewhere each unit's elements land on
// its slice's positions: NarrowIntegerKeysOnEveryDistribution's all-equal case.)
TEST(SortCounting, OneKeyLeavesEveryElementInPlace) {
  const std::size_t n = 517;
  SCOPED_TRACE(describe(dash::BLOCKED, n, {0, n}));
  dash::Array<Item> items(n, dash::BLOCKED);
  std::vector<Item> input(n);
  for (std::size_t i = 0; i < n; ++i) {
    input[i] = Item{-3, i};
  }
  for (const dash::SortPath path : {dash::SortPath::counting, dash::SortPath::automatic}) {
    SCOPED_TRACE(path_name(path));
    write(items, input);
    dash::SortPhases phases;
    dash::SortOptions options;
    options.path = path;
    options.phases = &phases;
    dash::sort(items.begin(), items.end(), std::less<>{}, &Item::key, options);
    EXPECT_TRUE(phases.counting);
    const std::vector<Item> output = gather(items);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(same_bytes(output[i], input[i])) << "element " << i << " is " << output[i];
    }
  }
}

// Sub-ranges give the units uneven parts, and some units none; so do arrays smaller than the team.
TEST(SortCounting, UnevenPartsAndUnitsWithoutElements) {
  const std::size_t n = 1001;
  const std::vector<Span> spans{{n / 3 + 1, n - n / 4}, {5, 6}, {n - 3, n}};
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::BLOCKCYCLIC(3)}) {
    dash::Array<std::uint32_t> keys(n, distribution);
    write(keys, uniform_integers<std::uint32_t>(n, 3, 12, 39));
    for (const Span& span : spans) {
      SCOPED_TRACE(describe(distribution, n, span));
      expect_counting_sorts(keys, span, true);
    }
    for (const std::size_t small : {std::size_t{1}, P() / 2 + 1}) {
      SCOPED_TRACE(describe(distribution, small, {0, small}));
      dash::Array<std::int16_t> few(small, distribution);
      write(few, uniform_integers<std::int16_t>(small, -2, 2, 40));
      expect_counting_sorts(few, {0, small}, true);
    }
  }
}

// More keys per unit than the key range, which is over 2^16: the automatic rule takes the counting
// path by N / p, as for NPB IS.
TEST(SortCounting, RangeBelowTheMeanPart) {
  const std::size_t n = ((std::size_t{1} << 16U) + 2048) * P();
  dash::Array<std::uint32_t> keys(n);
  write(keys, uniform_integers<std::uint32_t>(n, 0, (1U << 16U) + 1023, 41));
  expect_counting_sorts(keys, {0, n}, true);
}

// Ranges over 2^16 keys are radix-sorted locally, in passes of up to 11 bits: three passes for
// 2^24 keys, both orders, signed keys, payloads moved by a projection, and keys whose lowest digit
// is the same everywhere (that pass is skipped). Forced: the automatic rule declines such ranges
// for this few keys per unit.
TEST(SortCounting, WideRangesThroughTheRadixSort) {
  const std::size_t n = 3001;
  constexpr std::int64_t half = std::int64_t{1} << 23U;
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC}) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<std::int64_t> wide(n, distribution);
    write(wide, uniform_integers<std::int64_t>(n, -half, half - 1, 42));
    expect_counting_sorts(wide, {0, n}, false);
    expect_counting_sorts(wide, {0, n}, false, std::greater<>{});
    dash::Array<std::uint64_t> shifted(n, distribution);
    std::vector<std::uint64_t> keys = uniform_integers<std::uint64_t>(n, 0, (1U << 12U) - 1, 43);
    for (std::uint64_t& key : keys) {
      key <<= 12U;
    }
    write(shifted, keys);
    expect_counting_sorts(shifted, {0, n}, false);
    dash::Array<Item> items(n, distribution);
    const std::vector<std::int64_t> item_keys = uniform_integers<std::int64_t>(n, 0, std::int64_t{1} << 20U, 44);
    std::vector<Item> input(n);
    for (std::size_t i = 0; i < n; ++i) {
      input[i] = Item{item_keys[i], i};
    }
    write(items, input);
    expect_counting_sorts(items, {0, n}, false, std::ranges::greater{}, &Item::key);
  }
}

// Integers sorted as their own keys in a range whose histogram is no larger than a unit's mean part
// take the histogram path (each slice written from the global counts, no element moved), forced or
// automatic, on every distribution, both orders, and with uneven slices and units without elements;
// wider ranges, signed keys far apart and projections move the elements.
template <class T, class Comp = std::ranges::less>
void expect_slices_from_histogram(dash::Array<T>& a, const Span& span, bool from_histogram, Comp comp = {}) {
  for (const dash::SortPath path : {dash::SortPath::counting, dash::SortPath::automatic}) {
    SCOPED_TRACE(path_name(path));
    dash::SortPhases phases;
    dash::SortOptions options;
    options.path = path;
    options.phases = &phases;
    expect_sorts_like_std(a, span, options, comp, std::identity{});
    if (span.end - span.begin > 1) {
      EXPECT_EQ(phases.from_histogram, from_histogram);
      EXPECT_TRUE(phases.counting || (!from_histogram && path == dash::SortPath::automatic));
    }
  }
}

TEST(SortCounting, SlicesFromTheHistogram) {
  const std::size_t n = 999;
  for (const dash::Distribution& distribution : distributions()) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<std::uint32_t> keys(n, distribution);
    write(keys, uniform_integers<std::uint32_t>(n, 500, 539, 45));
    expect_slices_from_histogram(keys, {0, n}, true);
    expect_slices_from_histogram(keys, {0, n}, true, std::greater<>{});
    // Uneven parts; on BLOCKED the first half leaves units without elements from p = 3 on.
    for (const Span& span : {Span{n / 3 + 1, n - n / 4}, Span{0, n / 2}}) {
      SCOPED_TRACE(describe(distribution, n, span));
      expect_slices_from_histogram(keys, span, true);
    }
    // 2^13 keys: a 32 KiB histogram, more than the 4 bytes of each unit's 999 / p keys.
    write(keys, uniform_integers<std::uint32_t>(n, 0, (1U << 13U) - 1, 46));
    expect_slices_from_histogram(keys, {0, n}, false, std::ranges::greater{});
  }
  const std::size_t m = 4000;
  dash::Array<std::int16_t> signed_keys(m, dash::BLOCKCYCLIC(7));
  write(signed_keys, uniform_integers<std::int16_t>(m, -20, 20, 47));
  expect_slices_from_histogram(signed_keys, {0, m}, true, std::greater<>{});
  dash::Array<std::int64_t> extremes(m, dash::CYCLIC);
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  write(extremes, uniform_integers<std::int64_t>(m, lowest, lowest + 99, 48));
  expect_slices_from_histogram(extremes, {0, m}, true);
}

TEST(SortCounting, AutomaticRule) {
  using dash::detail::CodeRange;
  using dash::detail::counting_pays;
  constexpr std::uint64_t mebi = std::uint64_t{1} << 20U;
  // The last argument: whether the comparison path would sort locally with vqsort.
  for (const bool vector_kernel : {false, true}) {
    EXPECT_TRUE(counting_pays(CodeRange{5, 5}, 1, 8, vector_kernel));
    EXPECT_TRUE(counting_pays(CodeRange{0, (1U << 16U) - 1}, 10, 8, vector_kernel));
    EXPECT_FALSE(counting_pays(CodeRange{0, 1U << 16U}, 10, 8, vector_kernel));
    EXPECT_FALSE(counting_pays(CodeRange{0, 2 * mebi - 1}, 32 * mebi, 32, vector_kernel));
    EXPECT_FALSE(counting_pays(CodeRange{0, 16 * mebi}, 1024 * mebi, 2, vector_kernel));  // over 2^24 keys
    EXPECT_FALSE(counting_pays(CodeRange{0, std::numeric_limits<std::uint64_t>::max()}, 1024 * mebi, 1, vector_kernel));
  }
  // Ranges over 2^16 up to N / p: the radix sort beats a scalar kernel, not vqsort.
  EXPECT_TRUE(counting_pays(CodeRange{0, 2 * mebi - 1}, 32 * mebi, 2, false));  // NPB IS class B, 2 units
  EXPECT_TRUE(counting_pays(CodeRange{0, 2 * mebi - 1}, 32 * mebi, 16, false));
  EXPECT_FALSE(counting_pays(CodeRange{0, 2 * mebi - 1}, 32 * mebi, 2, true));
  EXPECT_TRUE(counting_pays(CodeRange{0, (1U << 16U) - 1}, 10 * mebi, 2, true));
  // The histogram path: a histogram of counts no larger than a unit's mean part, and at most 16 MiB.
  using dash::detail::histogram_pays;
  EXPECT_TRUE(histogram_pays(std::size_t{1} << 19U, 4, 8 * mebi, 2, 4));  // NPB IS class A, 2 units
  EXPECT_TRUE(histogram_pays(std::size_t{1} << 21U, 4, 32 * mebi, 16, 4));  // class B, 16 units
  EXPECT_FALSE(histogram_pays(std::size_t{1} << 21U, 4, 32 * mebi, 32, 4));
  EXPECT_TRUE(histogram_pays(std::size_t{1} << 22U, 4, 1024 * mebi, 2, 4));
  EXPECT_FALSE(histogram_pays((std::size_t{1} << 22U) + 1, 4, 1024 * mebi, 2, 4));  // over 16 MiB
  EXPECT_FALSE(histogram_pays(std::size_t{1} << 22U, 8, 1024 * mebi, 2, 4));  // 64-bit counts
  EXPECT_EQ(dash::detail::histogram_count_bytes(std::uint64_t{1} << 32U), 8U);
  EXPECT_EQ(dash::detail::histogram_count_bytes((std::uint64_t{1} << 32U) - 1), 4U);
  using U32Codes = dash::detail::KeyCodes<std::uint32_t, std::identity, false>;
  EXPECT_TRUE((dash::detail::histogram_path<std::uint32_t, U32Codes>(CodeRange{7, 7 + 1023}, 4096, 4)));
  EXPECT_FALSE((dash::detail::histogram_path<std::uint32_t, U32Codes>(CodeRange{7, 7 + 1024}, 4096, 4)));
  using ItemCodes = dash::detail::KeyCodes<Item, decltype(&Item::key), false>;
  EXPECT_FALSE((dash::detail::histogram_path<Item, ItemCodes>(CodeRange{0, 0}, 1024, 1)));
  static_assert(dash::detail::countable<std::uint32_t, std::ranges::less, std::identity>);
  static_assert(dash::detail::countable<Item, std::greater<>, decltype(&Item::key)>);
  static_assert(!dash::detail::countable<double, std::ranges::less, std::identity>);
  static_assert(!dash::detail::countable<Item, ByKey, std::identity>);
  static_assert(!dash::detail::countable<std::int32_t, std::less<double>, std::identity>);
}

// dash::sort_release_scratch gives back the scratch blocks kept between sorts.
TEST(SortScratch, ReleaseFreesTheKeptBlocks) {
  dash::detail::free_scratch(dash::detail::allocate_scratch(std::size_t{4} << 20U));
  EXPECT_GE(dash::detail::cached_scratch_bytes(), std::size_t{4} << 20U);
  dash::sort_release_scratch();
  EXPECT_EQ(dash::detail::cached_scratch_bytes(), 0U);
}

TEST(SortErrors, CountingPathWhereItDoesNotApply) {
  dash::SortOptions counting;
  counting.path = dash::SortPath::counting;
  const std::string expected =
      "dash::sort: invalid argument 'options.path' = 'counting'; expected the comparison path unless the projected "
      "keys are integers, comp is std::ranges::less, std::less, std::ranges::greater or std::greater and "
      "options.stable is false";
  const auto rejects = [&](auto sort) {
    try {
      sort();
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()), expected);
      return true;
    }
    return false;
  };
  dash::Array<double> doubles(40);
  dash::Array<Item> items(40);
  dash::Array<std::int32_t> numbers(40);
  EXPECT_TRUE(dash::testing::on_all_ranks(
      rejects([&] { dash::sort(doubles.begin(), doubles.end(), std::ranges::less{}, std::identity{}, counting); })))
      << "the counting path for doubles is not rejected on every unit";
  EXPECT_TRUE(dash::testing::on_all_ranks(
      rejects([&] { dash::sort(items.begin(), items.end(), ByKey{}, std::identity{}, counting); })))
      << "the counting path with a custom comparator is not rejected on every unit";
  dash::SortOptions stable = counting;
  stable.stable = true;
  EXPECT_TRUE(dash::testing::on_all_ranks(
      rejects([&] { dash::sort(numbers.begin(), numbers.end(), std::ranges::less{}, std::identity{}, stable); })))
      << "the stable counting path is not rejected on every unit";

  // Keys 0 and 2^32 - 1 alternating: a range too wide to histogram.
  dash::Array<std::uint32_t> wide(40);
  std::vector<std::uint32_t> extremes(40, 0);
  for (std::size_t i = 1; i < extremes.size(); i += 2) {
    extremes[i] = std::numeric_limits<std::uint32_t>::max();
  }
  write(wide, extremes);
  EXPECT_TRUE(dash::testing::on_all_ranks([&] {
    try {
      dash::sort(wide.begin(), wide.end(), std::ranges::less{}, std::identity{}, counting);
    } catch (const dash::InvalidArgument& error) {
      EXPECT_EQ(std::string(error.what()),
                "dash::sort: invalid argument 'options.path' = 'counting'; expected the comparison path for keys whose "
                "range max - min = 4294967295 is not below 2^24 (the widest range the counting path histograms)");
      return true;
    }
    return false;
  }())) << "the counting path for a key range over 2^24 is not rejected on every unit";
}

}  // namespace
