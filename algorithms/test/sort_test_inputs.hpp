#pragma once
// What the dash::sort tests sort: the element types, the input shapes, the distributions and the
// sort options every case runs with.

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace dash::testing::sorting {

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

inline std::vector<Shape> shapes() {
  return {Shape::random,    Shape::sorted,     Shape::reverse_sorted,
          Shape::all_equal, Shape::two_values, Shape::heavy_duplicates};
}

inline std::string name(Shape shape) {
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
inline std::int64_t shaped_key(Shape shape, std::size_t index, std::size_t n, std::mt19937_64& random) {
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

inline std::vector<dash::Distribution> distributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3)};
}

inline std::vector<dash::SortOptions> option_sets() {
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

inline std::string describe(const dash::SortOptions& options) {
  return std::string(options.stable ? "stable" : "unstable") +
         (options.partial_merge ? ", partial merge" : ", merge after");
}

struct Span {
  std::size_t begin;
  std::size_t end;
};

inline std::string describe(const dash::Distribution& distribution, std::size_t n, const Span& span) {
  return distribution.name() + ", n = " + std::to_string(n) + ", range [" + std::to_string(span.begin) + ", " +
         std::to_string(span.end) + ")";
}

}  // namespace dash::testing::sorting
