#pragma once
// NPB MG (V-cycle multigrid, NAS Parallel Benchmarks 3.4) on dash (NPB 3.4, docs/references.md):
// the periodic 3-D Poisson problem with the right-hand side +1 at the 10 largest and -1 at the 10
// smallest values of NPB's random field, solved by nit V-cycles.
//
// Every grid level k (2^k cells per dimension, k = 1 .. log2 n) is a dash::Matrix<double, 3>
// BLOCKED over a balanced process grid; its halos are dash::HaloMatrix wrappers. The residual
// r = v - A u and the smoothing step u += S r are dash::apply_stencil with a finish function (A:
// 21 points, S: 19 points, NPB's coefficients); restriction (rprj3) and trilinear prolongation
// (interp) read the finer or coarser grid through its halo. The sums are grouped differently from
// NPB's Fortran, so results agree with NPB's to rounding (verification tolerance 1e-8 relative).
// Like NPB's MPI code it needs a power-of-two number of units (and at most 2^3k of them at level
// k, here 8 for the coarsest level 2^3), so that fine and coarse blocks line up.

#include <cstddef>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/core/team.hpp>

namespace dash::bench::npb {

struct MgClass {
  char name;
  std::size_t n;    // cells per dimension
  int iterations;   // V-cycles
  double verify_value;  // rnm2 after the last iteration
};

// Class 'S', 'W', 'A' or 'B'; throws dash::InvalidArgument for any other letter.
const MgClass& mg_class(char name);

struct MgResult {
  char klass = 0;
  std::size_t n = 0;
  std::size_t units = 0;
  double rnm2 = 0;  // the residual's L2 norm / sqrt(n^3) after the last V-cycle
  double rnmu = 0;  // its largest magnitude
  bool verified = false;  // |rnm2 - reference| / reference <= 1e-8
  double seconds = 0;  // the timed part (first residual, the V-cycles), on the slowest unit
  double mops = 0;     // 58 nit n^3 / seconds / 1e6, as NPB counts
};

// Collective over `team`: runs MG of class `klass`, the residuals and smoothing steps with
// `options` (partial = false: each stencil waits for its whole halo). Throws
// dash::InvalidArgument for another class or a unit count that is not a power of two up to 8 (on
// every unit alike).
MgResult run_mg(char klass, Team& team, const StencilOptions& options = {});

}  // namespace dash::bench::npb
