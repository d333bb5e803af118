#pragma once
// The `matvec` suite's ScaLAPACK baseline: y = A x with PBLAS's PDGEMV on a BLACS process grid.
//
// The q0 x q1 grid covers the workload's communicator, processes numbered row-major (process
// (i, j) is rank i q1 + j, as dash numbers a TeamSpec<2>). A is n x n in blocks of
// ceil(n / q0) x ceil(n / q1), one block per process: the BLOCKED x BLOCKED layout of dash. x and
// y are n x 1 distributed matrices in row blocks of ceil(n / q0), held by grid column 0, as a
// ScaLAPACK program keeps its vectors. Local storage is ScaLAPACK's: column-major.

#include <cstddef>
#include <span>
#include <vector>

#include <mpi.h>

namespace dash::bench::matvec {

class Pdgemv {
public:
  // Collective over `comm`, whose size must be q0 * q1. The matrix and the vectors start as zeros.
  Pdgemv(MPI_Comm comm, std::size_t q0, std::size_t q1, std::size_t n);
  Pdgemv(const Pdgemv&) = delete;
  Pdgemv& operator=(const Pdgemv&) = delete;
  ~Pdgemv();

  // y = A x. Collective.
  void multiply();

  // The process's block of A: rows [first_row(), first_row() + local_rows()), columns
  // [first_col(), first_col() + local_cols()); element (i, j) of the block at a()[i + j * local_rows()].
  std::size_t first_row() const noexcept { return first_row_; }
  std::size_t local_rows() const noexcept { return local_rows_; }
  std::size_t first_col() const noexcept { return first_col_; }
  std::size_t local_cols() const noexcept { return local_cols_; }
  std::span<double> a() noexcept { return a_; }
  // The process's parts of x and y: elements [first_row(), first_row() + local_rows()) in grid
  // column 0, empty elsewhere.
  std::span<double> x() noexcept { return x_; }
  std::span<double> y() noexcept { return y_; }
  std::span<const double> y() const noexcept { return y_; }

private:
  int system_handle_ = -1;
  int context_ = -1;
  int n_;
  std::size_t first_row_ = 0;
  std::size_t local_rows_ = 0;
  std::size_t first_col_ = 0;
  std::size_t local_cols_ = 0;
  int a_descriptor_[9] = {};
  int vector_descriptor_[9] = {};
  std::vector<double> a_;
  std::vector<double> x_;
  std::vector<double> y_;
};

}  // namespace dash::bench::matvec
