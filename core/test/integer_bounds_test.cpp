#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include <dash/core/detail/integer_bounds.hpp>

namespace {

using dash::detail::integer_bounds;

template <class T>
class IntegerBounds : public ::testing::Test {};

using Widths = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
                                std::int64_t, std::uint64_t>;
TYPED_TEST_SUITE(IntegerBounds, Widths);

// Every length up to a few vector widths plus a tail, so that the vectorised body, the remainder
// loop and the single element are each reached, against std::minmax_element.
TYPED_TEST(IntegerBounds, MatchesMinmaxElementAtEveryLength) {
  using T = TypeParam;
  std::mt19937_64 random(7);
  using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  std::uniform_int_distribution<Wide> draw(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  for (std::size_t length = 1; length <= 300; ++length) {
    std::vector<T> values(length);
    for (T& value : values) {
      value = static_cast<T>(draw(random));
    }
    const auto [least, greatest] = std::minmax_element(values.begin(), values.end());
    const auto bounds = integer_bounds(std::span<const T>(values));
    ASSERT_EQ(bounds.least, *least) << "length " << length;
    ASSERT_EQ(bounds.greatest, *greatest) << "length " << length;
  }
}

// The extremes of the type, each placed first, in the middle and last among middling values.
TYPED_TEST(IntegerBounds, FindsTheTypesExtremesAnywhere) {
  using T = TypeParam;
  constexpr T low = std::numeric_limits<T>::min();
  constexpr T high = std::numeric_limits<T>::max();
  for (std::size_t at : {std::size_t{0}, std::size_t{33}, std::size_t{70}}) {
    std::vector<T> values(71, static_cast<T>(high / 2));
    values[at] = low;
    values[70 - at] = high;
    const auto bounds = integer_bounds(std::span<const T>(values));
    EXPECT_EQ(bounds.least, low) << "at " << at;
    EXPECT_EQ(bounds.greatest, high) << "at " << at;
  }
  const std::vector<T> one{low};
  EXPECT_EQ(integer_bounds(std::span<const T>(one)).least, low);
  EXPECT_EQ(integer_bounds(std::span<const T>(one)).greatest, low);
}

}  // namespace
