#include "baselines/heat_mpi.hpp"

#include <utility>

#include <dash/comm/mpi_call.hpp>

namespace dash::bench::halo {

namespace {

constexpr const char* where = "HeatMpi";

// u' at one cell of a frame-padded block.
inline double jacobi(const double* u, std::size_t at, std::size_t stride) {
  return 0.25 * (u[at - stride] + u[at + stride] + u[at - 1] + u[at + 1]);
}

}  // namespace

HeatMpi::HeatMpi(MPI_Comm comm, std::array<int, 2> grid, std::size_t rows, std::size_t cols,
                 const CellValue& boundary)
    : comm_(comm), rows_(rows), cols_(cols), stride_(cols + 2) {
  int rank = 0;
  comm::check_mpi(MPI_Comm_rank(comm, &rank), where);
  const int row = rank / grid[1];
  const int col = rank % grid[1];
  first_row_ = static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(rows);
  first_col_ = static_cast<std::ptrdiff_t>(col) * static_cast<std::ptrdiff_t>(cols);
  neighbours_ = {row > 0 ? rank - grid[1] : MPI_PROC_NULL, row + 1 < grid[0] ? rank + grid[1] : MPI_PROC_NULL,
                 col > 0 ? rank - 1 : MPI_PROC_NULL, col + 1 < grid[1] ? rank + 1 : MPI_PROC_NULL};
  comm::check_mpi(MPI_Type_vector(static_cast<int>(rows), 1, static_cast<int>(stride_), MPI_DOUBLE, &column_), where);
  comm::check_mpi(MPI_Type_commit(&column_), where);
  current_.assign((rows + 2) * stride_, 0.0);
  // The frame: fixed values where it lies past the domain's edge (the others are ghost cells).
  for (std::size_t i = 0; i < rows + 2; ++i) {
    for (std::size_t j = 0; j < stride_; ++j) {
      const bool frame = i == 0 || i == rows + 1 || j == 0 || j == cols + 1;
      const bool past_edge = (i == 0 && neighbours_[0] == MPI_PROC_NULL) ||
                             (i == rows + 1 && neighbours_[1] == MPI_PROC_NULL) ||
                             (j == 0 && neighbours_[2] == MPI_PROC_NULL) ||
                             (j == cols + 1 && neighbours_[3] == MPI_PROC_NULL);
      if (frame && past_edge) {
        current_[i * stride_ + j] = boundary(first_row_ + static_cast<std::ptrdiff_t>(i) - 1,
                                             first_col_ + static_cast<std::ptrdiff_t>(j) - 1);
      }
    }
  }
  next_ = current_;
}

HeatMpi::~HeatMpi() { MPI_Type_free(&column_); }

void HeatMpi::load(const CellValue& initial) {
  for (std::size_t i = 0; i < rows_; ++i) {
    for (std::size_t j = 0; j < cols_; ++j) {
      current_[(i + 1) * stride_ + j + 1] =
          initial(first_row_ + static_cast<std::ptrdiff_t>(i), first_col_ + static_cast<std::ptrdiff_t>(j));
    }
  }
}

void HeatMpi::iterate(int iterations) {
  for (int it = 0; it < iterations; ++it) {
    exchange_and_compute();
    std::swap(current_, next_);
  }
}

void HeatMpi::exchange_and_compute() {
  double* u = current_.data();
  const std::size_t s = stride_;
  const int n = static_cast<int>(cols_);
  std::array<MPI_Request, 8> requests{};
  // Ghost rows and columns in; border rows and columns out. Tags name the direction of travel.
  comm::check_mpi(MPI_Irecv(u + 1, n, MPI_DOUBLE, neighbours_[0], 1, comm_, &requests[0]), where);
  comm::check_mpi(MPI_Irecv(u + (rows_ + 1) * s + 1, n, MPI_DOUBLE, neighbours_[1], 0, comm_, &requests[1]), where);
  comm::check_mpi(MPI_Irecv(u + s, 1, column_, neighbours_[2], 3, comm_, &requests[2]), where);
  comm::check_mpi(MPI_Irecv(u + s + cols_ + 1, 1, column_, neighbours_[3], 2, comm_, &requests[3]), where);
  comm::check_mpi(MPI_Isend(u + s + 1, n, MPI_DOUBLE, neighbours_[0], 0, comm_, &requests[4]), where);
  comm::check_mpi(MPI_Isend(u + rows_ * s + 1, n, MPI_DOUBLE, neighbours_[1], 1, comm_, &requests[5]), where);
  comm::check_mpi(MPI_Isend(u + s + 1, 1, column_, neighbours_[2], 2, comm_, &requests[6]), where);
  comm::check_mpi(MPI_Isend(u + s + cols_, 1, column_, neighbours_[3], 3, comm_, &requests[7]), where);

  double* out = next_.data();
  for (std::size_t i = 2; i < rows_; ++i) {
    for (std::size_t j = 2; j < cols_; ++j) {
      out[i * s + j] = jacobi(u, i * s + j, s);
    }
  }
  comm::check_mpi(MPI_Waitall(8, requests.data(), MPI_STATUSES_IGNORE), where);
  for (std::size_t j = 1; j <= cols_; ++j) {
    out[s + j] = jacobi(u, s + j, s);
    out[rows_ * s + j] = jacobi(u, rows_ * s + j, s);
  }
  for (std::size_t i = 2; i < rows_; ++i) {
    out[i * s + 1] = jacobi(u, i * s + 1, s);
    out[i * s + cols_] = jacobi(u, i * s + cols_, s);
  }
}

std::vector<double> HeatMpi::block() const {
  std::vector<double> cells(rows_ * cols_);
  for (std::size_t i = 0; i < rows_; ++i) {
    for (std::size_t j = 0; j < cols_; ++j) {
      cells[i * cols_ + j] = current_[(i + 1) * stride_ + j + 1];
    }
  }
  return cells;
}

}  // namespace dash::bench::halo
