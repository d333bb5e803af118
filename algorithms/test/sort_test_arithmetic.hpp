#pragma once
// Arithmetic types in their natural order (std::ranges::less, std::less<T>, std::less<>) may take a
// radix kernel; std::greater<> may not. A type-parameterized suite because every (type, comparator)
// pair is a dash::sort instantiation that is costly to compile: int32_t and float are instantiated in
// sort_test.cpp, whose other tests already sort int and float arrays in their natural order, the
// other integer widths in sort_test_integer_widths.cpp, so the two compile in parallel at similar cost.

#include <cstddef>
#include <functional>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "sort_test_inputs.hpp"
#include "sort_test_oracle.hpp"

namespace dash::testing::sorting {

template <class T>
class SortArithmetic : public ::testing::Test {};
TYPED_TEST_SUITE_P(SortArithmetic);

TYPED_TEST_P(SortArithmetic, NaturalAndReversedOrders) {
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

REGISTER_TYPED_TEST_SUITE_P(SortArithmetic, NaturalAndReversedOrders);

}  // namespace dash::testing::sorting
