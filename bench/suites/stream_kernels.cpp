#include "suites/stream_kernels.hpp"

namespace dash::bench::stream {

void copy(const double* a, double* c, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    c[j] = a[j];
  }
}

void triad(double* a, const double* b, const double* c, double scalar, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    a[j] = b[j] + scalar * c[j];
  }
}

}  // namespace dash::bench::stream
