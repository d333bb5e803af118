// A fold over more than INT_MAX elements into a wider init: 2^31 + 7 bytes, each 1, sum to 2^31 + 7 in
// a std::uint64_t (folding in the element type, as dash::accumulate once did, gave 7). 2 GiB in all,
// so this runs at a few rank counts only and not under the sanitizers.

#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

namespace {

TEST(AccumulateLargeCount, BytesSumIntoA64BitInitWithoutWrapping) {
  const std::size_t n = (std::size_t(1) << 31) + 7;
  dash::Array<std::uint8_t> ones(n);
  dash::fill(ones.begin(), ones.end(), std::uint8_t{1});
  EXPECT_EQ(dash::accumulate(ones.begin(), ones.end(), std::uint64_t{0}), n);
  EXPECT_EQ(dash::reduce(ones.begin() + 5, ones.end() - 3, std::uint64_t{0}), n - 8);
  EXPECT_EQ(dash::transform_reduce(ones.begin(), ones.end(), ones.begin(), std::int64_t{-7}), n - 7);
  EXPECT_EQ(dash::accumulate(ones.begin(), ones.end(), std::uint8_t{0}), std::uint8_t{7}) << "a byte init wraps, as in the STL";
}

}  // namespace
