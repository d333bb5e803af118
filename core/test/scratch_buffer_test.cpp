#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <dash/core/detail/scratch_buffer.hpp>

namespace {

using dash::detail::make_scratch;

constexpr std::size_t huge_page = std::size_t{2} << 20U;

// Every element of small and large buffers can be written and read back; from 2 MiB up a buffer
// starts on a 2 MiB boundary (so that it can be backed by huge pages), below that as malloc aligns.
TEST(ScratchBuffer, SmallAndLargeBuffersHoldTheirElements) {
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, huge_page / 8 - 1,
                                  huge_page / 8, 3 * huge_page / 8 + 5}) {
    SCOPED_TRACE(count);
    const auto buffer = make_scratch<std::uint64_t>(count);
    ASSERT_NE(buffer.get(), nullptr);
    const auto address = reinterpret_cast<std::uintptr_t>(buffer.get());
    EXPECT_EQ(address % alignof(std::max_align_t), 0U);
    if (count * sizeof(std::uint64_t) >= huge_page) {
      EXPECT_EQ(address % huge_page, 0U);
    }
    for (std::size_t i = 0; i < count; ++i) {
      buffer[i] = i * 3;
    }
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(buffer[i], i * 3);
    }
  }
}

struct Pair {
  std::int32_t key;
  double value;
};

TEST(ScratchBuffer, HoldsStructs) {
  const auto buffer = make_scratch<Pair>(huge_page / sizeof(Pair) + 1);
  buffer[0] = Pair{1, 2.5};
  buffer[huge_page / sizeof(Pair)] = Pair{-4, 0.25};
  EXPECT_EQ(buffer[0].key, 1);
  EXPECT_EQ(buffer[huge_page / sizeof(Pair)].value, 0.25);
}

// Freed blocks from 2 MiB up are kept and handed out again, the smallest that fits first; at most
// scratch_cache_blocks of them, the smallest evicted; smaller buffers are not kept.
TEST(ScratchBuffer, KeepsFreedLargeBlocksForTheNextRequestThatFits) {
  using dash::detail::cached_scratch_bytes;
  dash::detail::release_cached_scratch();
  ASSERT_EQ(cached_scratch_bytes(), 0U);
  void* small = dash::detail::allocate_scratch(huge_page - 1);
  dash::detail::free_scratch(small);
  EXPECT_EQ(cached_scratch_bytes(), 0U);

  void* four = dash::detail::allocate_scratch(4 * huge_page);
  void* two = dash::detail::allocate_scratch(huge_page + 1);  // rounded up to two huge pages
  dash::detail::free_scratch(four);
  dash::detail::free_scratch(two);
  EXPECT_EQ(cached_scratch_bytes(), 6 * huge_page);
  EXPECT_EQ(dash::detail::allocate_scratch(huge_page), two);  // the smallest that fits
  EXPECT_EQ(cached_scratch_bytes(), 4 * huge_page);
  void* bigger = dash::detail::allocate_scratch(5 * huge_page);  // none fits: a new block
  EXPECT_NE(bigger, four);
  EXPECT_EQ(cached_scratch_bytes(), 4 * huge_page);
  dash::detail::free_scratch(two);
  dash::detail::free_scratch(bigger);
  EXPECT_EQ(cached_scratch_bytes(), 11 * huge_page);

  std::vector<void*> blocks;
  for (std::size_t pages = 1; pages <= dash::detail::scratch_cache_blocks + 2; ++pages) {
    blocks.push_back(dash::detail::allocate_scratch(pages * 10 * huge_page));
  }
  dash::detail::release_cached_scratch();
  EXPECT_EQ(cached_scratch_bytes(), 0U);
  for (void* block : blocks) {
    dash::detail::free_scratch(block);
  }
  // Six blocks of 10, 20, ... 60 huge pages came back; the four largest are kept.
  EXPECT_EQ(cached_scratch_bytes(), (30 + 40 + 50 + 60) * huge_page);
  dash::detail::release_cached_scratch();
  EXPECT_EQ(cached_scratch_bytes(), 0U);
}

}  // namespace
