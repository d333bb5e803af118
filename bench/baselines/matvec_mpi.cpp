#include "baselines/matvec_mpi.hpp"

#include <algorithm>

#include <dash/comm/int_count.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::bench::matvec {

namespace {

constexpr const char* where = "dash-bench MatvecMpi";

}  // namespace

MatvecMpi::MatvecMpi(MPI_Comm comm, std::size_t n) : comm_(comm), n_(n), x_full_(n) {
  int rank = 0;
  int ranks = 0;
  comm::check_mpi(MPI_Comm_rank(comm, &rank), where);
  comm::check_mpi(MPI_Comm_size(comm, &ranks), where);
  const auto p = static_cast<std::size_t>(ranks);
  const std::size_t block = (n + p - 1) / p;
  counts_.resize(p);
  displacements_.resize(p);
  for (std::size_t r = 0; r < p; ++r) {
    const std::size_t first = std::min(n, r * block);
    const std::size_t rows = std::min(n, first + block) - first;
    counts_[r] = comm::to_int_count(rows, where, "rows per process");
    displacements_[r] = comm::to_int_count(first, where, "first row");
  }
  first_row_ = static_cast<std::size_t>(displacements_[static_cast<std::size_t>(rank)]);
  local_rows_ = static_cast<std::size_t>(counts_[static_cast<std::size_t>(rank)]);
  a_.assign(local_rows_ * n, 0.0);
  x_.assign(local_rows_, 0.0);
  y_.assign(local_rows_, 0.0);
}

void MatvecMpi::multiply() {
  const int own = comm::to_int_count(x_.size(), where, "rows of the process");
  comm::check_mpi(MPI_Allgatherv(x_.data(), own, MPI_DOUBLE, x_full_.data(), counts_.data(), displacements_.data(),
                                 MPI_DOUBLE, comm_),
                  "dash-bench MatvecMpi: MPI_Allgatherv");
  const double* x = x_full_.data();
  for (std::size_t i = 0; i < local_rows_; ++i) {
    const double* row = a_.data() + i * n_;
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) {
      sum += row[j] * x[j];
    }
    y_[i] = sum;
  }
}

}  // namespace dash::bench::matvec
