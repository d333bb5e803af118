#include <algorithm>
#include <cstdint>
#include <cstring>

#include <dash/comm/detail/streaming_copy.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
  std::size_t done = head;
  for (; done + line <= bytes; done += line) {
    const auto* source = reinterpret_cast<const __m128i*>(from + done);
    auto* target = reinterpret_cast<__m128i*>(to + done);
    const __m128i a = _mm_loadu_si128(source);
    const __m128i b = _mm_loadu_si128(source + 1);
    const __m128i c = _mm_loadu_si128(source + 2);
    const __m128i d = _mm_loadu_si128(source + 3);
    _mm_stream_si128(target, a);
    _mm_stream_si128(target + 1, b);
    _mm_stream_si128(target + 2, c);
    _mm_stream_si128(target + 3, d);
  }
  std::memcpy(to + done, from + done, bytes - done);
  _mm_sfence();
#else
  std::memcpy(to, from, bytes);
#endif
}

}  // namespace dash::comm::detail
