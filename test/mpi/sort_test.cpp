// dash::sort on dash::Array (BLOCKED, CYCLIC, BLOCKCYCLIC(k)) and dash::Matrix, with stable on and off
// and partial merging on and off: random, sorted, reverse-sorted, all-equal, two-valued and
// duplicate-heavy inputs; floats with infinities, denormals and signed zeros; integers of every width
// and float in natural and reversed order; structs ordered by a comparator or a projection; arrays
// with fewer elements than units; sub-ranges; arrays on a sub-team. Each sort is checked against
// std::stable_sort (stable: element by element, payload included, byte for byte) or std::sort
// (unstable: equivalent keys at every position and the same multiset of bit patterns) of the input
// gathered with dash::copy before the sort; elements outside the range must be untouched, and every
// unit's local memory must hold exactly the expected elements of its own positions. Also the errors
// of misuse.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iomanip>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::Team;

std::size_t P() { return dash::size(); }
std::size_t me() { return static_cast<std::size_t>(dash::myid()); }

// A key with the position it started at: sorting by key alone leaves the origin to tell a stable
// result from an unstable one.
struct Item {
  std::int64_t key;
  std::uint64_t origin;
  friend std::ostream& operator<<(std::ostream& out, const Item& x) {
    return out << "{" << x.key << " from " << x.origin << "}";
  }
};
static_assert(sizeof(Item) == 16, "Item must have no padding: results are compared byte for byte");

// A comparator object for structs: by key only, so equal keys with different origins are equivalent.
struct ByKey {
  bool operator()(const Item& x, const Item& y) const { return x.key < y.key; }
};

enum class Shape { random, sorted, reverse_sorted, all_equal, two_values, heavy_duplicates };

std::vector<Shape> shapes() {
  return {Shape::random,    Shape::sorted,     Shape::reverse_sorted,
          Shape::all_equal, Shape::two_values, Shape::heavy_duplicates};
}

std::string name(Shape shape) {
  switch (shape) {
    case Shape::random:
      return "random";
    case Shape::sorted:
      return "sorted";
    case Shape::reverse_sorted:
      return "reverse-sorted";
    case Shape::all_equal:
      return "all equal";
    case Shape::two_values:
      return "two values";
    case Shape::heavy_duplicates:
      return "heavy duplicates";
  }
  return "?";
}

// The key of element `index` of an n-element input of the given shape (within the range of int).
std::int64_t shaped_key(Shape shape, std::size_t index, std::size_t n, std::mt19937_64& random) {
  const auto i = static_cast<std::int64_t>(index);
  const auto size = static_cast<std::int64_t>(n);
  switch (shape) {
    case Shape::random:
      return static_cast<std::int32_t>(random());
    case Shape::sorted:
      return 3 * i - size;
    case Shape::reverse_sorted:
      return size - 2 * i;
    case Shape::all_equal:
      return 42;
    case Shape::two_values:
      return random() % 2 == 0 ? -7 : 7;
    case Shape::heavy_duplicates:
      return random() % 10 < 7 ? 5 : static_cast<std::int64_t>(random() % 4);
  }
  return 0;
}

template <class T>
T make(std::int64_t key, std::size_t index) {
  if constexpr (std::is_same_v<T, Item>) {
    return Item{key, index};
  } else {
    return static_cast<T>(key);
  }
}

// An input of the given shape. Only the unit that writes it (team rank 0) needs one.
template <class T>
std::vector<T> shaped_input(Shape shape, std::size_t n, std::uint64_t stream) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + stream);
  std::vector<T> values;
  values.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    values.push_back(make<T>(shaped_key(shape, i, n, random), i));
  }
  return values;
}

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
std::vector<float> signed_zero_input(std::size_t n) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + 13);
  const std::array<float, 6> values{0.0F, -0.0F, 0.0F, -0.0F, 1.0F, -1.0F};
  std::vector<float> result(n);
  for (float& x : result) {
    x = values[random() % values.size()];
  }
  return result;
}

std::vector<dash::Distribution> distributions() { return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3)}; }

std::vector<dash::SortOptions> option_sets() {
  std::vector<dash::SortOptions> result;
  for (bool stable : {false, true}) {
    for (bool partial_merge : {true, false}) {
      dash::SortOptions options;
      options.stable = stable;
      options.partial_merge = partial_merge;
      result.push_back(options);
    }
  }
  return result;
}

std::string describe(const dash::SortOptions& options) {
  return std::string(options.stable ? "stable" : "unstable") +
         (options.partial_merge ? ", partial merge" : ", merge after");
}

struct Span {
  std::size_t begin;
  std::size_t end;
};

std::string describe(const dash::Distribution& distribution, std::size_t n, const Span& span) {
  return distribution.name() + ", n = " + std::to_string(n) + ", range [" + std::to_string(span.begin) + ", " +
         std::to_string(span.end) + ")";
}

std::size_t team_rank(const Team& team) { return static_cast<std::size_t>(team.myid()); }

// Collective: the whole container on every unit, read with dash::copy between two barriers.
template <class Container>
std::vector<typename Container::value_type> gather(Container& container) {
  container.barrier();
  std::vector<typename Container::value_type> all(container.size());
  dash::copy(container.begin(), container.end(), all.data());
  container.barrier();
  return all;
}

// Collective: team rank 0 writes `values` (which only it needs) into the container, once every unit
// is done reading the old contents.
template <class Container>
void write(Container& container, const std::vector<typename Container::value_type>& values) {
  container.barrier();
  if (team_rank(container.team()) == 0 && container.size() != 0) {
    dash::copy(values.data(), values.data() + container.size(), container.begin());
  }
  container.barrier();
}

template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string show(const T& x) {
  std::ostringstream text;
  if constexpr (std::is_integral_v<T>) {
    text << +x;  // int8_t as a number, not a character
  } else {
    text << std::setprecision(17) << x;
  }
  return text.str();
}

template <class T>
std::string mismatch(const char* what, std::size_t index, const T& actual, const T& expected) {
  return std::string(what) + " at index " + std::to_string(index) + ": got " + show(actual) + ", expected " +
         show(expected);
}

// The first position of [begin, end) where `actual` and `expected` differ in any bit; "" if none.
template <class T>
std::string first_difference(const std::vector<T>& actual, const std::vector<T>& expected, std::size_t begin,
                             std::size_t end, const char* what) {
  for (std::size_t i = begin; i < end; ++i) {
    if (!same_bytes(actual[i], expected[i])) {
      return mismatch(what, i, actual[i], expected[i]);
    }
  }
  return "";
}

// The first position of [begin, end) whose elements are not equivalent under `less`; "" if none.
template <class T, class Less>
std::string first_inequivalent(const std::vector<T>& actual, const std::vector<T>& expected, std::size_t begin,
                               std::size_t end, Less less) {
  for (std::size_t i = begin; i < end; ++i) {
    if (less(actual[i], expected[i]) || less(expected[i], actual[i])) {
      return mismatch("key out of order", i, actual[i], expected[i]);
    }
  }
  return "";
}

// The bit patterns of [begin, end), sorted: equal for two ranges exactly when they hold the same
// multiset of elements.
template <class T>
std::vector<std::array<unsigned char, sizeof(T)>> sorted_images(const std::vector<T>& values, std::size_t begin,
                                                                std::size_t end) {
  std::vector<std::array<unsigned char, sizeof(T)>> images;
  for (std::size_t i = begin; i < end; ++i) {
    images.push_back(std::bit_cast<std::array<unsigned char, sizeof(T)>>(values[i]));
  }
  std::sort(images.begin(), images.end());
  return images;
}

// The first of the caller's local elements that is not the expected element of its global position.
template <class Container>
std::string first_local_difference(const Container& container,
                                   const std::vector<typename Container::value_type>& expected) {
  const std::size_t unit = team_rank(container.team());
  const auto& pattern = container.pattern();
  for (std::size_t i = 0; i < pattern.local_size(unit); ++i) {
    const std::size_t global = pattern.global_index(unit, i);
    if (!same_bytes(container.lbegin()[i], expected[global])) {
      return "unit " + std::to_string(unit) + ", local element " + std::to_string(i) + ": " +
             mismatch("wrong element", global, container.lbegin()[i], expected[global]);
    }
  }
  return "";
}

// Collective over the container's team: sorts [span) of the container with dash::sort and checks the
// result against std::stable_sort (stable) or std::sort (unstable) of the gathered input. Leaves the
// container as it found it.
template <class Container, class Comp = std::ranges::less, class Proj = std::identity>
void expect_sorts_like_std(Container& container, const Span& span, const dash::SortOptions& options, Comp comp = {},
                           Proj proj = {}) {
  using T = typename Container::value_type;
  SCOPED_TRACE(describe(options));
  const std::vector<T> before = gather(container);

  dash::sort(container.begin() + static_cast<std::ptrdiff_t>(span.begin),
             container.begin() + static_cast<std::ptrdiff_t>(span.end), comp, proj, options);
  const std::vector<T> after = gather(container);

  const auto less = [&](const T& a, const T& b) {
    return std::invoke(comp, std::invoke(proj, a), std::invoke(proj, b));
  };
  std::vector<T> expected = before;
  const auto first = expected.begin() + static_cast<std::ptrdiff_t>(span.begin);
  const auto last = expected.begin() + static_cast<std::ptrdiff_t>(span.end);
  if (options.stable) {
    std::stable_sort(first, last, less);
  } else {
    std::sort(first, last, less);
  }
  const std::size_t n = before.size();
  EXPECT_EQ(first_difference(after, before, 0, span.begin, "element before the range changed"), "");
  EXPECT_EQ(first_difference(after, before, span.end, n, "element after the range changed"), "");
  EXPECT_TRUE(std::is_sorted(after.begin() + static_cast<std::ptrdiff_t>(span.begin),
                             after.begin() + static_cast<std::ptrdiff_t>(span.end), less));
  if (options.stable) {
    EXPECT_EQ(first_difference(after, expected, span.begin, span.end, "stable order broken"), "");
    EXPECT_EQ(first_local_difference(container, expected), "");
  } else {
    EXPECT_EQ(first_inequivalent(after, expected, span.begin, span.end, less), "");
    EXPECT_TRUE(sorted_images(after, span.begin, span.end) == sorted_images(before, span.begin, span.end))
        << "the sorted range is not a permutation of the input";
    EXPECT_EQ(first_local_difference(container, after), "");
  }

  write(container, before);
}

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

// Arithmetic types in their natural order (std::ranges::less, std::less<T>, std::less<>) may take a
// radix kernel; std::greater<> may not. Every integer width and signedness, and float.
template <class T>
class SortArithmetic : public ::testing::Test {};
using ArithmeticTypes = ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, std::int64_t, std::uint64_t, float>;
TYPED_TEST_SUITE(SortArithmetic, ArithmeticTypes);

TYPED_TEST(SortArithmetic, NaturalAndReversedOrders) {
  using T = TypeParam;
  const std::size_t n = 1201;
  for (const dash::Distribution& distribution : distributions()) {
    dash::Array<T> a(n, distribution);
    for (Shape shape : {Shape::random, Shape::heavy_duplicates}) {
      SCOPED_TRACE(name(shape) + ", " + describe(distribution, n, {0, n}));
      write(a, shaped_input<T>(shape, n, 14));
      for (const dash::SortOptions& options : option_sets()) {
        expect_sorts_like_std(a, {0, n}, options);
      }
      const dash::SortOptions unstable;
      expect_sorts_like_std(a, {2, n - 1}, unstable, std::less<T>{});
      expect_sorts_like_std(a, {0, n}, unstable, std::less<>{});
      expect_sorts_like_std(a, {0, n - 3}, unstable, std::greater<>{});
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
    write(a, signed_zero_input(n));
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

  // Empty ranges are fine, also of an unallocated array.
  dash::Array<int> none;
  dash::sort(none.begin(), none.end());
  dash::sort(a.begin() + 9, a.begin() + 9);
}

}  // namespace
