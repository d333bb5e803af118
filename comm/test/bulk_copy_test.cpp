// detail::bulk_copy against the source: destinations 0-70 bytes past the source modulo a page
// (inside and outside the window where it avoids memcpy), lengths around its 64-byte steps and
// beyond glibc's string-copy threshold, and the bytes around the copy left untouched; bulk_move
// on overlapping ranges as memmove.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "engine/bulk_copy.hpp"

namespace {

constexpr std::size_t page = 4096;

std::byte pattern(std::size_t i) { return static_cast<std::byte>((i * 131 + 7) % 251); }

// The first address in `buffer` at `offset` bytes past a page boundary.
std::byte* at_page_offset(std::vector<std::byte>& buffer, std::size_t offset) {
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
  return buffer.data() + (page - address % page) % page + offset;
}

TEST(BulkCopy, CopiesEveryDistanceAndLengthExactly) {
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65},
                                  std::size_t{200}, std::size_t{3000}, std::size_t{2 * page + 17}}) {
    for (std::size_t distance = 0; distance <= 70; ++distance) {
      std::vector<std::byte> source(bytes + 2 * page);
      std::byte* from = at_page_offset(source, 16);
      for (std::size_t i = 0; i < bytes; ++i) {
        from[i] = pattern(i);
      }
      std::vector<std::byte> target(bytes + 4 * page, std::byte{0xee});
      std::byte* to = at_page_offset(target, 16 + distance);
      dash::comm::detail::bulk_copy(to, from, bytes);
      for (std::size_t i = 0; i < target.size(); ++i) {
        const std::byte* here = target.data() + i;
        const bool inside = here >= to && here < to + bytes;
        const std::byte expected = inside ? pattern(static_cast<std::size_t>(here - to)) : std::byte{0xee};
        ASSERT_EQ(target[i], expected) << "bytes " << bytes << ", distance " << distance << ", byte " << i;
      }
    }
  }
}

TEST(BulkCopy, EmptyCopyAcceptsNullPointers) {
  dash::comm::detail::bulk_copy(nullptr, nullptr, 0);
  dash::comm::detail::bulk_move(nullptr, nullptr, 0);
}

TEST(BulkMove, CopiesDisjointRangesAsBulkCopyAndOverlappingOnesAsMemmove) {
  const std::size_t bytes = 3000;
  for (const std::ptrdiff_t shift : {std::ptrdiff_t{-4096}, std::ptrdiff_t{-3001}, std::ptrdiff_t{-3000},
                                     std::ptrdiff_t{-40}, std::ptrdiff_t{-1}, std::ptrdiff_t{0}, std::ptrdiff_t{1},
                                     std::ptrdiff_t{16}, std::ptrdiff_t{2999}, std::ptrdiff_t{3000},
                                     std::ptrdiff_t{4096 + 16}}) {
    std::vector<std::byte> buffer(4 * page, std::byte{0xee});
    std::byte* from = at_page_offset(buffer, 0) + page + 16;
    for (std::size_t i = 0; i < bytes; ++i) {
      from[i] = pattern(i);
    }
    std::vector<std::byte> expected = buffer;
    const std::ptrdiff_t from_index = from - buffer.data();
    std::memmove(expected.data() + from_index + shift, expected.data() + from_index, bytes);
    dash::comm::detail::bulk_move(from + shift, from, bytes);
    ASSERT_EQ(buffer, expected) << "destination " << shift << " bytes past the source";
  }
}

}  // namespace
