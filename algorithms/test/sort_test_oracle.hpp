#pragma once
// The check of every dash::sort test: the sorted range against std::stable_sort (stable: element by
// element, payload included, byte for byte) or std::sort (unstable: equivalent keys at every
// position and the same multiset of bit patterns) of the input gathered with dash::copy before the
// sort; elements outside the range must be untouched, and every unit's local memory must hold
// exactly the expected elements of its own positions.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <functional>
#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "sort_test_inputs.hpp"

namespace dash::testing::sorting {

inline std::size_t team_rank(const dash::Team& team) { return static_cast<std::size_t>(team.myid()); }

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

}  // namespace dash::testing::sorting
