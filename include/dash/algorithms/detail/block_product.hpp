#pragma once
// The kernel of the dense matrix-vector products: one block of A times one block of x.

#include <cstddef>

namespace dash::detail {

// y[r] += sum over c in [0, width) of a[r * stride + c] * x[c], for r < rows.
//
// Four rows at a time: each x[c] is loaded once for the four, and four streams through A keep
// more loads in flight than one, which is what bounds a product too large for the caches (1.5-2x
// faster than one row at a time on the development machine; docs/benchmarks.md, matvec). Two
// partial sums per row, even and odd columns, break the chain of dependent additions.
template <class T>
void add_block_product(const T* a, std::size_t rows, std::size_t stride, std::size_t width, const T* x, T* y) {
  constexpr std::size_t together = 4;
  std::size_t r = 0;
  for (; r + together <= rows; r += together) {
    const T* block = a + r * stride;
    T even[together]{};
    T odd[together]{};
    std::size_t c = 0;
    for (; c + 2 <= width; c += 2) {
      const T x_even = x[c];
      const T x_odd = x[c + 1];
      for (std::size_t k = 0; k < together; ++k) {
        even[k] += block[k * stride + c] * x_even;
        odd[k] += block[k * stride + c + 1] * x_odd;
      }
    }
    for (std::size_t k = 0; k < together; ++k) {
      if (c < width) {
        even[k] += block[k * stride + c] * x[c];
      }
      y[r + k] += even[k] + odd[k];
    }
  }
  for (; r < rows; ++r) {
    const T* row = a + r * stride;
    T even{};
    T odd{};
    std::size_t c = 0;
    for (; c + 2 <= width; c += 2) {
      even += row[c] * x[c];
      odd += row[c + 1] * x[c + 1];
    }
    if (c < width) {
      even += row[c] * x[c];
    }
    y[r] += even + odd;
  }
}

}  // namespace dash::detail
