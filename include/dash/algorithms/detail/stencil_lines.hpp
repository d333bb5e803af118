#pragma once
// The row kernel of dash::apply_stencil for stencils of up to unrolled_points points listed one by
// one: runs of lines of cells, each cell's sum formed in a register in the order dash::Stencil
// documents, built for the target of the build and, on x86-64, once more for AVX2, chosen at run
// time (stencil_lines_for).

#include <array>
#include <cstddef>
#include <utility>

#include <dash/algorithms/detail/cpu_has_avx2.hpp>

namespace dash::detail {

// The most points the row kernel unrolls: the 3-D box stencil's 27.
inline constexpr std::size_t unrolled_points = 27;

// Lines of cells, side by side along the last dimension: `count` lines of `width` cells, line l's
// cells at out + l * out_step, point k's values for it at rows[k] + l * row_steps[k]. A box
// handed to the kernel as one set of lines costs one call, not one per line.
template <class T>
struct Lines {
  std::size_t width = 0;
  std::size_t count = 1;
  std::size_t out_step = 0;
  const std::ptrdiff_t* row_steps = nullptr;
};

// Lines for a stencil of K points, rows[k] being where point k's values for the first line
// start: each cell forms its sum (stencil.hpp: c (v_0 + ... + v_K-1) for a uniform stencil,
// c_0 v_0 + ... + c_K-1 v_K-1 otherwise, left to right) in a register; K known at compile time
// lets the compiler unroll the points and vectorise the line.
template <class T, std::size_t K, class Finish, bool Uniform>
[[gnu::always_inline]] inline void stencil_lines_body(T* out, const Lines<T>& lines, const T* const* rows,
                                                      const T* weights, const Finish& finish,
                                                      std::size_t first_index) {
  // The rows' starts are read where they are used, not copied: the compiler would copy them two
  // at a time, and such a wide load of what the caller stored one by one just now cannot be
  // forwarded from its stores and waits for them (docs/benchmarks.md, "halo", has the cost).
  std::array<T, K> w;
  for (std::size_t k = 0; k < K; ++k) {
    w[k] = weights[k];
  }
  for (std::size_t l = 0; l < lines.count; ++l) {
    const auto line = static_cast<std::ptrdiff_t>(l);
    const auto in = [&](std::size_t k) { return rows[k] + line * lines.row_steps[k]; };
    T* const line_out = out + l * lines.out_step;
    const std::size_t line_index = first_index + l * lines.out_step;
    for (std::size_t c = 0; c < lines.width; ++c) {
      if constexpr (Uniform) {
        T sum = in(0)[c];
        for (std::size_t k = 1; k < K; ++k) {
          sum += in(k)[c];
        }
        line_out[c] = finish(w[0] * sum, line_index + c);
      } else {
        T sum = w[0] * in(0)[c];
        for (std::size_t k = 1; k < K; ++k) {
          sum += w[k] * in(k)[c];
        }
        line_out[c] = finish(sum, line_index + c);
      }
    }
  }
}

// The kernel as the build targets the CPU, and (GCC and Clang on x86-64) once more for AVX2, taken
// when the CPU has it: twice the cells per instruction, and the same operations in the same order
// (AVX2 alone brings no fused multiply-add), so the same results bit for bit. A stencil's rows are
// short and hot in the cache, so the instructions, not the memory, bound the kernel: AVX2 made a
// 2-D Jacobi step at b = 512 a quarter shorter here (docs/benchmarks.md, "halo").
template <class T, std::size_t K, class Finish, bool Uniform>
void stencil_lines(T* out, const Lines<T>& lines, const T* const* rows, const T* weights, const Finish& finish,
                   std::size_t first_index) {
  stencil_lines_body<T, K, Finish, Uniform>(out, lines, rows, weights, finish, first_index);
}

template <class T, class Finish>
using StencilLines = void (*)(T*, const Lines<T>&, const T* const*, const T*, const Finish&, std::size_t);

// The kernels for 1 ... sizeof...(K) points.
template <class T, class Finish, bool Uniform, std::size_t... K>
constexpr std::array<StencilLines<T, Finish>, sizeof...(K)> make_stencil_lines(std::index_sequence<K...>) {
  return {&stencil_lines<T, K + 1, Finish, Uniform>...};
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
template <class T, std::size_t K, class Finish, bool Uniform>
[[gnu::target("avx2")]] void stencil_lines_avx2(T* out, const Lines<T>& lines, const T* const* rows,
                                                const T* weights, const Finish& finish, std::size_t first_index) {
  stencil_lines_body<T, K, Finish, Uniform>(out, lines, rows, weights, finish, first_index);
}

template <class T, class Finish, bool Uniform, std::size_t... K>
constexpr std::array<StencilLines<T, Finish>, sizeof...(K)> make_stencil_lines_avx2(std::index_sequence<K...>) {
  return {&stencil_lines_avx2<T, K + 1, Finish, Uniform>...};
}
#endif

// The kernel for `points` points (1 ... unrolled_points): the AVX2 one where it is built, allowed
// and the CPU has it, else the build's own.
template <class T, class Finish>
StencilLines<T, Finish> stencil_lines_for(std::size_t points, bool uniform, bool allow_avx2) {
  using Points = std::make_index_sequence<unrolled_points>;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (allow_avx2 && cpu_has_avx2()) {
    static constexpr auto general = make_stencil_lines_avx2<T, Finish, false>(Points());
    static constexpr auto same_weight = make_stencil_lines_avx2<T, Finish, true>(Points());
    return uniform ? same_weight[points - 1] : general[points - 1];
  }
#else
  (void)allow_avx2;
#endif
  static constexpr auto general = make_stencil_lines<T, Finish, false>(Points());
  static constexpr auto same_weight = make_stencil_lines<T, Finish, true>(Points());
  return uniform ? same_weight[points - 1] : general[points - 1];
}

}  // namespace dash::detail
