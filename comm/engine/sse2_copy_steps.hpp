#pragma once
// The loop both of the arena's own copies run (detail::bulk_copy, detail::streaming_copy): 64-byte
// steps of SSE2 loads, stored by the caller's choice of instruction.

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>

namespace dash::comm::detail {

// Copies the whole 64-byte steps of `bytes` with `store(target, value)` for each 16 bytes; returns
// how many bytes it copied (the caller copies the rest).
template <class Store>
std::size_t copy_sse2_steps(std::byte* to, const std::byte* from, std::size_t bytes, Store store) noexcept {
  constexpr std::size_t step = 64;
  std::size_t done = 0;
  for (; done + step <= bytes; done += step) {
    const auto* source = reinterpret_cast<const __m128i*>(from + done);
    auto* target = reinterpret_cast<__m128i*>(to + done);
    const __m128i a = _mm_loadu_si128(source);
    const __m128i b = _mm_loadu_si128(source + 1);
    const __m128i c = _mm_loadu_si128(source + 2);
    const __m128i d = _mm_loadu_si128(source + 3);
    store(target, a);
    store(target + 1, b);
    store(target + 2, c);
    store(target + 3, d);
  }
  return done;
}

}  // namespace dash::comm::detail

#endif
