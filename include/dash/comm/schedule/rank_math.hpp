#pragma once
// Small integer helpers shared by the schedule generators.

#include <bit>
#include <cstdint>

namespace dash::comm::schedule {

// ⌈log2 n⌉ for n >= 1.
constexpr int ceil_log2(std::uint32_t n) noexcept {
  return n <= 1 ? 0 : static_cast<int>(std::bit_width(n - 1));
}

// ⌊log2 n⌋ for n >= 1.
constexpr int floor_log2(std::uint32_t n) noexcept { return static_cast<int>(std::bit_width(n)) - 1; }

// The largest power of two <= n, for n >= 1.
constexpr std::uint32_t floor_pow2(std::uint32_t n) noexcept { return std::bit_floor(n); }

// (a mod n) in [0, n) for any sign of a.
constexpr int modulo(std::int64_t a, int n) noexcept {
  const std::int64_t r = a % n;
  return static_cast<int>(r < 0 ? r + n : r);
}

}  // namespace dash::comm::schedule
