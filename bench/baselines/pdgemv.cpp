#include "baselines/pdgemv.hpp"

#include <algorithm>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/mpi_call.hpp>

// BLACS's C interface and the ScaLAPACK routines used here (libscalapack-openmpi). PDGEMV is
// written in C and takes its character argument without a hidden length; DESCINIT is Fortran,
// every argument by reference.
extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* row, int* col);
void Cblacs_gridexit(int context);
void descinit_(int* descriptor, const int* m, const int* n, const int* mb, const int* nb, const int* first_row,
               const int* first_col, const int* context, const int* leading_dimension, int* info);
void pdgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a, const int* ia,
             const int* ja, const int* desca, const double* x, const int* ix, const int* jx, const int* descx,
             const int* incx, const double* beta, double* y, const int* iy, const int* jy, const int* descy,
             const int* incy);
}

namespace dash::bench::matvec {

namespace {

constexpr const char* where = "dash-bench Pdgemv";

// Elements [first, first + count) of n in blocks of `block`: the part of block `index`.
struct Part {
  std::size_t first;
  std::size_t count;
};
Part block_part(std::size_t n, std::size_t block, std::size_t index) {
  const std::size_t first = std::min(n, index * block);
  return Part{first, std::min(n, first + block) - first};
}

void describe(int* descriptor, int m, int n, int mb, int nb, int context, std::size_t local_rows) {
  const int zero = 0;
  const int leading_dimension = comm::to_int_count(std::max<std::size_t>(1, local_rows), where, "local rows");
  int info = 0;
  descinit_(descriptor, &m, &n, &mb, &nb, &zero, &zero, &context, &leading_dimension, &info);
  if (info != 0) {
    throw InvalidArgument(std::string(where) + ": ScaLAPACK's DESCINIT rejected argument " + std::to_string(-info) +
                          " of an " + std::to_string(m) + " x " + std::to_string(n) + " descriptor");
  }
}

}  // namespace

Pdgemv::Pdgemv(MPI_Comm comm, std::size_t q0, std::size_t q1, std::size_t n)
    : n_(comm::to_int_count(n, where, "n")) {
  int ranks = 0;
  comm::check_mpi(MPI_Comm_size(comm, &ranks), where);
  if (q0 * q1 != static_cast<std::size_t>(ranks)) {
    throw invalid_argument(where, "q0 * q1", q0 * q1, "the communicator's size, " + std::to_string(ranks));
  }
  system_handle_ = Csys2blacs_handle(comm);
  context_ = system_handle_;
  Cblacs_gridinit(&context_, "Row", static_cast<int>(q0), static_cast<int>(q1));
  int rows = 0;
  int cols = 0;
  int row = 0;
  int col = 0;
  Cblacs_gridinfo(context_, &rows, &cols, &row, &col);
  const std::size_t mb = (n + q0 - 1) / q0;
  const std::size_t nb = (n + q1 - 1) / q1;
  const Part row_part = block_part(n, mb, static_cast<std::size_t>(row));
  const Part col_part = block_part(n, nb, static_cast<std::size_t>(col));
  first_row_ = row_part.first;
  local_rows_ = row_part.count;
  first_col_ = col_part.first;
  local_cols_ = col_part.count;
  const int mb_int = comm::to_int_count(mb, where, "row block");
  const int nb_int = comm::to_int_count(nb, where, "column block");
  describe(a_descriptor_, n_, n_, mb_int, nb_int, context_, local_rows_);
  describe(vector_descriptor_, n_, 1, mb_int, 1, context_, local_rows_);
  a_.assign(local_rows_ * local_cols_, 0.0);
  const std::size_t vector_rows = col == 0 ? local_rows_ : 0;
  x_.assign(vector_rows, 0.0);
  y_.assign(vector_rows, 0.0);
}

Pdgemv::~Pdgemv() {
  Cblacs_gridexit(context_);
  Cfree_blacs_system_handle(system_handle_);
}

void Pdgemv::multiply() {
  const int one = 1;
  const double alpha = 1.0;
  const double beta = 0.0;
  pdgemv_("N", &n_, &n_, &alpha, a_.data(), &one, &one, a_descriptor_, x_.data(), &one, &one, vector_descriptor_,
          &one, &beta, y_.data(), &one, &one, vector_descriptor_, &one);
}

}  // namespace dash::bench::matvec
