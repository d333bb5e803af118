// The copies of in-place collectives' inputs (include/dash/comm/detail/input_copy.hpp): they hold
// the bytes they were given, and their storage is kept for the next copy, at most two buffers of at
// most kept_buffer_max_bytes, the largest ones.

#include <algorithm>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/detail/input_copy.hpp>

namespace {

using dash::comm::detail::InputCopy;
using dash::comm::detail::kept_buffer_max_bytes;
using dash::comm::detail::kept_input_copy_bytes;
using dash::comm::detail::release_kept_input_copies;

std::vector<std::byte> pattern(std::size_t bytes, unsigned seed) {
  std::vector<std::byte> data(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    data[i] = static_cast<std::byte>((i * 131 + seed) % 251);
  }
  return data;
}

bool holds(const InputCopy& copy, const std::vector<std::byte>& bytes) {
  return copy.size() == bytes.size() && std::equal(bytes.begin(), bytes.end(), copy.data());
}

constexpr std::size_t MiB = std::size_t{1} << 20;

TEST(InputCopy, ReusesTheStorageOfAnEarlierCopy) {
  release_kept_input_copies();
  const auto first = pattern(3 * MiB, 1);
  const std::byte* storage = nullptr;
  {
    const InputCopy copy(first);
    EXPECT_TRUE(holds(copy, first));
    storage = copy.data();
  }
  EXPECT_GE(kept_input_copy_bytes(), 3 * MiB);
  const auto second = pattern(2 * MiB, 7);
  const InputCopy copy(second);
  EXPECT_EQ(copy.data(), storage) << "the kept buffer holds the next copy that fits";
  EXPECT_TRUE(holds(copy, second));
  EXPECT_EQ(kept_input_copy_bytes(), 0u) << "the only kept buffer is in use";
}

TEST(InputCopy, KeepsTheTwoLargestBuffers) {
  release_kept_input_copies();
  {
    const InputCopy small(pattern(1 * MiB, 2));
    const InputCopy middle(pattern(2 * MiB, 3));
    const InputCopy large(pattern(3 * MiB, 4));
  }
  EXPECT_GE(kept_input_copy_bytes(), 5 * MiB);
  EXPECT_LT(kept_input_copy_bytes(), 6 * MiB);
  release_kept_input_copies();
  EXPECT_EQ(kept_input_copy_bytes(), 0u);
}

TEST(InputCopy, GrowsTheLargestBufferWhenNoneFits) {
  release_kept_input_copies();
  { const InputCopy copy(pattern(1 * MiB, 5)); }
  const auto larger = pattern(4 * MiB, 6);
  {
    const InputCopy copy(larger);
    EXPECT_TRUE(holds(copy, larger));
    EXPECT_EQ(kept_input_copy_bytes(), 0u) << "the kept buffer was taken and grown";
  }
  EXPECT_GE(kept_input_copy_bytes(), 4 * MiB);
  release_kept_input_copies();
}

TEST(InputCopy, DoesNotKeepBuffersAboveTheLimit) {
  release_kept_input_copies();
  { const InputCopy copy(pattern(kept_buffer_max_bytes + 1, 8)); }
  EXPECT_EQ(kept_input_copy_bytes(), 0u);
}

TEST(InputCopy, MovedCopiesHoldTheirBytes) {
  release_kept_input_copies();
  const auto bytes = pattern(100, 9);
  InputCopy copy(bytes);
  InputCopy moved(std::move(copy));
  EXPECT_TRUE(holds(moved, bytes));
  InputCopy assigned;
  assigned = std::move(moved);
  EXPECT_TRUE(holds(assigned, bytes));
  release_kept_input_copies();
}

}  // namespace
