// detail::streaming_copy against memcpy: every alignment of source and destination, lengths around
// the 64-byte lines it streams, and bytes around the copy left untouched.

#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "engine/streaming_copy.hpp"

namespace {

std::byte pattern(std::size_t i) { return static_cast<std::byte>((i * 131 + 7) % 251); }

TEST(StreamingCopy, CopiesEveryAlignmentAndLengthExactly) {
  constexpr std::size_t margin = 64;
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65},
                                  std::size_t{127}, std::size_t{128}, std::size_t{200}, std::size_t{4096 + 17}}) {
    for (std::size_t from_offset = 0; from_offset < 16; from_offset += 3) {
      for (std::size_t to_offset = 0; to_offset < 64; to_offset += 5) {
        std::vector<std::byte> source(bytes + 2 * margin);
        for (std::size_t i = 0; i < source.size(); ++i) {
          source[i] = pattern(i);
        }
        std::vector<std::byte> target(bytes + 2 * margin, std::byte{0xee});
        dash::comm::detail::streaming_copy(target.data() + to_offset, source.data() + from_offset, bytes);
        for (std::size_t i = 0; i < target.size(); ++i) {
          const bool inside = i >= to_offset && i < to_offset + bytes;
          const std::byte expected = inside ? source[i - to_offset + from_offset] : std::byte{0xee};
          ASSERT_EQ(target[i], expected) << "bytes " << bytes << ", from +" << from_offset << ", to +" << to_offset
                                         << ", byte " << i;
        }
      }
    }
  }
}

TEST(StreamingCopy, EmptyCopyAcceptsNullPointers) {
  dash::comm::detail::streaming_copy(nullptr, nullptr, 0);
}

}  // namespace
