#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

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

}  // namespace
