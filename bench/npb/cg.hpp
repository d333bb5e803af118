#pragma once
// NPB CG (Conjugate Gradient, NAS Parallel Benchmarks 3.4) on dash (NPB 3.4, docs/references.md).
//
// The matrix is NPB's makea: na rows, the sum over i of rcond^(i/na) v_i v_i^T for random sparse
// vectors v_i drawn from NPB's randlc stream, plus (rcond - shift) I, duplicates summed in the same
// order as the reference code, so that its verification value holds. Its rows are BLOCKED over the
// team in a dash::CsrMatrix; every unit draws the whole stream (it cannot be jumped: the draws per
// vector vary) and keeps the entries of its rows. The vectors are dash::Arrays on the same rows,
// products are dash::sparse_matvec, dot products a local sum and an allreduce. Each of the niter
// timed outer iterations (after one untimed warm-up) runs 25 CG iterations on A z = x and sets
// zeta = shift + 1 / (x . z), x = z / |z|. Verification: |zeta - reference| / reference <= 1e-10.
// Unlike NPB's MPI code, any number of units works.

#include <cstddef>

#include <dash/algorithms/sparse_matvec.hpp>
#include <dash/core/team.hpp>

namespace dash::bench::npb {

inline constexpr int cg_iterations_per_solve = 25;
inline constexpr double cg_rcond = 0.1;
inline constexpr double cg_tolerance = 1e-10;

// A problem class: NPB's sizes and verification value.
struct CgClass {
  char name;
  std::size_t na;  // rows and columns
  int nonzer;      // nonzeros drawn per random vector
  int niter;       // timed outer iterations
  double shift;
  double zeta_reference;
};

// Class 'S', 'W', 'A' or 'B'; throws dash::InvalidArgument for any other letter.
const CgClass& cg_class(char name);

struct CgResult {
  char klass = 0;
  std::size_t na = 0;
  std::size_t units = 0;
  // Entries of the matrix, over all units.
  std::size_t nonzeros = 0;
  // After the last outer iteration: zeta, |x - A z| of its last solve, and zeta's relative error.
  double zeta = 0;
  double rnorm = 0;
  double error = 0;
  // error <= cg_tolerance (false when zeta is NaN).
  bool verified = false;
  // The timed outer iterations, on the slowest unit.
  double seconds = 0;
  // NPB's Mop/s: 2e-6 niter na (3 + nonzer (nonzer + 1) + 25 (5 + nonzer (nonzer + 1)) + 3) / seconds.
  double mops = 0;
};

// Collective over `team`: runs CG of class `klass` ('S', 'W', 'A' or 'B'), the products with
// `options`. Memory per unit: its rows of the matrix (12 bytes per entry), five vectors' parts and
// the gathered x of each product; while the matrix is made, its summands as drawn, a few times more
// (class B on one unit peaks at about 1 GB). Throws dash::InvalidArgument for another class.
CgResult run_cg(char klass, Team& team, const SparseMatvecOptions& options = {});

}  // namespace dash::bench::npb
