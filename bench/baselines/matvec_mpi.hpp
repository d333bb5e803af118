#pragma once
// The `matvec` suite's plain-MPI baseline: y = A x for a dense n x n matrix distributed by rows,
// written the way it is written by hand. Process r holds rows [r b, (r + 1) b) of A, row-major,
// and the same part of x and y (b = ceil(n / p), the last parts shorter or empty). One product
// is an MPI_Allgatherv of x into a full copy, then a dot product of each local row with it.

#include <cstddef>
#include <span>
#include <vector>

#include <mpi.h>

namespace dash::bench::matvec {

class MatvecMpi {
public:
  // Collective over `comm`. The matrix and the vectors start as zeros.
  MatvecMpi(MPI_Comm comm, std::size_t n);

  // y = A x. Collective.
  void multiply();

  std::size_t first_row() const noexcept { return first_row_; }
  std::size_t local_rows() const noexcept { return local_rows_; }
  // The process's rows of A, row-major local_rows() x n.
  std::span<double> a() noexcept { return a_; }
  // The process's parts of x and y: elements [first_row(), first_row() + local_rows()).
  std::span<double> x() noexcept { return x_; }
  std::span<double> y() noexcept { return y_; }
  std::span<const double> y() const noexcept { return y_; }

private:
  MPI_Comm comm_;
  std::size_t n_;
  std::size_t first_row_ = 0;
  std::size_t local_rows_ = 0;
  std::vector<int> counts_;
  std::vector<int> displacements_;
  std::vector<double> a_;
  std::vector<double> x_;
  std::vector<double> y_;
  std::vector<double> x_full_;
};

}  // namespace dash::bench::matvec
