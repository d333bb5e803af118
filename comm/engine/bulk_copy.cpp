#include <cstdint>
#include <cstring>

#include "engine/bulk_copy.hpp"

#include "engine/sse2_copy_steps.hpp"

namespace dash::comm::detail {

#if defined(__SSE2__)
namespace {

// `rep movsb` is slow for distances of 1-15 bytes; widening the window to a whole cache line costs
// little, as the loop runs close to memcpy (docs/collectives.md, "Shared-memory collectives").
constexpr std::uintptr_t page_bytes = 4096;
constexpr std::uintptr_t aliasing_window = 64;

bool string_copy_aliases(const std::byte* to, const std::byte* from) noexcept {
  const std::uintptr_t distance =
      (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) % page_bytes;
  return distance != 0 && distance < aliasing_window;
}

}  // namespace
#endif

void bulk_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
  if (bytes == 0) {  // empty contributions may come with null pointers
    return;
  }
#if defined(__SSE2__)
  if (string_copy_aliases(to, from)) {
    const std::size_t done =
        copy_sse2_steps(to, from, bytes, [](__m128i* target, __m128i value) { _mm_storeu_si128(target, value); });
    std::memcpy(to + done, from + done, bytes - done);  // under 64 bytes: no string copy
    return;
  }
#endif
  std::memcpy(to, from, bytes);
}

void bulk_move(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
  if (to < from + bytes && from < to + bytes) {
    std::memmove(to, from, bytes);
  } else {
    bulk_copy(to, from, bytes);
  }
}

}  // namespace dash::comm::detail
