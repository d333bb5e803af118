#pragma once
// The compute load of the overlap suite: a deterministic stream of small dense matrix products,
// as in Kowalewski 2021's overlap benchmark (a small matrix multiply over a buffer of about 5 MB).
//
// Product j is C_j = A_j * B for 8x8 matrices, with A_j and C_j taken from rings that together
// hold about 5 MB, so the load runs from cache (not from registers) without being limited by
// memory bandwidth. One product takes a fraction of a microsecond, fine enough to size the load
// to a collective of a few microseconds. The code lives in its own translation unit so that the
// compiler cannot drop or merge products whose results the caller never reads.

#include <cstddef>
#include <vector>

namespace dash::bench::overlap {

class MatrixProducts {
public:
  MatrixProducts();

  // Computes the next `count` products, continuing around the ring where the last call stopped.
  void compute(std::size_t count);

  // Starts over at the ring's first product and fills every C_j with NaN.
  void reset();

  // True when every product computed since reset() holds A_j * B (compared exactly: all inputs
  // are small multiples of 1/4, so every product is exact).
  bool verify() const;

private:
  std::vector<double> a_;  // the A_j, one after the other
  std::vector<double> b_;
  std::vector<double> c_;  // the C_j
  std::size_t next_ = 0;
  std::size_t computed_since_reset_ = 0;
};

}  // namespace dash::bench::overlap
