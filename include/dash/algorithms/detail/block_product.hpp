#pragma once
// The kernel of the dense matrix-vector products: one block of A times one block of x.

#include <cstddef>

namespace dash::detail {

// y[r] += sum over c in [0, width) of a[r * stride + c] * x[c], for r < rows.
template <class T>
void add_block_product(const T* a, std::size_t rows, std::size_t stride, std::size_t width, const T* x, T* y) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = a + r * stride;
    T sum0{};
    T sum1{};
    T sum2{};
    T sum3{};
    std::size_t c = 0;
    for (; c + 4 <= width; c += 4) {
      sum0 += row[c] * x[c];
      sum1 += row[c + 1] * x[c + 1];
      sum2 += row[c + 2] * x[c + 2];
      sum3 += row[c + 3] * x[c + 3];
    }
    for (; c < width; ++c) {
      sum0 += row[c] * x[c];
    }
    y[r] += (sum0 + sum1) + (sum2 + sum3);
  }
}

}  // namespace dash::detail
