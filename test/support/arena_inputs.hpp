#pragma once
// Inputs for the tests of the collectives that run in the node arena (shared-memory and
// hierarchical): vectors longer than the arena's slots, with values whose sums are exact in any
// order, so results compare equal to the MPI library's.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dash::testing {

// 256 KiB slots hold 32768 doubles: 5.3 slots' worth per contribution, more chunks than the arena
// has slots, and a remainder.
inline constexpr std::size_t many_arena_chunks = 5 * 32768 + 4321;

// Multiples of 1/2 below 2^10 + rank: sums of any order are exact.
inline std::vector<double> exact_doubles(std::size_t n, int rank) {
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<double>(rank + 1) * 0.5 + static_cast<double>(i % 1013);
  }
  return values;
}

// Distinct per rank and position, negative for rank > 0.
inline std::vector<std::int64_t> rank_integers(std::size_t n, int rank) {
  std::vector<std::int64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<std::int64_t>(i) * 7 - rank * 1000003;
  }
  return values;
}

}  // namespace dash::testing
