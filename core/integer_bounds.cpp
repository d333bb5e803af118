#include <dash/core/detail/integer_bounds.hpp>

#include <cstddef>

namespace dash::detail {

namespace {

// Selects rather than branches, so that the loop vectorises.
template <class T>
[[gnu::always_inline]] inline IntegerBounds<T> bounds_of(std::span<const T> values) noexcept {
  T least = values[0];
  T greatest = values[0];
  for (std::size_t i = 1; i < values.size(); ++i) {
    const T value = values[i];
    least = value < least ? value : least;
    greatest = value > greatest ? value : greatest;
  }
  return {least, greatest};
}

}  // namespace

// GCC and Clang on x86-64 build each function three times and pick the widest the CPU runs (an
// ifunc: valgrind, which emulates no AVX-512, gets the AVX2 clone); other targets build it once.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DASH_VECTOR_CLONES [[gnu::target_clones("avx512f", "avx2", "default")]]
#else
#define DASH_VECTOR_CLONES
#endif

DASH_VECTOR_CLONES IntegerBounds<std::int8_t> integer_bounds(std::span<const std::int8_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::uint8_t> integer_bounds(std::span<const std::uint8_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::int16_t> integer_bounds(std::span<const std::int16_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::uint16_t> integer_bounds(std::span<const std::uint16_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::int32_t> integer_bounds(std::span<const std::int32_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::uint32_t> integer_bounds(std::span<const std::uint32_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::int64_t> integer_bounds(std::span<const std::int64_t> values) noexcept {
  return bounds_of(values);
}
DASH_VECTOR_CLONES IntegerBounds<std::uint64_t> integer_bounds(std::span<const std::uint64_t> values) noexcept {
  return bounds_of(values);
}

#undef DASH_VECTOR_CLONES

}  // namespace dash::detail
