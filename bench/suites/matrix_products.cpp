#include "suites/matrix_products.hpp"

#include <algorithm>
#include <limits>

namespace dash::bench::overlap {

namespace {

constexpr std::size_t order = 8;
constexpr std::size_t matrix_elements = order * order;
// 5000 matrices of 512 bytes in each of the A and C rings: 5.12 MB.
constexpr std::size_t ring_matrices = 5000;

// Multiples of 1/4 in [-2, 2]: a sum of eight products of two of them is exact in double.
double entry(std::size_t index, std::size_t salt) {
  return static_cast<double>((index * 7 + salt) % 17) * 0.25 - 2.0;
}

void multiply(const double* a, const double* b, double* c) {
  for (std::size_t row = 0; row < order; ++row) {
    for (std::size_t column = 0; column < order; ++column) {
      double sum = 0.0;
      for (std::size_t k = 0; k < order; ++k) {
        sum += a[row * order + k] * b[k * order + column];
      }
      c[row * order + column] = sum;
    }
  }
}

}  // namespace

MatrixProducts::MatrixProducts()
    : a_(ring_matrices * matrix_elements), b_(matrix_elements), c_(ring_matrices * matrix_elements) {
  for (std::size_t i = 0; i < a_.size(); ++i) {
    a_[i] = entry(i, 3);
  }
  for (std::size_t i = 0; i < b_.size(); ++i) {
    b_[i] = entry(i, 11);
  }
  reset();
}

void MatrixProducts::compute(std::size_t count) {
  for (std::size_t done = 0; done < count; ++done) {
    multiply(a_.data() + next_ * matrix_elements, b_.data(), c_.data() + next_ * matrix_elements);
    next_ = next_ + 1 == ring_matrices ? 0 : next_ + 1;
  }
  computed_since_reset_ += count;
}

void MatrixProducts::reset() {
  std::fill(c_.begin(), c_.end(), std::numeric_limits<double>::quiet_NaN());
  next_ = 0;
  computed_since_reset_ = 0;
}

bool MatrixProducts::verify() const {
  const std::size_t computed = std::min(computed_since_reset_, ring_matrices);
  for (std::size_t j = 0; j < computed; ++j) {
    for (std::size_t row = 0; row < order; ++row) {
      for (std::size_t column = 0; column < order; ++column) {
        double expected = 0.0;
        for (std::size_t k = 0; k < order; ++k) {
          expected += a_[j * matrix_elements + row * order + k] * b_[k * order + column];
        }
        if (!(c_[j * matrix_elements + row * order + column] == expected)) {
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace dash::bench::overlap
