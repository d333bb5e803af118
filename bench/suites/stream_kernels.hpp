#pragma once
// The STREAM kernels as plain loops (McCalpin, https://www.cs.virginia.edu/stream/).
//
// They live in their own translation unit, compiled without loop-idiom recognition (see
// bench/CMakeLists.txt), so that the copy loop stays a loop instead of becoming a call to the
// std::memcpy it is compared against.

#include <cstddef>

namespace dash::bench::stream {

// c[j] = a[j]
void copy(const double* a, double* c, std::size_t n);

// a[j] = b[j] + scalar * c[j]
void triad(double* a, const double* b, const double* c, double scalar, std::size_t n);

}  // namespace dash::bench::stream
