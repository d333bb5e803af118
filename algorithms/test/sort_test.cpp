// dash::sort on dash::Array (BLOCKED, CYCLIC, BLOCKCYCLIC(k)) and dash::Matrix, with stable on and off
// and partial merging on and off: random, sorted, reverse-sorted, all-equal, two-valued and
// duplicate-heavy inputs; floats with infinities, denormals and signed zeros; structs ordered by a
// comparator or a projection; the spreadsort and vqsort kernels and when they are allowed (vqsort also
// in builds without it); arrays with fewer elements
// than units; sub-ranges; arrays on a sub-team (the counting path for integer keys is in
// sort_test_counting.cpp). Each sort is checked as sort_test_oracle.hpp describes. Also the errors of misuse, and NaN keys.
// Integers of every width and float in natural and reversed order: the suite of
// sort_test_arithmetic.hpp, for int32_t and float here, for the other widths in
// sort_test_integer_widths.cpp.
//
// Map: the input generators (floats, signed zeros, magnitudes, full-range integers); Sort (every input
// shape and distribution, structs, projections, floats, units without elements, sub-ranges, larger
// inputs, local kernels and their choice, spreadsort and vqsort, sub-teams, matrices, phase times);
// SortErrors (NaN keys, bad ranges and arguments); the arithmetic suite for int32_t and float.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
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
#include "sort_test_arithmetic.hpp"
#include "sort_test_inputs.hpp"
#include "sort_test_oracle.hpp"

namespace {

using namespace dash::testing::sorting;
using dash::Team;

std::size_t P() { return dash::size(); }
std::size_t me() { return static_cast<std::size_t>(dash::myid()); }

// NaN-free doubles: ordinary values of both signs with many repeats, both zeros, both infinities,
// denormals and the extremes.
std::vector<double> float_input(std::size_t n) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + 11);
  std::uniform_real_distribution<double> ordinary(-1e6, 1e6);
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const std::array<double, 9> special{0.0,
                                      -0.0,
                                      infinity,
                                      -infinity,
                                      std::numeric_limits<double>::denorm_min(),
                                      -3 * std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::lowest(),
                                      0.5};
  std::vector<double> values(n);
  for (double& x : values) {
    const std::uint64_t pick = random() % 4;
    x = pick == 0   ? special[random() % special.size()]
        : pick == 1 ? std::round(ordinary(random) / 1e5)
                    : ordinary(random);
  }
  return values;
}

// Mostly zeros of both signs, some ones of both signs.
template <class T>
std::vector<T> signed_zero_input(std::size_t n) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + 13);
  const std::array<T, 6> values{0.0, -0.0, 0.0, -0.0, 1.0, -1.0};
  std::vector<T> result(n);
  for (T& x : result) {
    x = values[random() % values.size()];
  }
  return result;
}

// NaN-free doubles of every magnitude from the smallest denormal to the largest finite value, of
// both signs, with both zeros, both infinities and many repeats: the bit patterns a radix sort must
// order like <.
std::vector<double> magnitude_input(std::size_t n) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + 15);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-1073, 1024);
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const std::array<double, 7> repeated{0.0, -0.0, infinity, -infinity, 1e-300, -2.5, 7e42};
  std::vector<double> values(n);
  for (double& x : values) {
    const double sign = random() % 2 == 0 ? 1.0 : -1.0;
    x = random() % 4 == 0 ? repeated[random() % repeated.size()]
                          : sign * std::ldexp(mantissa(random), exponent(random));
  }
  return values;
}

// Integers over T's whole range, one in eight of them one of five small values.
template <class T>
std::vector<T> full_range_input(std::size_t n, std::uint64_t stream) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + stream);
  std::vector<T> values(n);
  for (T& x : values) {
    x = random() % 8 == 0 ? static_cast<T>(random() % 5) : static_cast<T>(random());
  }
  return values;
}

// spreadsort is allowed exactly where sorting the values gives comp's order.
using dash::detail::natural_order;
static_assert(natural_order<double, std::ranges::less, std::identity>);
static_assert(natural_order<float, std::less<>, std::identity>);
static_assert(natural_order<std::int32_t, std::less<std::int32_t>, std::identity>);
static_assert(natural_order<std::uint64_t, std::ranges::less, std::identity>);
static_assert(!natural_order<double, std::greater<>, std::identity>);
static_assert(!natural_order<double, std::less<int>, std::identity>);
static_assert(!natural_order<double, std::ranges::less, std::negate<>>);
static_assert(!natural_order<long double, std::ranges::less, std::identity>);
static_assert(!natural_order<bool, std::ranges::less, std::identity>);
static_assert(!natural_order<Item, ByKey, std::identity>);

// vqsort is allowed where spreadsort is, for the key types where it measured faster than pdqsort.
using dash::detail::kernel_fit;
static_assert(dash::detail::vqsort_key<double> && dash::detail::vqsort_key<std::int64_t> &&
              dash::detail::vqsort_key<std::uint64_t> && dash::detail::vqsort_key<std::int16_t> &&
              dash::detail::vqsort_key<std::uint16_t>);
static_assert(!dash::detail::vqsort_key<float> && !dash::detail::vqsort_key<std::int32_t> &&
              !dash::detail::vqsort_key<std::uint32_t> && !dash::detail::vqsort_key<std::int8_t> &&
              !dash::detail::vqsort_key<long double>);

TEST(Sort, EveryInputShapeOnEveryDistribution) {
  std::vector<std::size_t> sizes{P() + 1, 97, 2003};
  for (const dash::Distribution& distribution : distributions()) {
    for (std::size_t n : sizes) {
      dash::Array<int> a(n, distribution);
      for (Shape shape : shapes()) {
        SCOPED_TRACE(name(shape) + ", " + describe(distribution, n, {0, n}));
        write(a, shaped_input<int>(shape, n, 1));
        for (const dash::SortOptions& options : option_sets()) {
          expect_sorts_like_std(a, {0, n}, options);
        }
      }
    }
  }
}

TEST(Sort, StructsByAComparatorKeepTheirPayloads) {
  const std::size_t n = 997;
  for (const dash::Distribution& distribution : distributions()) {
    dash::Array<Item> a(n, distribution);
    for (Shape shape : shapes()) {
      SCOPED_TRACE(name(shape) + ", " + describe(distribution, n, {0, n}));
      write(a, shaped_input<Item>(shape, n, 2));
      for (const dash::SortOptions& options : option_sets()) {
        expect_sorts_like_std(a, {0, n}, options, ByKey{});
      }
    }
  }
}

TEST(Sort, ProjectionsSelectTheKey) {
  const std::size_t n = 613;
  const auto residue = [](const Item& x) { return x.key % 5; };
  for (const dash::Distribution& distribution : distributions()) {
    dash::Array<Item> a(n, distribution);
    for (Shape shape : {Shape::random, Shape::heavy_duplicates, Shape::sorted}) {
      SCOPED_TRACE(name(shape) + ", " + describe(distribution, n, {0, n}));
      write(a, shaped_input<Item>(shape, n, 3));
      for (const dash::SortOptions& options : option_sets()) {
        SCOPED_TRACE("descending by &Item::key");
        expect_sorts_like_std(a, {0, n}, options, std::ranges::greater{}, &Item::key);
      }
      for (const dash::SortOptions& options : option_sets()) {
        SCOPED_TRACE("ascending by key % 5");
        expect_sorts_like_std(a, {0, n}, options, std::less<>{}, residue);
      }
    }
  }
}

TEST(Sort, FloatsWithInfinitiesDenormalsAndSignedZeros) {
  const std::size_t n = 1499;
  for (const dash::Distribution& distribution : distributions()) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<double> a(n, distribution);
    write(a, float_input(n));
    for (const dash::SortOptions& options : option_sets()) {
      expect_sorts_like_std(a, {0, n}, options);
    }
  }
}

// -0.0 and 0.0 are equivalent under <: a stable sort keeps them in input order, any sort keeps how
// many of each there are (the bit patterns are compared).
TEST(Sort, NegativeZeroIsEquivalentToZeroAndKeepsItsSign) {
  const std::size_t n = 601;
  for (const dash::Distribution& distribution : distributions()) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<float> a(n, distribution);
    write(a, signed_zero_input<float>(n));
    const std::vector<float> input = gather(a);
    const auto negative_zeros =
        std::count_if(input.begin(), input.end(), [](float x) { return x == 0 && std::signbit(x); });
    EXPECT_GT(negative_zeros, 0);
    for (const dash::SortOptions& options : option_sets()) {
      expect_sorts_like_std(a, {0, n}, options);
    }
  }
}

TEST(Sort, UnitsWithoutElements) {
  std::vector<std::size_t> sizes{0, 1, P() / 2, P() - 1};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  for (const dash::Distribution& distribution : distributions()) {
    for (std::size_t n : sizes) {
      SCOPED_TRACE(describe(distribution, n, {0, n}));
      dash::Array<Item> a(n, distribution);
      write(a, shaped_input<Item>(Shape::two_values, n, 4));
      for (const dash::SortOptions& options : option_sets()) {
        expect_sorts_like_std(a, {0, n}, options, ByKey{});
      }
    }
  }
}

// Ranges that start and end inside blocks, a single element, the first half, and an empty range.
TEST(Sort, SubRangesLeaveTheRestUntouched) {
  const std::size_t n = 1001;
  const std::vector<Span> spans{{1, n - 1}, {n / 3 + 1, n - n / 4}, {5, 6}, {0, n / 2}, {n / 2, n / 2}};
  for (const dash::Distribution& distribution : distributions()) {
    dash::Array<int> numbers(n, distribution);
    dash::Array<Item> items(n, distribution);
    write(numbers, shaped_input<int>(Shape::random, n, 5));
    write(items, shaped_input<Item>(Shape::heavy_duplicates, n, 6));
    for (const Span& span : spans) {
      SCOPED_TRACE(describe(distribution, n, span));
      for (const dash::SortOptions& options : option_sets()) {
        expect_sorts_like_std(numbers, span, options);
        expect_sorts_like_std(items, span, options, ByKey{});
      }
    }
  }
}

TEST(Sort, LargerInputs) {
  const std::size_t n = 20000;
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(64)}) {
    SCOPED_TRACE(describe(distribution, n, {0, n}));
    dash::Array<int> numbers(n, distribution);
    dash::Array<Item> items(n, distribution);
    write(numbers, shaped_input<int>(Shape::random, n, 7));
    write(items, shaped_input<Item>(Shape::heavy_duplicates, n, 8));
    for (const dash::SortOptions& options : option_sets()) {
      expect_sorts_like_std(numbers, {0, n}, options);
      if (options.stable == options.partial_merge) {
        expect_sorts_like_std(items, {n / 7, n - 3}, options, ByKey{});
      }
    }
  }
}

// Every local kernel gives the same result (the kernel is a measurement knob only).
TEST(Sort, EveryLocalKernelSortsAlike) {
  const std::size_t n = 5000;
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC}) {
    dash::Array<Item> items(n, distribution);
    for (const dash::SortKernel kernel : {dash::SortKernel::pdqsort, dash::SortKernel::pdqsort_branchless,
                                          dash::SortKernel::std_stable_sort}) {
      for (const bool stable : {false, true}) {
        SCOPED_TRACE(describe(distribution, n, {0, n}) + " kernel " + std::to_string(static_cast<int>(kernel)));
        dash::SortOptions options;
        options.kernel = kernel;
        options.stable = stable;
        write(items, shaped_input<Item>(Shape::heavy_duplicates, n, 11));
        expect_sorts_like_std(items, {0, n}, options, ByKey{});
      }
    }
  }
}

TEST(Sort, KernelChoice) {
  using dash::detail::KernelFit;
  using dash::detail::LocalSortKernel;
  using dash::detail::local_kernel;
  const KernelFit radix_only{.scalar = true, .natural = true, .vqsort_natural = false, .vqsort_built = true};
  const KernelFit vqsort_fits{.scalar = true, .natural = true, .vqsort_natural = true, .vqsort_built = true};
  const KernelFit vqsort_missing{.scalar = true, .natural = true, .vqsort_natural = true, .vqsort_built = false};
  const KernelFit comparison{.scalar = true, .natural = false, .vqsort_natural = false, .vqsort_built = true};
  const KernelFit structs{.scalar = false, .natural = false, .vqsort_natural = false, .vqsort_built = true};
  dash::SortOptions options;
  EXPECT_EQ(local_kernel(options, vqsort_fits), LocalSortKernel::vqsort);
  EXPECT_EQ(local_kernel(options, vqsort_missing), LocalSortKernel::pdqsort_branchless);
  EXPECT_EQ(local_kernel(options, radix_only), LocalSortKernel::pdqsort_branchless);
  EXPECT_EQ(local_kernel(options, comparison), LocalSortKernel::pdqsort_branchless);
  EXPECT_EQ(local_kernel(options, structs), LocalSortKernel::pdqsort);
  options.stable = true;
  EXPECT_EQ(local_kernel(options, vqsort_fits), LocalSortKernel::pdqsort_branchless);

  options = {};
  options.kernel = dash::SortKernel::spreadsort;
  EXPECT_EQ(local_kernel(options, radix_only), LocalSortKernel::spreadsort);
  EXPECT_EQ(local_kernel(options, vqsort_fits), LocalSortKernel::spreadsort);
  EXPECT_THROW(local_kernel(options, comparison), dash::InvalidArgument);
  options.stable = true;
  EXPECT_THROW(local_kernel(options, radix_only), dash::InvalidArgument);

  options = {};
  options.kernel = dash::SortKernel::vqsort;
  EXPECT_EQ(local_kernel(options, vqsort_fits), LocalSortKernel::vqsort);
  EXPECT_THROW(local_kernel(options, radix_only), dash::InvalidArgument);
  EXPECT_THROW(local_kernel(options, comparison), dash::InvalidArgument);
  try {
    local_kernel(options, vqsort_missing);
    ADD_FAILURE() << "vqsort is not rejected when the build lacks it";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("dash was built without Highway's vqsort (libhwy-dev)"),
              std::string::npos)
        << error.what();
  }
  options.stable = true;
  EXPECT_THROW(local_kernel(options, vqsort_fits), dash::InvalidArgument);

  // What dash::sort passes for its element types and orders.
  const bool built = dash::detail::vqsort_built();
  EXPECT_EQ((kernel_fit<double, std::ranges::less, std::identity>().vqsort_natural), true);
  EXPECT_EQ((kernel_fit<double, std::ranges::less, std::identity>().vqsort_built), built);
  EXPECT_EQ((kernel_fit<std::int64_t, std::less<std::int64_t>, std::identity>().vqsort_natural), true);
  EXPECT_EQ((kernel_fit<std::uint16_t, std::less<>, std::identity>().vqsort_natural), true);
  EXPECT_EQ((kernel_fit<float, std::ranges::less, std::identity>().vqsort_natural), false);
  EXPECT_EQ((kernel_fit<std::int32_t, std::ranges::less, std::identity>().vqsort_natural), false);
  EXPECT_EQ((kernel_fit<double, std::greater<>, std::identity>().vqsort_natural), false);
  EXPECT_EQ((kernel_fit<double, std::ranges::less, std::negate<>>().vqsort_natural), false);
  EXPECT_EQ((kernel_fit<Item, ByKey, std::identity>().vqsort_natural), false);
}

// SortKernel::spreadsort (Boost.Sort's radix sort) orders like <, with enough elements per unit that
// its radix passes run (it hands fewer than 1000 elements to pdqsort).
TEST(Sort, SpreadsortKernelOrdersLikeLess) {
  const std::size_t n = 3000 * P() + 11;
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC}) {
    dash::Array<double> doubles(n, distribution);
    dash::Array<float> zeros(n, distribution);
    dash::Array<std::uint64_t> wide(n, distribution);
    dash::Array<std::int32_t> narrow(n, distribution);
    write(doubles, magnitude_input(n));
    write(zeros, signed_zero_input<float>(n));
    write(wide, full_range_input<std::uint64_t>(n, 16));
    write(narrow, full_range_input<std::int32_t>(n, 17));
    for (const bool partial_merge : {true, false}) {
      SCOPED_TRACE(describe(distribution, n, {0, n}));
      dash::SortOptions options;
      options.kernel = dash::SortKernel::spreadsort;
      options.partial_merge = partial_merge;
      expect_sorts_like_std(doubles, {0, n}, options);
      expect_sorts_like_std(zeros, {0, n}, options);
      expect_sorts_like_std(wide, {0, n}, options);
      expect_sorts_like_std(narrow, {3, n - 2}, options, std::less<std::int32_t>{});
    }
  }
}

// SortKernel::vqsort (Highway's vectorised quicksort) orders like <: doubles of every magnitude with
// both zeros, both infinities, denormals and repeats, and integers over their whole range, with enough
// elements per unit that vqsort partitions rather than only running its sorting networks. Automatic
// picks it for these arrays, so the other tests with such keys run it too. A build without vqsort
// sorts the same keys with the kernel it picks instead (that asking for vqsort there throws is
// checked in SortErrors.RangesOfTwoContainersOrOutsideOneAreRejected).
TEST(Sort, VqsortKeysOrderLikeLess) {
  const dash::SortKernel kernel =
      dash::detail::vqsort_built() ? dash::SortKernel::vqsort : dash::SortKernel::automatic;
  const std::size_t n = 3000 * P() + 11;
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC}) {
    dash::Array<double> magnitudes(n, distribution);
    dash::Array<double> specials(n, distribution);
    dash::Array<double> zeros(n, distribution);
    dash::Array<std::int64_t> signed_wide(n, distribution);
    dash::Array<std::uint64_t> wide(n, distribution);
    dash::Array<std::int16_t> signed_narrow(n, distribution);
    dash::Array<std::uint16_t> narrow(n, distribution);
    write(magnitudes, magnitude_input(n));
    write(specials, float_input(n));
    write(zeros, signed_zero_input<double>(n));
    write(signed_wide, full_range_input<std::int64_t>(n, 18));
    write(wide, full_range_input<std::uint64_t>(n, 19));
    write(signed_narrow, full_range_input<std::int16_t>(n, 20));
    write(narrow, full_range_input<std::uint16_t>(n, 21));
    for (const bool partial_merge : {true, false}) {
      SCOPED_TRACE(describe(distribution, n, {0, n}));
      dash::SortOptions options;
      options.kernel = kernel;
      options.partial_merge = partial_merge;
      expect_sorts_like_std(magnitudes, {0, n}, options);
      expect_sorts_like_std(specials, {1, n - 4}, options, std::less<>{});
      expect_sorts_like_std(zeros, {0, n}, options, std::less<double>{});
      expect_sorts_like_std(signed_wide, {0, n}, options);
      expect_sorts_like_std(wide, {5, n}, options, std::less<std::uint64_t>{});
      expect_sorts_like_std(signed_narrow, {0, n}, options, std::less<>{});
      expect_sorts_like_std(narrow, {0, n - 1}, options);
    }
  }
}

// Both halves of Team::All() sort an array of their own at the same time, of different sizes.
TEST(Sort, ArraysOnASubTeam) {
  Team& half = Team::All().split(P() >= 2 ? 2 : 1);
  const bool upper = half.global_rank(0) != 0;
  const std::size_t n = upper ? 389 : 452;
  {
    for (const dash::Distribution& distribution : distributions()) {
      SCOPED_TRACE(describe(distribution, n, {0, n}) + (upper ? ", upper half" : ", lower half"));
      dash::Array<Item> a(n, distribution, half);
      write(a, shaped_input<Item>(Shape::heavy_duplicates, n, 9));
      for (const dash::SortOptions& options : option_sets()) {
        expect_sorts_like_std(a, {0, n}, options, ByKey{});
        expect_sorts_like_std(a, {n / 5, n - 1}, options, ByKey{});
      }
    }
  }
  half.free();
}

// Global iteration over a matrix is row-major: dash::sort orders the elements in that order.
TEST(Sort, MatricesInRowMajorOrder) {
  const std::size_t rows = 23;
  const std::size_t cols = 17;
  const std::size_t n = rows * cols;
  const std::vector<dash::DistributionSpec<2>> specs{dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                                                     dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)),
                                                     dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKED)};
  for (const auto& spec : specs) {
    SCOPED_TRACE(spec[0].name() + " x " + spec[1].name());
    dash::Matrix<int, 2> m(dash::SizeSpec<2>(rows, cols), spec);
    write(m, shaped_input<int>(Shape::heavy_duplicates, n, 10));
    for (const dash::SortOptions& options : option_sets()) {
      expect_sorts_like_std(m, {0, n}, options);
      expect_sorts_like_std(m, {cols + 2, n - cols / 2}, options, std::ranges::greater{});
    }
  }
}

TEST(Sort, ReportsItsPhaseTimes) {
  const std::size_t n = 3000;
  dash::Array<int> a(n);
  write(a, shaped_input<int>(Shape::random, n, 12));
  dash::SortPhases phases;
  phases.local_sort = -1;
  dash::SortOptions options;
  options.phases = &phases;
  dash::sort(a.begin(), a.end(), std::ranges::less{}, std::identity{}, options);
  EXPECT_GE(phases.local_sort, 0);
  EXPECT_GE(phases.splitters, 0);
  EXPECT_GE(phases.exchange, 0);
  EXPECT_GE(phases.merge, 0);
  EXPECT_GE(phases.splitter_rounds, 0);
  const std::vector<int> sorted = gather(a);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

// NaN keys break the strict weak ordering sort needs: the call may return (in no particular order)
// or throw dash::InvalidArgument, but alike on every unit, and no element is lost or duplicated.
TEST(SortErrors, NanKeysEndTheSameWayOnEveryUnitAndLoseNoElement) {
  const auto bits_of = [](const std::vector<double>& values) {
    std::vector<std::uint64_t> bits(values.size());
    std::transform(values.begin(), values.end(), bits.begin(),
                   [](double x) { return std::bit_cast<std::uint64_t>(x); });
    std::sort(bits.begin(), bits.end());
    return bits;
  };
  for (const std::size_t n : {std::size_t{50}, std::size_t{997}}) {
    std::mt19937 random(static_cast<std::mt19937::result_type>(n));
    std::vector<double> input(n);
    for (double& x : input) {
      x = random() % 5 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(random() % 10);
    }
    for (const dash::SortKernel kernel : {dash::SortKernel::automatic, dash::SortKernel::pdqsort}) {
      SCOPED_TRACE(std::to_string(n) + " elements, kernel " + std::to_string(static_cast<int>(kernel)));
      dash::Array<double> a(n, dash::CYCLIC);
      write(a, input);
      dash::SortOptions options;
      options.kernel = kernel;
      bool threw = false;
      try {
        dash::sort(a.begin(), a.end(), std::ranges::less{}, std::identity{}, options);
      } catch (const dash::InvalidArgument& error) {
        threw = true;
        EXPECT_NE(std::string(error.what()).find("strict weak ordering"), std::string::npos) << error.what();
      }
      EXPECT_TRUE(dash::testing::on_all_ranks(threw) || dash::testing::on_all_ranks(!threw));
      a.barrier();
      EXPECT_EQ(bits_of(gather(a)), bits_of(input));
    }
  }
}

// Every check fails on every unit, before any communication, so no unit is left waiting.
TEST(SortErrors, RangesOfTwoContainersOrOutsideOneAreRejected) {
  dash::Array<int> a(40), b(40);
  bool rejected = false;
  try {
    dash::sort(a.begin(), b.end());
  } catch (const dash::InvalidArgument& error) {
    rejected = true;
    EXPECT_NE(std::string(error.what()).find("dash::sort"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(rejected)) << "iterators of two arrays are not rejected on every unit";

  rejected = false;
  try {
    dash::sort(a.begin() + 7, a.begin() + 3);
  } catch (const dash::InvalidArgument& error) {
    rejected = true;
    const std::string message = error.what();
    EXPECT_NE(message.find("dash::sort"), std::string::npos) << message;
    EXPECT_NE(message.find("'last' = 3"), std::string::npos) << message;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(rejected)) << "a range running backwards is not rejected on every unit";

  EXPECT_TRUE(dash::testing::on_all_ranks([&] {
    try {
      dash::sort(a.begin() + 1, a.begin() + 41);
    } catch (const dash::OutOfRange&) {
      return true;
    }
    return false;
  }())) << "a range past the end is not rejected on every unit";

  {
    Team& half = Team::All().split(P() >= 2 ? 2 : 1);
    {
      dash::Array<int> on_half(40, dash::BLOCKED, half);
      EXPECT_TRUE(dash::testing::on_all_ranks([&] {
        try {
          dash::sort(on_half.begin(), a.end());
        } catch (const dash::InvalidArgument&) {
          return true;
        }
        return false;
      }())) << "iterators of arrays on two teams are not rejected on every unit";
    }
    half.free();
  }

  // Units that pass different ranges: caught by the cross-rank checks, on every unit.
  if constexpr (dash::comm::cross_rank_checks_enabled) {
    if (P() >= 2) {
      EXPECT_TRUE(dash::testing::on_all_ranks([&] {
        try {
          dash::sort(a.begin() + static_cast<std::ptrdiff_t>(me() % 2), a.end());
        } catch (const dash::InvalidArgument&) {
          return true;
        }
        return false;
      }())) << "different ranges on different units are not rejected on every unit";
    }
  }

  // spreadsort where sorting the values would not give the order asked for.
  dash::SortOptions spreadsort;
  spreadsort.kernel = dash::SortKernel::spreadsort;
  dash::Array<std::int32_t> numbers(40);
  dash::Array<Item> items(40);
  const auto rejects_spreadsort = [](auto sort) {
    try {
      sort();
    } catch (const dash::InvalidArgument& error) {
      return std::string(error.what()).find("spreadsort") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_spreadsort(
      [&] { dash::sort(numbers.begin(), numbers.end(), std::greater<>{}, std::identity{}, spreadsort); })))
      << "spreadsort in descending order is not rejected on every unit";
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_spreadsort(
      [&] { dash::sort(items.begin(), items.end(), ByKey{}, std::identity{}, spreadsort); })))
      << "spreadsort of structs is not rejected on every unit";
  spreadsort.stable = true;
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_spreadsort(
      [&] { dash::sort(numbers.begin(), numbers.end(), std::ranges::less{}, std::identity{}, spreadsort); })))
      << "a stable spreadsort is not rejected on every unit";

  // vqsort where sorting the values would not give the order asked for, or for keys it does not take
  // (int32_t measured slower than pdqsort); in a build without vqsort, everywhere, saying so.
  dash::SortOptions vqsort;
  vqsort.kernel = dash::SortKernel::vqsort;
  dash::Array<double> doubles(40);
  // Every rejection names the argument; a build without vqsort says so.
  const auto rejects_vqsort = [](auto sort, const std::string& reason = "'options.kernel'") {
    try {
      sort();
    } catch (const dash::InvalidArgument& error) {
      const std::string message = error.what();
      return message.find("vqsort") != std::string::npos && message.find(reason) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_vqsort(
      [&] { dash::sort(doubles.begin(), doubles.end(), std::greater<>{}, std::identity{}, vqsort); })))
      << "vqsort in descending order is not rejected on every unit";
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_vqsort(
      [&] { dash::sort(numbers.begin(), numbers.end(), std::ranges::less{}, std::identity{}, vqsort); })))
      << "vqsort of int32_t is not rejected on every unit";
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_vqsort(
      [&] { dash::sort(items.begin(), items.end(), ByKey{}, std::identity{}, vqsort); })))
      << "vqsort of structs is not rejected on every unit";
  if (!dash::detail::vqsort_built()) {
    EXPECT_TRUE(dash::testing::on_all_ranks(rejects_vqsort(
        [&] { dash::sort(doubles.begin(), doubles.end(), std::ranges::less{}, std::identity{}, vqsort); },
        "dash was built without Highway's vqsort (libhwy-dev)")))
        << "vqsort in a build without it is not rejected on every unit";
  }
  vqsort.stable = true;
  EXPECT_TRUE(dash::testing::on_all_ranks(rejects_vqsort(
      [&] { dash::sort(doubles.begin(), doubles.end(), std::ranges::less{}, std::identity{}, vqsort); })))
      << "a stable vqsort is not rejected on every unit";

  // Empty ranges are fine, also of an unallocated array.
  dash::Array<int> none;
  dash::sort(none.begin(), none.end());
  dash::sort(a.begin() + 9, a.begin() + 9);
}

}  // namespace

namespace dash::testing::sorting {

// Their dash::sort with std::ranges::less is already instantiated by the tests above.
using IntAndFloat = ::testing::Types<std::int32_t, float>;
INSTANTIATE_TYPED_TEST_SUITE_P(IntAndFloat, SortArithmetic, IntAndFloat);

}  // namespace dash::testing::sorting
