#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/streaming_copy.hpp"

#include "engine/sse2_copy_steps.hpp"

namespace dash::comm::detail {

void streaming_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
  if (bytes == 0) {  // empty contributions may come with null pointers
    return;
  }
#if defined(__SSE2__)
  constexpr std::size_t line = 64;
  // Whole destination lines only: a partial line would be read back from memory anyway.
  const std::size_t head = std::min(bytes, (line - reinterpret_cast<std::uintptr_t>(to) % line) % line);
  std::memcpy(to, from, head);
  const std::size_t done =
      head + copy_sse2_steps(to + head, from + head, bytes - head,
                             [](__m128i* target, __m128i value) { _mm_stream_si128(target, value); });
  std::memcpy(to + done, from + done, bytes - done);
  _mm_sfence();
#else
  std::memcpy(to, from, bytes);
#endif
}

}  // namespace dash::comm::detail
