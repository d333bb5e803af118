#pragma once
// NPB's random number generator randlc, shared by the kernels (NPB 3.4, docs/references.md):
// x <- a x mod 2^46 with a = 5^13, each step returning the new x / 2^46. NPB's double precision code
// and this 64-bit integer form give the same numbers, since the low 46 bits of a product survive the
// wrap-around modulo 2^64.

#include <cstdint>

namespace dash::bench::npb {

inline constexpr std::uint64_t randlc_seed = 314159265;
inline constexpr std::uint64_t randlc_multiplier = 1220703125;

// a b mod 2^46.
inline std::uint64_t multiply_mod_2_46(std::uint64_t a, std::uint64_t b) {
  return (a * b) & ((std::uint64_t{1} << 46) - 1);
}

// One step: advances `state` and returns the value it stands for, in (0, 1).
inline double randlc(std::uint64_t& state) {
  state = multiply_mod_2_46(randlc_multiplier, state);
  return static_cast<double>(state) * (1.0 / static_cast<double>(std::uint64_t{1} << 46));
}

// The state `steps` steps after `seed`: seed a^steps mod 2^46, in O(log steps).
inline std::uint64_t randlc_jump(std::uint64_t seed, std::uint64_t steps) {
  std::uint64_t power = 1;
  std::uint64_t square = randlc_multiplier;
  for (; steps != 0; steps >>= 1U) {
    if ((steps & 1U) != 0) {
      power = multiply_mod_2_46(power, square);
    }
    square = multiply_mod_2_46(square, square);
  }
  return multiply_mod_2_46(power, seed);
}

}  // namespace dash::bench::npb
