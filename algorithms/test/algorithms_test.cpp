// dash algorithms on global ranges (layer 3): every algorithm on full ranges and on sub-ranges that
// start and end mid-block, element types std::uint8_t, std::int32_t, double and a 24-byte struct (folds
// also into an init of a wider type: 64-bit integers, long double, a struct of totals), distributions BLOCKED,
// CYCLIC, BLOCKCYCLIC(3) and TILE(4), sizes 0, 1, P-1, P+1, 97 and 10007. Each result is compared with
// the std:: algorithm on a copy of the input gathered with dash::copy. Partner ranges (second inputs,
// outputs) come aligned with the first range, on another distribution, and on the same pattern at
// another position, so that both the local-pointer path and the bulk-transfer path run. Also 2-D
// patterns (the run-based fallbacks) and the errors of misuse.
//
// Map: the element types and their codes (Record, make, code_of), the operations (Affine, Coarse,
// Totals and Tally, the wider accumulators), distributions, sizes and spans, gather and the
// comparison helpers; the typed Algorithms suite (reductions, transform_reduce, searches and
// predicates, equal, transform, scans, fill/generate/for_each, copy); 2-D patterns; bulk transfers
// at the int count limit and into overlapping memory; errors.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
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

struct Record {
  double weight;
  std::int64_t key;
  std::int32_t a;
  std::int32_t b;
  friend bool operator==(const Record&, const Record&) = default;
  // A strict weak order on the key only: many records are equivalent, which exercises the tie rules.
  friend bool operator<(const Record& x, const Record& y) { return x.key < y.key; }
  friend Record operator+(const Record& x, const Record& y) {
    return Record{x.weight + y.weight, x.key + y.key, x.a + y.a, x.b + y.b};
  }
  friend std::ostream& operator<<(std::ostream& out, const Record& r) {
    return out << "{" << r.weight << ", " << r.key << ", " << r.a << ", " << r.b << "}";
  }
};
static_assert(sizeof(Record) == 24);

// Every input element is made from a code in [0, m^2), m = 181 (13 for bytes): small enough that sums
// are exact in every type but bytes, whose sums wrap modulo 256 in any order alike (so the distributed
// and the sequential results must be identical), and an affine map modulo m for the non-commutative
// operation.
template <class T>
constexpr std::uint32_t modulus = std::is_same_v<T, std::uint8_t> ? 13 : 181;
template <class T>
constexpr std::uint32_t code_count = modulus<T> * modulus<T>;

template <class T>
T make(std::uint32_t code) {
  if constexpr (std::is_same_v<T, Record>) {
    return Record{0.5 * code, static_cast<std::int64_t>(code % 97) - 48, static_cast<std::int32_t>(code),
                  static_cast<std::int32_t>(code % 13)};
  } else {
    return static_cast<T>(code);
  }
}

template <class T>
std::uint32_t code_of(const T& x) {
  if constexpr (std::is_same_v<T, Record>) {
    return static_cast<std::uint32_t>(x.a);
  } else {
    return static_cast<std::uint32_t>(x);
  }
}

// Code x is the map v -> a v + t (a = x / m, t = x % m, modulo m = modulus<T>); compose(x, y) applies
// x, then y.
template <class T>
std::uint32_t compose(std::uint32_t x, std::uint32_t y) {
  constexpr std::uint32_t m = modulus<T>;
  const std::uint32_t mx = x / m, tx = x % m, my = y / m, ty = y % m;
  return (mx * my % m) * m + (my * tx + ty) % m;
}

// Associative, not commutative, and untagged: the algorithms must keep global order.
struct Affine {
  template <class T>
  T operator()(const T& x, const T& y) const {
    if constexpr (std::is_same_v<T, Record>) {
      return Record{x.weight + y.weight, x.key + y.key,
                    static_cast<std::int32_t>(compose<T>(code_of(x), code_of(y))), std::max(x.b, y.b)};
    } else {
      return make<T>(compose<T>(code_of(x), code_of(y)));
    }
  }
};

// A coarse order: codes in the same 1/32 of the code range are equivalent.
struct Coarse {
  template <class T>
  bool operator()(const T& x, const T& y) const {
    constexpr std::uint32_t width = code_count<T> / 32 + 1;
    return code_of(x) / width < code_of(y) / width;
  }
};

// What a fold of records into a wider type keeps: sums of the fields and a count.
struct Totals {
  double weight = 0;
  std::int64_t keys = 0;
  std::int64_t count = 0;
  Totals() = default;
  Totals(double w, std::int64_t k, std::int64_t c) : weight(w), keys(k), count(c) {}
  explicit Totals(const Record& r) : weight(r.weight), keys(r.key), count(1) {}
  friend bool operator==(const Totals&, const Totals&) = default;
  friend std::ostream& operator<<(std::ostream& out, const Totals& t) {
    return out << "{" << t.weight << ", " << t.keys << ", " << t.count << "}";
  }
};

// Folds records into totals (op(acc, element), as std::accumulate calls it) and totals into totals
// (the units' partial results). Associative; untagged, so accumulate keeps global order.
struct Tally {
  Totals operator()(const Totals& t, const Record& r) const { return {t.weight + r.weight, t.keys + r.key, t.count + 1}; }
  Totals operator()(const Totals& x, const Totals& y) const {
    return {x.weight + y.weight, x.keys + y.keys, x.count + y.count};
  }
};

// The wider accumulator type of each element type.
template <class T>
using Wide = std::conditional_t<
    std::is_same_v<T, Record>, Totals,
    std::conditional_t<std::is_floating_point_v<T>, long double,
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>>;

// An untagged, non-commutative fold of elements into the wider type: Affine on the widened element.
struct WideAffine {
  template <class W, class X>
  W operator()(const W& acc, const X& x) const {
    return Affine{}(acc, static_cast<W>(x));
  }
};

// The wider type's non-commutative fold for each element type.
template <class T>
using WideOp = std::conditional_t<std::is_same_v<T, Record>, Tally, WideAffine>;

// The code's element as a value of the wider type.
template <class T>
Wide<T> wide(std::uint32_t code) {
  return Wide<T>(make<T>(code));
}

// An element as a value of the wider type, for transform_reduce.
struct Widen {
  template <class T>
  Wide<T> operator()(const T& x) const {
    return Wide<T>(x);
  }
};

// A pair of elements as one value of the wider type: a product, or for records the totals of both.
struct WidenPair {
  template <class T>
  Wide<T> operator()(const T& x, const T& y) const {
    if constexpr (std::is_same_v<T, Record>) {
      return Tally{}(Totals(x), y);
    } else {
      return static_cast<Wide<T>>(x) * static_cast<Wide<T>>(y);
    }
  }
};

struct Selected {
  template <class T>
  bool operator()(const T& x) const {
    return code_of(x) % 7 == 3;
  }
};

std::vector<dash::Distribution> distributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4)};
}

// The distribution partner ranges use to be misaligned with the first range.
dash::Distribution other_than(const dash::Distribution& distribution) {
  const std::vector<dash::Distribution> all = distributions();
  const auto at = std::find(all.begin(), all.end(), distribution);
  return all[static_cast<std::size_t>(at - all.begin() + 1) % all.size()];
}

std::vector<std::size_t> sizes() {
  const std::size_t p = P();
  std::vector<std::size_t> result{0, 1, p - 1, p + 1, 97, 10007};
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

struct Span {
  std::size_t begin;
  std::size_t end;
  std::size_t size() const { return end - begin; }
};

// The full range, sub-ranges that start and end inside blocks, and an empty one.
std::vector<Span> spans(std::size_t n) {
  std::vector<Span> result{{0, n}};
  if (n >= 2) {
    result.push_back({1, n - 1});
  }
  if (n / 3 + 1 < n - n / 4) {
    result.push_back({n / 3 + 1, n - n / 4});
  }
  result.push_back({n / 2, n / 2});
  return result;
}

std::string describe(const dash::Distribution& distribution, std::size_t n, const Span& span) {
  return distribution.name() + ", n = " + std::to_string(n) + ", range [" + std::to_string(span.begin) + ", " +
         std::to_string(span.end) + ")";
}

template <class T>
void fill_random(dash::Array<T>& array, std::uint64_t stream) {
  std::mt19937_64 random(dash::testing::seed() * 7919 + stream);
  for (T& x : array.local) {
    x = make<T>(static_cast<std::uint32_t>(random() % code_count<T>));
  }
}

// Collective: the whole array on every unit, read with dash::copy between two barriers.
template <class T>
std::vector<T> gather(const dash::Array<T>& array) {
  array.barrier();
  std::vector<T> all(array.size());
  dash::copy(array.begin(), array.end(), all.data());
  array.barrier();
  return all;
}

template <class T>
std::string first_difference(const std::vector<T>& actual, const std::vector<T>& expected) {
  if (actual.size() != expected.size()) {
    return "sizes differ: " + std::to_string(actual.size()) + " vs " + std::to_string(expected.size());
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!(actual[i] == expected[i])) {
      std::ostringstream text;
      text << "index " << i << ": got " << actual[i] << ", expected " << expected[i];
      return text.str();
    }
  }
  return "";
}

// The global indices of the caller's elements of [span), in increasing order.
template <class T>
std::vector<std::size_t> own_indices(const dash::Array<T>& array, const Span& span) {
  std::vector<std::size_t> indices;
  for (std::size_t g = span.begin; g < span.end; ++g) {
    if (array.pattern().unit_at(g) == me()) {
      indices.push_back(g);
    }
  }
  return indices;
}

template <class T>
class Algorithms : public ::testing::Test {};
using ElementTypes = ::testing::Types<std::uint8_t, std::int32_t, double, Record>;
TYPED_TEST_SUITE(Algorithms, ElementTypes);

// The arrays of one configuration: a, b aligned inputs, c an input on another distribution.
template <class T>
struct Inputs {
  Inputs(std::size_t n, const dash::Distribution& distribution)
      : a(n, distribution), b(n, distribution), c(n, other_than(distribution)) {
    fill_random(a, 1);
    fill_random(b, 2);
    fill_random(c, 3);
    va = gather(a);
    vb = gather(b);
    vc = gather(c);
  }
  dash::Array<T> a, b, c;
  std::vector<T> va, vb, vc;
};

template <class F>
void for_each_configuration(F&& check) {
  for (const dash::Distribution& distribution : distributions()) {
    for (std::size_t n : sizes()) {
      check(distribution, n);
    }
  }
}

TYPED_TEST(Algorithms, ReductionsMatchStdAccumulateAndReduce) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = in.va.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = in.va.begin() + static_cast<std::ptrdiff_t>(s.end);
      const T init = make<T>(12345);
      EXPECT_EQ(dash::accumulate(first, last, init), std::accumulate(sfirst, slast, init));
      EXPECT_EQ(dash::accumulate(first, last, init, Affine{}), std::accumulate(sfirst, slast, init, Affine{}));
      EXPECT_EQ(dash::reduce(first, last, init, std::plus<>{}), std::accumulate(sfirst, slast, init));
      EXPECT_EQ(dash::reduce(first, last), std::accumulate(sfirst, slast, T{}));
      // Through const iterators as well.
      const dash::Array<T>& read_only = in.a;
      EXPECT_EQ(dash::accumulate(read_only.begin() + static_cast<std::ptrdiff_t>(s.begin),
                                 read_only.begin() + static_cast<std::ptrdiff_t>(s.end), init, Affine{}),
                std::accumulate(sfirst, slast, init, Affine{}));

      // Into init's wider type, as the STL: bytes sum beyond 255, records into totals.
      const Wide<T> wide_init = wide<T>(12345);
      const dash::Array<T>& wide_in = in.a;  // const iterators: the fold reads only
      const auto cfirst = wide_in.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto clast = wide_in.begin() + static_cast<std::ptrdiff_t>(s.end);
      if constexpr (std::is_same_v<T, Record>) {
        const Totals totals = std::accumulate(sfirst, slast, wide_init, Tally{});
        EXPECT_EQ(dash::accumulate(first, last, wide_init, Tally{}), totals);
        EXPECT_EQ(dash::reduce(cfirst, clast, wide_init, Tally{}), totals);
        EXPECT_EQ(dash::transform_reduce(first, last, wide_init, Tally{}, Widen{}), totals);
      } else {
        const Wide<T> sum = std::accumulate(sfirst, slast, wide_init, std::plus<>{});
        EXPECT_EQ(dash::accumulate(first, last, wide_init), sum);
        EXPECT_EQ(dash::accumulate(first, last, wide_init, std::plus<>{}), sum);
        EXPECT_EQ(dash::reduce(cfirst, clast, wide_init), sum);
        EXPECT_EQ(dash::transform_reduce(first, last, wide_init, dash::plus{}, Widen{}), sum);
        if constexpr (std::is_integral_v<T>) {
          if (s.size() > 1000) {
            EXPECT_GT(sum - wide_init, Wide<T>(255)) << "the sums must exceed a byte, or the test shows nothing";
          }
          EXPECT_EQ(dash::accumulate(first, last, std::uint8_t{0}), std::accumulate(sfirst, slast, std::uint8_t{0}))
              << "a byte init wraps, as in the STL";
        }
      }
      EXPECT_EQ(dash::accumulate(first, last, wide_init, WideOp<T>{}),
                std::accumulate(sfirst, slast, wide_init, WideOp<T>{}));
      EXPECT_EQ(dash::transform_reduce(first, last, init, dash::comm::commutative(std::plus<>{}),
                                       [](const T& x) { return Affine{}(x, make<T>(5)); }),
                std::transform_reduce(sfirst, slast, init, std::plus<>{}, [](const T& x) { return Affine{}(x, make<T>(5)); }));
    }
  });
}

TYPED_TEST(Algorithms, TransformReduceOfTwoRangesMatchesStdTransformReduce) {
  using T = TypeParam;
  using W = Wide<T>;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = in.va.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = in.va.begin() + static_cast<std::ptrdiff_t>(s.end);
      const std::size_t moved = n - s.size();
      const W init = wide<T>(99);
      const auto reduce = [] {
        if constexpr (std::is_same_v<T, Record>) {
          return Tally{};
        } else {
          return dash::plus{};
        }
      }();
      struct Case {
        const dash::Array<T>* second;
        const std::vector<T>* second_values;
        std::size_t at;
        const char* what;
      };
      for (const Case& c : {Case{&in.b, &in.vb, s.begin, "aligned"}, Case{&in.c, &in.vc, moved, "other distribution"},
                            Case{&in.a, &in.va, moved, "same array, moved"}}) {
        SCOPED_TRACE(c.what);
        const auto first2 = c.second->begin() + static_cast<std::ptrdiff_t>(c.at);
        const auto sfirst2 = c.second_values->begin() + static_cast<std::ptrdiff_t>(c.at);
        EXPECT_EQ(dash::transform_reduce(first, last, first2, init, reduce, WidenPair{}),
                  std::transform_reduce(sfirst, slast, sfirst2, init, reduce, WidenPair{}));
        if constexpr (!std::is_same_v<T, Record>) {
          // The inner product, accumulated in init's type: the products of bytes exceed a byte.
          EXPECT_EQ(dash::transform_reduce(first, last, first2, init),
                    std::transform_reduce(sfirst, slast, sfirst2, init, std::plus<>{},
                                          [](const T& x, const T& y) { return x * y; }));
        }
      }
    }
  });
}

TYPED_TEST(Algorithms, SearchesAndPredicatesMatchTheStdAlgorithms) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = in.va.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = in.va.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto position = [&](auto it) { return static_cast<std::size_t>(it - in.va.begin()); };

      EXPECT_EQ(dash::min_element(first, last).pos(), position(std::min_element(sfirst, slast)));
      EXPECT_EQ(dash::max_element(first, last).pos(), position(std::max_element(sfirst, slast)));
      EXPECT_EQ(dash::min_element(first, last, Coarse{}).pos(), position(std::min_element(sfirst, slast, Coarse{})));
      EXPECT_EQ(dash::max_element(first, last, Coarse{}).pos(), position(std::max_element(sfirst, slast, Coarse{})));

      const T present = s.size() == 0 ? make<T>(0) : in.va[s.begin + s.size() * 2 / 3];
      const T absent = make<T>(code_count<T> + 1);
      EXPECT_EQ(dash::find(first, last, present).pos(), position(std::find(sfirst, slast, present)));
      EXPECT_EQ(dash::find(first, last, absent).pos(), s.end);
      EXPECT_EQ(dash::find_if(first, last, Selected{}).pos(), position(std::find_if(sfirst, slast, Selected{})));
      const auto unselected = [](const T& x) { return !Selected{}(x); };
      EXPECT_EQ(dash::find_if_not(first, last, unselected).pos(),
                position(std::find_if_not(sfirst, slast, unselected)));
      EXPECT_EQ(dash::find_if_not(first, last, Selected{}).pos(), position(std::find_if_not(sfirst, slast, Selected{})));
      EXPECT_EQ(dash::count(first, last, present), static_cast<std::size_t>(std::count(sfirst, slast, present)));
      EXPECT_EQ(dash::count_if(first, last, Selected{}),
                static_cast<std::size_t>(std::count_if(sfirst, slast, Selected{})));

      EXPECT_EQ(dash::all_of(first, last, Selected{}), std::all_of(sfirst, slast, Selected{}));
      EXPECT_EQ(dash::any_of(first, last, Selected{}), std::any_of(sfirst, slast, Selected{}));
      EXPECT_EQ(dash::none_of(first, last, Selected{}), std::none_of(sfirst, slast, Selected{}));
      const auto is_code = [](const T& x) { return code_of(x) < code_count<T>; };
      EXPECT_TRUE(dash::all_of(first, last, is_code));
      EXPECT_EQ(dash::find_if_not(first, last, is_code).pos(), s.end);
      EXPECT_EQ(dash::any_of(first, last, is_code), s.size() != 0);
      EXPECT_EQ(dash::none_of(first, last, is_code), s.size() == 0);
    }
  });
}

TYPED_TEST(Algorithms, EqualComparesAlignedAndMisalignedRanges) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = in.va.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = in.va.begin() + static_cast<std::ptrdiff_t>(s.end);
      const std::size_t moved = n - s.size();  // the partner's start in the misaligned cases
      EXPECT_TRUE(dash::equal(first, last, first));
      EXPECT_EQ(dash::equal(first, last, in.b.begin() + static_cast<std::ptrdiff_t>(s.begin)),
                std::equal(sfirst, slast, in.vb.begin() + static_cast<std::ptrdiff_t>(s.begin)));
      EXPECT_EQ(dash::equal(first, last, in.c.begin() + static_cast<std::ptrdiff_t>(moved)),
                std::equal(sfirst, slast, in.vc.begin() + static_cast<std::ptrdiff_t>(moved)));
      EXPECT_EQ(dash::equal(first, last, in.a.begin() + static_cast<std::ptrdiff_t>(moved)),
                std::equal(sfirst, slast, in.va.begin() + static_cast<std::ptrdiff_t>(moved)));
      // Equal by a predicate on another distribution: true, then false after one element changes.
      const auto same_selection = [](const T& x, const T& y) { return Selected{}(x) == Selected{}(y); };
      dash::copy(first, last, in.c.begin() + static_cast<std::ptrdiff_t>(moved));
      in.c.barrier();
      EXPECT_TRUE(dash::equal(first, last, in.c.begin() + static_cast<std::ptrdiff_t>(moved), same_selection));
      if (s.size() != 0) {
        const std::size_t changed = moved + s.size() / 2;
        if (me() == 0) {
          in.c[changed] = make<T>(Selected{}(in.va[s.begin + s.size() / 2]) ? 4 : 3);
        }
        in.c.barrier();
        EXPECT_FALSE(dash::equal(first, last, in.c.begin() + static_cast<std::ptrdiff_t>(moved), same_selection));
      }
      in.c.barrier();
      if (me() == 0) {
        dash::copy(in.vc.data(), in.vc.data() + n, in.c.begin());
      }
      in.c.barrier();
    }
  });
}

// The outputs of one configuration: `out` on the inputs' distribution, `other` on another one.
template <class T>
struct Outputs {
  Outputs(std::size_t n, const dash::Distribution& distribution)
      : out(n, distribution), other(n, other_than(distribution)) {}

  // Collective: both outputs hold `sentinel` everywhere, visible to every unit.
  void reset(const T& sentinel) {
    dash::fill(out.begin(), out.end(), sentinel);
    dash::fill(other.begin(), other.end(), sentinel);
    out.barrier();
  }
  dash::Array<T> out, other;
};

TYPED_TEST(Algorithms, TransformWritesGlobalAndLocalOutputs) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    Outputs<T> outputs(n, distribution);
    const T sentinel = make<T>(code_count<T> + 7);
    const auto unary = [](const T& x) { return Affine{}(x, make<T>(777)); };
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const std::size_t moved = n - s.size();
      struct Case {
        dash::Array<T>* second;
        const std::vector<T>* second_values;
        dash::Array<T>* out;
        std::size_t at;  // start of the second input and of the output
        const char* what;
      };
      const std::vector<Case> cases{{&in.b, &in.vb, &outputs.out, s.begin, "aligned"},
                                    {&in.c, &in.vc, &outputs.other, moved, "other distribution"},
                                    {&in.b, &in.vb, &outputs.out, moved, "same pattern, moved"}};
      for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const auto at = static_cast<std::ptrdiff_t>(c.at);
        outputs.reset(sentinel);
        const auto end1 = dash::transform(first, last, c.out->begin() + at, unary);
        EXPECT_EQ(end1.pos(), c.at + s.size());
        std::vector<T> expected(n, sentinel);
        std::transform(in.va.begin() + static_cast<std::ptrdiff_t>(s.begin),
                       in.va.begin() + static_cast<std::ptrdiff_t>(s.end), expected.begin() + at, unary);
        EXPECT_EQ(first_difference(gather(*c.out), expected), "");

        outputs.reset(sentinel);
        const auto end2 = dash::transform(first, last, c.second->begin() + at, c.out->begin() + at, Affine{});
        EXPECT_EQ(end2.pos(), c.at + s.size());
        expected.assign(n, sentinel);
        std::transform(in.va.begin() + static_cast<std::ptrdiff_t>(s.begin),
                       in.va.begin() + static_cast<std::ptrdiff_t>(s.end), c.second_values->begin() + at,
                       expected.begin() + at, Affine{});
        EXPECT_EQ(first_difference(gather(*c.out), expected), "");

        // Local outputs: each unit gets the results of its own elements, in global order.
        const std::vector<std::size_t> mine = own_indices(in.a, s);
        std::vector<T> local(mine.size() + 1, sentinel);
        EXPECT_EQ(dash::transform(first, last, local.data(), unary), local.data() + mine.size());
        std::vector<T> expected_local(mine.size() + 1, sentinel);
        std::transform(mine.begin(), mine.end(), expected_local.begin(),
                       [&](std::size_t g) { return unary(in.va[g]); });
        EXPECT_EQ(first_difference(local, expected_local), "");
        local.assign(mine.size() + 1, sentinel);
        EXPECT_EQ(dash::transform(first, last, c.second->begin() + at, local.data(), Affine{}),
                  local.data() + mine.size());
        std::transform(mine.begin(), mine.end(), expected_local.begin(), [&](std::size_t g) {
          return Affine{}(in.va[g], (*c.second_values)[g - s.begin + c.at]);
        });
        EXPECT_EQ(first_difference(local, expected_local), "");
      }
      // In place: the output is the input.
      dash::copy(in.a.begin(), in.a.end(), outputs.out.begin());
      outputs.out.barrier();
      dash::transform(outputs.out.begin() + static_cast<std::ptrdiff_t>(s.begin),
                      outputs.out.begin() + static_cast<std::ptrdiff_t>(s.end),
                      outputs.out.begin() + static_cast<std::ptrdiff_t>(s.begin), unary);
      std::vector<T> expected = in.va;
      std::transform(expected.begin() + static_cast<std::ptrdiff_t>(s.begin),
                     expected.begin() + static_cast<std::ptrdiff_t>(s.end),
                     expected.begin() + static_cast<std::ptrdiff_t>(s.begin), unary);
      EXPECT_EQ(first_difference(gather(outputs.out), expected), "");
    }
  });
}

TYPED_TEST(Algorithms, ScansMatchStdScansInGlobalOrder) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    Outputs<T> outputs(n, distribution);
    const T sentinel = make<T>(code_count<T> + 7);
    const T init = make<T>(4321);
    dash::Array<Wide<T>> wide_out(n, distribution);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = in.va.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = in.va.begin() + static_cast<std::ptrdiff_t>(s.end);
      const std::size_t moved = n - s.size();
      const std::vector<std::pair<dash::Array<T>*, std::size_t>> targets{
          {&outputs.out, s.begin}, {&outputs.other, moved}, {&outputs.out, moved}};
      for (const auto& target : targets) {
        dash::Array<T>* const out = target.first;
        const std::size_t at_index = target.second;
        const auto at = static_cast<std::ptrdiff_t>(at_index);
        SCOPED_TRACE("output at " + std::to_string(at_index) + (out == &outputs.out ? " (same pattern)" : ""));
        std::vector<T> expected(n, sentinel);
        const auto check = [&](auto&& run_dash, auto&& run_std) {
          outputs.reset(sentinel);
          const auto end = run_dash(out->begin() + at);
          EXPECT_EQ(end.pos(), at_index + s.size());
          expected.assign(n, sentinel);
          run_std(expected.begin() + at);
          EXPECT_EQ(first_difference(gather(*out), expected), "");
        };
        check([&](auto o) { return dash::inclusive_scan(first, last, o); },
              [&](auto o) { std::inclusive_scan(sfirst, slast, o); });
        check([&](auto o) { return dash::inclusive_scan(first, last, o, Affine{}); },
              [&](auto o) { std::inclusive_scan(sfirst, slast, o, Affine{}); });
        check([&](auto o) { return dash::inclusive_scan(first, last, o, Affine{}, init); },
              [&](auto o) { std::inclusive_scan(sfirst, slast, o, Affine{}, init); });
        check([&](auto o) { return dash::exclusive_scan(first, last, o, init); },
              [&](auto o) { std::exclusive_scan(sfirst, slast, o, init); });
        check([&](auto o) { return dash::exclusive_scan(first, last, o, init, Affine{}); },
              [&](auto o) { std::exclusive_scan(sfirst, slast, o, init, Affine{}); });
      }
      // Accumulated in init's wider type, into an output of that type.
      using W = Wide<T>;
      const W wide_init = wide<T>(4321);
      const auto check_wide = [&](auto&& run_dash, auto&& run_std) {
        dash::fill(wide_out.begin(), wide_out.end(), W{});
        wide_out.barrier();
        run_dash(wide_out.begin() + static_cast<std::ptrdiff_t>(s.begin));
        std::vector<W> expected(n, W{});
        run_std(expected.begin() + static_cast<std::ptrdiff_t>(s.begin));
        EXPECT_EQ(first_difference(gather(wide_out), expected), "");
      };
      // In global order (an untagged op), and for arithmetic types with dash::plus, whose two
      // arguments have one type (the element converts to init's type).
      check_wide([&](auto o) { dash::inclusive_scan(first, last, o, WideOp<T>{}, wide_init); },
                 [&](auto o) { std::inclusive_scan(sfirst, slast, o, WideOp<T>{}, wide_init); });
      if constexpr (std::is_same_v<T, Record>) {
        check_wide([&](auto o) { dash::exclusive_scan(first, last, o, wide_init, Tally{}); },
                   [&](auto o) { std::exclusive_scan(sfirst, slast, o, wide_init, Tally{}); });
      } else {
        check_wide([&](auto o) { dash::exclusive_scan(first, last, o, wide_init); },
                   [&](auto o) { std::exclusive_scan(sfirst, slast, o, wide_init); });
      }

      // In place, both kinds.
      for (bool inclusive : {true, false}) {
        dash::copy(in.a.begin(), in.a.end(), outputs.out.begin());
        outputs.out.barrier();
        const auto o_first = outputs.out.begin() + static_cast<std::ptrdiff_t>(s.begin);
        const auto o_last = outputs.out.begin() + static_cast<std::ptrdiff_t>(s.end);
        std::vector<T> expected = in.va;
        const auto e_first = expected.begin() + static_cast<std::ptrdiff_t>(s.begin);
        const auto e_last = expected.begin() + static_cast<std::ptrdiff_t>(s.end);
        if (inclusive) {
          dash::inclusive_scan(o_first, o_last, o_first, Affine{});
          std::inclusive_scan(e_first, e_last, e_first, Affine{});
        } else {
          dash::exclusive_scan(o_first, o_last, o_first, init, Affine{});
          std::exclusive_scan(e_first, e_last, e_first, init, Affine{});
        }
        EXPECT_EQ(first_difference(gather(outputs.out), expected), "") << (inclusive ? "inclusive" : "exclusive");
      }
    }
  });
}

TYPED_TEST(Algorithms, FillGenerateAndForEachWriteEachUnitsOwnElements) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Outputs<T> outputs(n, distribution);
    dash::Array<T>& out = outputs.out;
    const T sentinel = make<T>(code_count<T> + 7);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = out.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = out.begin() + static_cast<std::ptrdiff_t>(s.end);
      std::vector<T> expected(n, sentinel);

      outputs.reset(sentinel);
      dash::fill(first, last, make<T>(5));
      std::fill(expected.begin() + static_cast<std::ptrdiff_t>(s.begin),
                expected.begin() + static_cast<std::ptrdiff_t>(s.end), make<T>(5));
      EXPECT_EQ(first_difference(gather(out), expected), "");

      // Each unit's generator yields its own unit id: the owner of every element wrote it.
      outputs.reset(sentinel);
      dash::generate(first, last, [] { return make<T>(static_cast<std::uint32_t>(me())); });
      for (std::size_t g = s.begin; g < s.end; ++g) {
        expected[g] = make<T>(static_cast<std::uint32_t>(out.pattern().unit_at(g)));
      }
      EXPECT_EQ(first_difference(gather(out), expected), "");

      // generate_with_index: the element's global index, whoever owns it.
      outputs.reset(sentinel);
      dash::generate_with_index(first, last, [](std::size_t g) { return make<T>(static_cast<std::uint32_t>(g * 7)); });
      for (std::size_t g = s.begin; g < s.end; ++g) {
        expected[g] = make<T>(static_cast<std::uint32_t>(g * 7));
      }
      EXPECT_EQ(first_difference(gather(out), expected), "");

      dash::for_each(first, last, [](T& x) { x = Affine{}(x, make<T>(1000)); });
      std::for_each(expected.begin() + static_cast<std::ptrdiff_t>(s.begin),
                    expected.begin() + static_cast<std::ptrdiff_t>(s.end),
                    [](T& x) { x = Affine{}(x, make<T>(1000)); });
      EXPECT_EQ(first_difference(gather(out), expected), "");

      dash::for_each_with_index(first, last, [](T& x, std::size_t g) {
        x = Affine{}(x, make<T>(static_cast<std::uint32_t>(g % code_count<T>)));
      });
      for (std::size_t g = s.begin; g < s.end; ++g) {
        expected[g] = Affine{}(expected[g], make<T>(static_cast<std::uint32_t>(g % code_count<T>)));
      }
      EXPECT_EQ(first_difference(gather(out), expected), "");

      // for_each on const iterators sees the same elements.
      const dash::Array<T>& read_only = out;
      std::size_t seen = 0;
      dash::for_each(read_only.begin() + static_cast<std::ptrdiff_t>(s.begin),
                     read_only.begin() + static_cast<std::ptrdiff_t>(s.end), [&seen](const T&) { ++seen; });
      EXPECT_EQ(seen, own_indices(out, s).size());
    }
  });
}

TYPED_TEST(Algorithms, CopyMovesRangesBetweenGlobalAndLocalMemory) {
  using T = TypeParam;
  for_each_configuration([](const dash::Distribution& distribution, std::size_t n) {
    Inputs<T> in(n, distribution);
    Outputs<T> outputs(n, distribution);
    const T sentinel = make<T>(code_count<T> + 7);
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(describe(distribution, n, s));
      const auto first = in.a.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = in.a.begin() + static_cast<std::ptrdiff_t>(s.end);
      const std::vector<T> slice(in.va.begin() + static_cast<std::ptrdiff_t>(s.begin),
                                 in.va.begin() + static_cast<std::ptrdiff_t>(s.end));
      const std::size_t moved = n - s.size();

      // Global to local, blocking and asynchronous.
      std::vector<T> local(s.size() + 1, sentinel);
      EXPECT_EQ(dash::copy(first, last, local.data()), local.data() + s.size());
      EXPECT_EQ(first_difference(std::vector<T>(local.begin(), local.end() - 1), slice), "");
      EXPECT_EQ(local.back(), sentinel);
      std::vector<T> fetched(s.size(), sentinel);
      dash::Future<void> pending = dash::copy_async(first, last, fetched.data());
      while (!pending.test()) {
      }
      pending.wait();
      EXPECT_EQ(first_difference(fetched, slice), "");

      // Global to global, collective: aligned, other distribution, same pattern moved.
      const std::vector<std::pair<dash::Array<T>*, std::size_t>> targets{
          {&outputs.out, s.begin}, {&outputs.other, moved}, {&outputs.out, moved}};
      for (const auto& target : targets) {
        dash::Array<T>* const out = target.first;
        const std::size_t at = target.second;
        outputs.reset(sentinel);
        EXPECT_EQ(dash::copy(first, last, out->begin() + static_cast<std::ptrdiff_t>(at)).pos(), at + s.size());
        std::vector<T> expected(n, sentinel);
        std::copy(slice.begin(), slice.end(), expected.begin() + static_cast<std::ptrdiff_t>(at));
        EXPECT_EQ(first_difference(gather(*out), expected), "") << "output at " << at;
      }

      // Local to global, one-sided: unit u writes the u-th share of the slice; then asynchronously
      // again, to the other output.
      const std::size_t share_begin = s.size() * me() / P();
      const std::size_t share_end = s.size() * (me() + 1) / P();
      for (dash::Array<T>* out : {&outputs.out, &outputs.other}) {
        outputs.reset(sentinel);
        const auto target = out->begin() + static_cast<std::ptrdiff_t>(moved + share_begin);
        if (out == &outputs.out) {
          EXPECT_EQ(dash::copy(slice.data() + share_begin, slice.data() + share_end, target).pos(), moved + share_end);
        } else {
          dash::Future<void> written = dash::copy_async(slice.data() + share_begin, slice.data() + share_end, target);
          written.wait();
          EXPECT_TRUE(written.test());
        }
        std::vector<T> expected(n, sentinel);
        std::copy(slice.begin(), slice.end(), expected.begin() + static_cast<std::ptrdiff_t>(moved));
        EXPECT_EQ(first_difference(gather(*out), expected), "");
      }
    }
  });
}

// 2-D patterns, whose local order is not global order (row pieces, tiles): the run-based paths.
struct Grid {
  Grid(std::size_t rows, std::size_t columns, const dash::DistributionSpec<2>& distributions)
      : pattern(dash::SizeSpec<2>(rows, columns), distributions,
                dash::TeamSpec<2>(dash::SizeSpec<2>(rows, columns), distributions, P())),
        segment(Team::All(), pattern.local_size(me()) * sizeof(int)) {
    std::mt19937_64 random(dash::testing::seed());
    int* local = reinterpret_cast<int*>(segment.local().data());
    for (std::size_t i = 0; i < pattern.local_size(me()); ++i) {
      local[i] = static_cast<int>(random() % code_count<int>);
    }
    segment.barrier();
    values.resize(pattern.size());
    dash::copy(begin(), end(), values.data());
    segment.barrier();
  }
  using Iterator = dash::GlobIter<int, dash::Pattern<2>>;
  Iterator begin() { return Iterator(&segment, &pattern, 0); }
  Iterator end() { return Iterator(&segment, &pattern, pattern.size()); }

  dash::Pattern<2> pattern;
  dash::GlobalSegment segment;
  std::vector<int> values;
};

TEST(AlgorithmsOn2dPatterns, MatchTheStdAlgorithmsInRowMajorOrder) {
  const std::vector<dash::DistributionSpec<2>> specs{
      dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE), dash::DistributionSpec<2>(dash::BLOCKED, dash::CYCLIC),
      dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)), dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKED)};
  for (const auto& spec : specs) {
    Grid grid(13, 11, spec);
    dash::Array<int> flat(grid.pattern.size(), dash::BLOCKCYCLIC(5));
    const std::size_t n = grid.pattern.size();
    for (const Span& s : spans(n)) {
      SCOPED_TRACE(spec[0].name() + " x " + spec[1].name() + ", range [" + std::to_string(s.begin) + ", " +
                   std::to_string(s.end) + ")");
      const auto first = grid.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto last = grid.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto sfirst = grid.values.begin() + static_cast<std::ptrdiff_t>(s.begin);
      const auto slast = grid.values.begin() + static_cast<std::ptrdiff_t>(s.end);
      const auto position = [&](auto it) { return static_cast<std::size_t>(it - grid.values.begin()); };
      EXPECT_EQ(dash::accumulate(first, last, 12345, Affine{}), std::accumulate(sfirst, slast, 12345, Affine{}));
      EXPECT_EQ(dash::accumulate(first, last, 7), std::accumulate(sfirst, slast, 7));
      EXPECT_EQ(dash::accumulate(first, last, std::int64_t{7}, WideAffine{}),
                std::accumulate(sfirst, slast, std::int64_t{7}, WideAffine{}));
      EXPECT_EQ(dash::transform_reduce(first, last, 0.5, dash::plus{}, [](int x) { return x * 0.25; }),
                std::transform_reduce(sfirst, slast, 0.5, std::plus<>{}, [](int x) { return x * 0.25; }));
      EXPECT_EQ(dash::min_element(first, last, Coarse{}).pos(), position(std::min_element(sfirst, slast, Coarse{})));
      EXPECT_EQ(dash::find_if(first, last, Selected{}).pos(), position(std::find_if(sfirst, slast, Selected{})));
      const auto unselected = [](int x) { return !Selected{}(x); };
      EXPECT_EQ(dash::find_if_not(first, last, unselected).pos(),
                position(std::find_if_not(sfirst, slast, unselected)));
      EXPECT_EQ(dash::find_if_not(first, last, Selected{}).pos(), position(std::find_if_not(sfirst, slast, Selected{})));
      EXPECT_EQ(dash::count_if(first, last, Selected{}),
                static_cast<std::size_t>(std::count_if(sfirst, slast, Selected{})));

      // Scans and transforms into a 1-D array (another pattern type): bulk writes.
      dash::fill(flat.begin(), flat.end(), -1);
      flat.barrier();
      dash::inclusive_scan(first, last, flat.begin() + static_cast<std::ptrdiff_t>(s.begin), Affine{});
      std::vector<int> expected(n, -1);
      std::inclusive_scan(sfirst, slast, expected.begin() + static_cast<std::ptrdiff_t>(s.begin), Affine{});
      EXPECT_EQ(first_difference(gather(flat), expected), "");
      // An inner product with the 1-D array (another pattern type): bulk reads.
      EXPECT_EQ(dash::transform_reduce(first, last, flat.begin(), std::int64_t{3}),
                std::transform_reduce(sfirst, slast, expected.begin(), std::int64_t{3}));

      // The second input and the output are the same range of `flat`: each element is read and then
      // written by the same unit.
      const auto moved = static_cast<std::ptrdiff_t>(n - s.size());
      dash::transform(first, last, flat.begin() + moved, flat.begin() + moved, Affine{});
      const std::vector<int> before = expected;
      std::transform(sfirst, slast, before.begin() + moved, expected.begin() + moved, Affine{});
      EXPECT_EQ(first_difference(gather(flat), expected), "");

      // In the grid itself: an in-place exclusive scan, then indexed updates.
      dash::exclusive_scan(first, last, first, 99, Affine{});
      std::exclusive_scan(sfirst, slast, sfirst, 99, Affine{});
      const auto shuffle = [](int& x, std::size_t g) {
        x = static_cast<int>(compose<int>(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(g)));
      };
      dash::for_each_with_index(first, last, shuffle);
      for (std::size_t g = s.begin; g < s.end; ++g) {
        shuffle(grid.values[g], g);
      }
      grid.segment.barrier();
      std::vector<int> now(n);
      dash::copy(grid.begin(), grid.end(), now.data());
      grid.segment.barrier();
      EXPECT_EQ(first_difference(now, grid.values), "");
    }
  }
}

// With the int count limit lowered to 64, bulk transfers take the paths meant for huge ones: pieces
// beyond the limit go alone (as large-count derived types), and a unit with more pieces than the limit
// gets several indexed transfers. This matters in the .rma runs (DASH_SHARED_MEMORY=0), where every
// transfer to another unit is RMA: BLOCKED gives large pieces, CYCLIC and BLOCKCYCLIC(3) many small ones.
TEST(AlgorithmsBulkTransfer, SplitsTransfersAtTheIntCountLimit) {
  const dash::comm::ScopedIntCountLimit limit(64);
  for (const dash::Distribution& distribution : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3)}) {
    SCOPED_TRACE(distribution.name());
    dash::Array<std::int64_t> a(301, distribution);
    dash::for_each_with_index(a.begin(), a.end(),
                              [](std::int64_t& x, std::size_t g) { x = static_cast<std::int64_t>(g); });
    std::vector<std::int64_t> expected(a.size());
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(first_difference(gather(a), expected), "");
    // The last unit writes every element, negated.
    if (me() == P() - 1) {
      std::vector<std::int64_t> negated(a.size());
      std::transform(expected.begin(), expected.end(), negated.begin(), std::negate<>{});
      dash::copy(negated.data(), negated.data() + negated.size(), a.begin());
    }
    std::transform(expected.begin(), expected.end(), expected.begin(), std::negate<>{});
    EXPECT_EQ(first_difference(gather(a), expected), "");
  }
}

// A unit's own elements copied into its own memory, shifted down by one, as std::copy allows: the
// source and the destination overlap (the sanitized runs flag memcpy on overlapping memory).
TEST(AlgorithmsBulkTransfer, CopiesIntoTheCallersOwnOverlappingMemory) {
  dash::Array<long> a(8 * static_cast<std::size_t>(P()));
  const std::size_t first = a.pattern().global_index(static_cast<std::size_t>(me()), 0);
  for (std::size_t i = 0; i < a.local.size(); ++i) {
    a.local[i] = static_cast<long>(first + i);
  }
  a.barrier();
  const auto begin = a.begin() + static_cast<std::ptrdiff_t>(first);
  dash::copy(begin + 1, begin + static_cast<std::ptrdiff_t>(a.local.size()), a.lbegin());
  bool ok = true;
  for (std::size_t i = 0; i + 1 < a.local.size(); ++i) {
    ok = ok && a.local[i] == static_cast<long>(first + i + 1);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  a.barrier();
}

TEST(AlgorithmErrors, RangesOfTwoContainersOrRunningBackwardsAreRejected) {
  dash::Array<int> a(20), b(20), short_array(5);
  try {
    dash::fill(a.begin(), b.end(), 1);
    ADD_FAILURE() << "no exception for iterators of two arrays";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("dash::fill"), std::string::npos) << error.what();
  }
  EXPECT_THROW(dash::accumulate(a.begin(), b.end(), 0), dash::InvalidArgument);
  EXPECT_THROW(dash::copy(a.begin(), b.begin() + 3, std::vector<int>(3).data()), dash::InvalidArgument);
  try {
    dash::accumulate(a.begin() + 5, a.begin() + 2, 0);
    ADD_FAILURE() << "no exception for last < first";
  } catch (const dash::InvalidArgument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("dash::accumulate"), std::string::npos) << message;
    EXPECT_NE(message.find("'last' = 2"), std::string::npos) << message;
    EXPECT_NE(message.find("(5)"), std::string::npos) << message;
  }
  EXPECT_THROW(dash::min_element(a.begin() + 5, a.begin() + 2), dash::InvalidArgument);
  EXPECT_THROW(dash::inclusive_scan(a.begin() + 5, a.begin() + 2, b.begin()), dash::InvalidArgument);
  EXPECT_THROW(dash::accumulate(a.begin(), a.begin() + 21, 0), dash::OutOfRange);
  // Partner ranges: too short, or on another team.
  EXPECT_THROW(dash::transform(a.begin(), a.end(), short_array.begin(), [](int x) { return x; }), dash::OutOfRange);
  EXPECT_THROW(dash::copy(a.begin(), a.begin() + 5, short_array.begin() + 1), dash::OutOfRange);
  EXPECT_THROW(dash::equal(a.begin(), a.end(), b.begin() + 1), dash::OutOfRange);
  const std::vector<int> values(6, 1);
  EXPECT_THROW(dash::copy(values.data(), values.data() + 6, short_array.begin()), dash::OutOfRange);
  EXPECT_THROW(dash::copy_async(values.data() + 2, values.data(), a.begin()), dash::InvalidArgument);
  {
    Team& half = Team::All().split(P() >= 2 ? 2 : 1);
    dash::Array<int> on_half(20, dash::BLOCKED, half);
    EXPECT_THROW(dash::copy(a.begin(), a.end(), on_half.begin()), dash::InvalidArgument);
  }
  // Empty ranges are fine everywhere, also of an unallocated array.
  dash::Array<int> none;
  EXPECT_EQ(dash::accumulate(none.begin(), none.end(), 3), 3);
  EXPECT_EQ(dash::find(none.begin(), none.end(), 3), none.end());
  EXPECT_EQ(dash::copy(none.begin(), none.end(), static_cast<int*>(nullptr)), nullptr);
  EXPECT_TRUE(dash::equal(a.begin(), a.begin(), none.begin()));
}

}  // namespace
