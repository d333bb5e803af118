#pragma once
// Google Highway's vqsort (vectorised quicksort, Debian libhwy-dev) as a local sort kernel. It is an
// optional dependency: only core/vqsort.cpp includes Highway's headers, and a build without it has
// these functions too (vqsort_built() is false and sorting throws).

#include <concepts>
#include <cstdint>
#include <span>

namespace dash::detail {

// The keys vqsort sorts faster than branchless pdqsort on the development machine (docs/sort.md,
// "Local sort kernel"): 16- and 64-bit integers and double. Highway 1.0.3 also sorts 32-bit keys
// (int32, uint32, float), but slower than pdqsort, so they are not offered.
template <class T>
concept vqsort_key = std::same_as<T, std::int16_t> || std::same_as<T, std::uint16_t> ||
                     std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t> || std::same_as<T, double>;

// True when dash was built with Highway's vqsort.
bool vqsort_built() noexcept;

// What to use instead when vqsort_built() is false, for error messages.
inline constexpr const char* vqsort_missing = "another kernel: dash was built without Highway's vqsort (libhwy-dev)";

// Sorts `keys` ascending by operator<, unstably, as a permutation (every bit pattern is kept; doubles
// are sorted by their bits mapped to ordered integers, so -0.0 lands before 0.0); doubles must not be
// NaN. Throws dash::InvalidArgument when vqsort_built() is false.
void vqsort(std::span<std::int16_t> keys);
void vqsort(std::span<std::uint16_t> keys);
void vqsort(std::span<std::int64_t> keys);
void vqsort(std::span<std::uint64_t> keys);
void vqsort(std::span<double> keys);

}  // namespace dash::detail
