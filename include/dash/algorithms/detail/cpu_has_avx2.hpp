#pragma once
// Whether the CPU the program runs on has AVX2: the stencil kernels (stencil_lines.hpp,
// grouped_rows.hpp) are built once more for it with GCC and Clang on x86-64 and take that build
// where this holds. Elsewhere no AVX2 build exists and this is false.

namespace dash::detail {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
inline bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") != 0;
  return has;
}
#else
inline bool cpu_has_avx2() { return false; }
#endif

}  // namespace dash::detail
