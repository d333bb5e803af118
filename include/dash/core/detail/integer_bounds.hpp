#pragma once
// The least and greatest of many integers in one pass: the counting path's key-range pass
// (counting_sort.hpp). Compiled once in core/integer_bounds.cpp per fixed-width integer type, with
// AVX2 and AVX-512 clones chosen when the library loads: inlined for baseline x86-64, the compiler
// compares 64-bit keys one at a time (about 1 ns per key, a tenth of the whole sort of uniform
// 64-bit keys at P = 2), where the AVX-512 clone compares eight at once (0.12 ns per key; docs/sort.md,
// "Counting path").

#include <concepts>
#include <cstdint>
#include <span>

namespace dash::detail {

template <class T>
concept fixed_width_integer = std::same_as<T, std::int8_t> || std::same_as<T, std::uint8_t> ||
                              std::same_as<T, std::int16_t> || std::same_as<T, std::uint16_t> ||
                              std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
                              std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t>;

template <fixed_width_integer T>
struct IntegerBounds {
  T least;
  T greatest;
};

// `values` must not be empty.
IntegerBounds<std::int8_t> integer_bounds(std::span<const std::int8_t> values) noexcept;
IntegerBounds<std::uint8_t> integer_bounds(std::span<const std::uint8_t> values) noexcept;
IntegerBounds<std::int16_t> integer_bounds(std::span<const std::int16_t> values) noexcept;
IntegerBounds<std::uint16_t> integer_bounds(std::span<const std::uint16_t> values) noexcept;
IntegerBounds<std::int32_t> integer_bounds(std::span<const std::int32_t> values) noexcept;
IntegerBounds<std::uint32_t> integer_bounds(std::span<const std::uint32_t> values) noexcept;
IntegerBounds<std::int64_t> integer_bounds(std::span<const std::int64_t> values) noexcept;
IntegerBounds<std::uint64_t> integer_bounds(std::span<const std::uint64_t> values) noexcept;

}  // namespace dash::detail
