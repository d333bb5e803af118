// Suite `matvec`: y = A x for a dense n x n dash::Matrix with dash::matvec, against the same
// product in plain MPI (baselines/matvec_mpi.cpp) and with ScaLAPACK's PDGEMV (baselines/pdgemv.cpp).
//
// Cases, over the whole job (P ranks):
//   rows_vs_allgather  dash::matvec, A by rows (BLOCKED, NONE)  vs  MPI_Allgatherv of x + local loops
//   rows_vs_pdgemv     dash::matvec, A by rows                  vs  PDGEMV on a P x 1 grid
//   grid_vs_pdgemv     dash::matvec, A in BLOCKED x BLOCKED blocks on the balanced q0 x q1 grid
//                      vs  PDGEMV on the same grid
//   columns_vs_pdgemv  dash::matvec, A in blocks on a 1 x P grid (the grid path's pipeline of
//                      reduce-scatters at every P, also P = 2)  vs  PDGEMV on the same grid
//   columns_pipelined_vs_not
//                      the same dash::matvec  vs  itself with MatvecOptions::partial = false (all of
//                      the product first, then one blocking reduce-scatter)
// Verification: A(i, j) and x(j) are small dyadic rationals, so every product and every partial
// sum is exact in double: each side's y must equal a reference computed at set-up bit for bit,
// whatever order it sums in.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/matvec.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/team.hpp>

#include "baselines/matvec_mpi.hpp"
#include "baselines/pdgemv.hpp"
#include "runner/registry.hpp"

namespace dash::bench::matvec {

namespace {

// Multiples of 1/8 in [-1, 1] and of 1/2 in [-2.5, 2.5]: products are multiples of 1/16 below
// 2.5 in magnitude, so sums of up to 2^48 of them are exact. The (i j) / 64 term keeps y from
// repeating with a period in i.
double a_at(std::size_t i, std::size_t j) {
  return (static_cast<double>((i * 7 + j * 13 + i * j / 64) % 17) - 8.0) * 0.125;
}
double x_at(std::size_t j) { return (static_cast<double>(j % 11) - 5.0) * 0.5; }

// Not a multiple of 1/16, so never a correct element of y.
constexpr double garbage = 0.3;

// y[first, first + count) of the exact product.
std::vector<double> reference_rows(std::size_t n, std::size_t first, std::size_t count) {
  std::vector<double> y(count);
  for (std::size_t i = 0; i < count; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      sum += a_at(first + i, j) * x_at(j);
    }
    y[i] = sum;
  }
  return y;
}

enum class Layout { rows, grid, columns };
enum class Baseline { allgather, pdgemv, unpipelined };

class MatvecWorkload final : public Workload {
public:
  MatvecWorkload(const Problem& problem, Layout layout, Baseline baseline) : comm_(problem.team), n_(problem.size) {
    const auto ranks = static_cast<std::size_t>(problem.active_ranks);
    const SizeSpec<2> sizes(n_, n_);
    const DistributionSpec<2> distribution = layout == Layout::rows ? DistributionSpec<2>(BLOCKED, NONE)
                                                                    : DistributionSpec<2>(BLOCKED, BLOCKED);
    const TeamSpec<2> grid = layout == Layout::rows      ? TeamSpec<2>(ranks, 1)
                             : layout == Layout::columns ? TeamSpec<2>(1, ranks)
                                                         : TeamSpec<2>(sizes, distribution, ranks);
    a_ = std::make_unique<Matrix<double, 2>>(sizes, distribution, Team::All(), grid);
    x_ = std::make_unique<Array<double>>(n_);
    y_ = std::make_unique<Array<double>>(n_);
    load_dash();
    if (baseline == Baseline::allgather) {
      allgather_ = std::make_unique<MatvecMpi>(comm_, n_);
      load_allgather();
    } else if (baseline == Baseline::unpipelined) {
      unpipelined_y_ = std::make_unique<Array<double>>(n_);
    } else {
      pdgemv_ = std::make_unique<Pdgemv>(comm_, grid.extent(0), grid.extent(1), n_);
      load_pdgemv();
    }
    const std::size_t me = static_cast<std::size_t>(Team::All().myid());
    const std::size_t dash_first = y_->lsize() > 0 ? y_->pattern().global_index(me, 0) : 0;
    dash_reference_ = reference_rows(n_, dash_first, y_->lsize());
    const std::size_t baseline_first = allgather_ ? allgather_->first_row()
                                       : pdgemv_  ? pdgemv_->first_row()
                                                  : dash_first;
    const std::size_t baseline_rows = baseline_y().size();
    baseline_reference_ = baseline_first == dash_first && baseline_rows == dash_reference_.size()
                              ? dash_reference_
                              : reference_rows(n_, baseline_first, baseline_rows);
  }

  void run_impl() override {
    dash::matvec(*a_, *x_, *y_);
    last_ = Side::impl;
  }

  void run_baseline() override {
    if (allgather_) {
      allgather_->multiply();
    } else if (pdgemv_) {
      pdgemv_->multiply();
    } else {
      MatvecOptions unpipelined;
      unpipelined.partial = false;
      dash::matvec(*a_, *x_, *unpipelined_y_, unpipelined);
    }
    last_ = Side::baseline;
  }

  // The inputs are never changed; only the outputs are spoilt.
  void reset() override {
    std::fill(y_->lbegin(), y_->lbegin() + y_->lsize(), garbage);
    const std::span<double> y = allgather_ ? allgather_->y()
                                : pdgemv_  ? pdgemv_->y()
                                           : std::span<double>(unpipelined_y_->lbegin(), unpipelined_y_->lsize());
    std::fill(y.begin(), y.end(), garbage);
  }

  bool verify() const override {
    bool ok = false;
    if (last_ == Side::impl) {
      ok = std::equal(y_->lbegin(), y_->lbegin() + y_->lsize(), dash_reference_.begin(), dash_reference_.end());
    } else {
      const std::span<const double> y = baseline_y();
      ok = std::equal(y.begin(), y.end(), baseline_reference_.begin(), baseline_reference_.end());
    }
    int all = ok ? 1 : 0;
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm_), "dash-bench matvec: MPI_Allreduce");
    return all != 0;
  }

private:
  std::span<const double> baseline_y() const {
    if (unpipelined_y_) {
      return {unpipelined_y_->lbegin(), unpipelined_y_->lsize()};
    }
    return allgather_ ? std::as_const(*allgather_).y() : std::as_const(*pdgemv_).y();
  }

  void load_dash() {
    const std::size_t rows = a_->local.extent(0);
    const std::size_t cols = a_->local.extent(1);
    const auto origin = a_->local.global_coords({0, 0});  // one block per unit: its first element
    double* a = a_->lbegin();
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        a[i * cols + j] = a_at(origin[0] + i, origin[1] + j);
      }
    }
    if (x_->lsize() > 0) {
      const std::size_t first = x_->pattern().global_index(static_cast<std::size_t>(Team::All().myid()), 0);
      for (std::size_t k = 0; k < x_->lsize(); ++k) {
        x_->lbegin()[k] = x_at(first + k);
      }
    }
  }

  void load_allgather() {
    const std::size_t first = allgather_->first_row();
    const std::span<double> a = allgather_->a();
    for (std::size_t i = 0; i < allgather_->local_rows(); ++i) {
      for (std::size_t j = 0; j < n_; ++j) {
        a[i * n_ + j] = a_at(first + i, j);
      }
      allgather_->x()[i] = x_at(first + i);
    }
  }

  void load_pdgemv() {
    const std::size_t rows = pdgemv_->local_rows();
    const std::span<double> a = pdgemv_->a();
    for (std::size_t j = 0; j < pdgemv_->local_cols(); ++j) {
      for (std::size_t i = 0; i < rows; ++i) {
        a[i + j * rows] = a_at(pdgemv_->first_row() + i, pdgemv_->first_col() + j);
      }
    }
    const std::span<double> x = pdgemv_->x();
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = x_at(pdgemv_->first_row() + i);
    }
  }

  MPI_Comm comm_;
  std::size_t n_;
  std::unique_ptr<Matrix<double, 2>> a_;
  std::unique_ptr<Array<double>> x_;
  std::unique_ptr<Array<double>> y_;
  std::unique_ptr<MatvecMpi> allgather_;
  std::unique_ptr<Pdgemv> pdgemv_;
  std::unique_ptr<Array<double>> unpipelined_y_;
  std::vector<double> dash_reference_;
  std::vector<double> baseline_reference_;
  Side last_ = Side::impl;
};

std::vector<std::size_t> matrix_sizes(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {2048, 4096};
  }
  // 32768^2 doubles are 8 GiB per copy of A: with dash's copy and the baseline's, too much for 24 GiB.
  return {4096, 8192, 16384};
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

void add_case(const char* name, const char* impl, const char* baseline_name, Layout layout, Baseline baseline) {
  const CaseRegistration registration{Case{
      .suite = "matvec",
      .name = name,
      .impl = impl,
      .baseline = baseline_name,
      .size_unit = "n: A is n x n doubles over all ranks, y = A x",
      .sizes = matrix_sizes,
      .active_rank_counts = whole_job,
      .rate = Rate{"GFlop/s",
                   [](std::size_t n, int) { return 2.0 * static_cast<double>(n) * static_cast<double>(n) / 1e9; }},
      .make_workload = [layout, baseline](const Problem& problem) {
        return std::make_unique<MatvecWorkload>(problem, layout, baseline);
      },
      .calls_per_run = nullptr,
  }};
}

[[maybe_unused]] const bool matvec_cases_registered = [] {
  constexpr const char* rows = "dash::matvec, A by rows (BLOCKED, NONE): iallgatherv of x, each block multiplied as "
                               "it arrives";
  add_case("rows_vs_allgather", rows,
           "plain MPI, A by rows: MPI_Allgatherv of x, then a dot product per local row (baselines/matvec_mpi.cpp)",
           Layout::rows, Baseline::allgather);
  add_case("rows_vs_pdgemv", rows,
           "ScaLAPACK PDGEMV on a P x 1 BLACS grid, one block per process, x and y n x 1 (baselines/pdgemv.cpp)",
           Layout::rows, Baseline::pdgemv);
  add_case("grid_vs_pdgemv",
           "dash::matvec, A in BLOCKED x BLOCKED blocks on the balanced q0 x q1 grid: x_j read one-sidedly, local "
           "products, reduce-scatter along grid rows",
           "ScaLAPACK PDGEMV on the same q0 x q1 BLACS grid, one block per process, x and y n x 1 in grid column 0 "
           "(baselines/pdgemv.cpp)",
           Layout::grid, Baseline::pdgemv);
  constexpr const char* columns = "dash::matvec, A in BLOCKED x BLOCKED blocks on a 1 x P grid: local products in "
                                  "stages, each stage's reduce-scatter along the grid row started as its rows are "
                                  "done, each reduced piece written into y as it is final";
  add_case("columns_vs_pdgemv", columns,
           "ScaLAPACK PDGEMV on the same 1 x P BLACS grid, one block per process, x and y n x 1 "
           "(baselines/pdgemv.cpp)",
           Layout::columns, Baseline::pdgemv);
  add_case("columns_pipelined_vs_not", columns,
           "the same with MatvecOptions::partial = false: the whole product, then one blocking reduce-scatter",
           Layout::columns, Baseline::unpipelined);
  return true;
}();

}  // namespace

}  // namespace dash::bench::matvec
