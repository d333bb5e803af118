#pragma once
// The kernel of the dense matrix-vector products: one block of A times one block of x.

#include <cstddef>

namespace dash::detail {

// y[r] += sum over c in [0, width) of a[r * stride + c] * x[c] for the `Rows` rows from a.
//
// Several rows at a time: each x[c] is loaded once for them all, and several streams through A
// keep more loads in flight than one, which is what bounds a product too large for the caches.
// Eight partial sums per row (columns c mod 8) break the chain of dependent additions and map onto
// SIMD registers as they are; with two per row the compiler kept the additions in order, one lane at
// a time, and ran slower (docs/benchmarks.md, "matvec").
template <std::size_t Rows, class T>
void add_rows_product(const T* a, std::size_t stride, std::size_t width, const T* x, T* y) {
  constexpr std::size_t lanes = 8;
  T sums[Rows][lanes]{};
  std::size_t c = 0;
  for (; c + lanes <= width; c += lanes) {
    for (std::size_t k = 0; k < Rows; ++k) {
      for (std::size_t l = 0; l < lanes; ++l) {
        sums[k][l] += a[k * stride + c + l] * x[c + l];
      }
    }
  }
  for (std::size_t k = 0; k < Rows; ++k) {
    T total{};
    for (std::size_t rest = c; rest < width; ++rest) {
      total += a[k * stride + rest] * x[rest];
    }
    for (std::size_t l = 0; l < lanes; ++l) {
      total += sums[k][l];
    }
    y[k] += total;
  }
}

// y[r] += sum over c in [0, width) of a[r * stride + c] * x[c], for r < rows: four rows at a time.
template <class T>
void add_block_product(const T* a, std::size_t rows, std::size_t stride, std::size_t width, const T* x, T* y) {
  constexpr std::size_t together = 4;
  std::size_t r = 0;
  for (; r + together <= rows; r += together) {
    add_rows_product<together>(a + r * stride, stride, width, x, y + r);
  }
  for (; r < rows; ++r) {
    add_rows_product<1>(a + r * stride, stride, width, x, y + r);
  }
}

}  // namespace dash::detail
