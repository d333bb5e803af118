// NPB MG on dash (npb/mg.hpp; docs/benchmarks.md, "npb").
//
// Map: the grid types and NPB's stencils (cube_stencil from coefficients per distance class);
// Level (one grid with its halo); Multigrid: the levels, make_right_hand_side (zran3), the V-cycle
// (residual, smooth, restrict_residual, prolongate), norms; mg_class (the class table) and run_mg
// (the untimed cycle, NPB's timed part, verification).

#include "npb/mg.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/containers/stencil.hpp>

#include "npb/randlc.hpp"

namespace dash::bench::npb {

namespace {

using Grid = Matrix<double, 3>;
using Halo = HaloMatrix<double, 3>;
using Index = std::array<std::ptrdiff_t, 3>;
using Extents = std::array<std::size_t, 3>;

constexpr std::array<MgClass, 4> classes = {{
    {'S', 32, 4, 0.5307707005734e-04},
    {'W', 128, 4, 0.6467329375339e-05},
    {'A', 256, 4, 0.2433365309069e-05},
    {'B', 256, 20, 0.1800564401355e-05},
}};

// The 27-point cube with one coefficient per distance class (centre, 6 faces, 12 edges,
// 8 corners), leaving out the points of zero weight.
Stencil<3> cube_stencil(const std::array<double, 4>& by_distance) {
  std::vector<StencilPoint<3>> points;
  const auto cube = Stencil<3>::box(1, 0, 0);
  for (const auto& point : cube.points()) {
    const auto distance = static_cast<std::size_t>(std::abs(point.offset[0]) + std::abs(point.offset[1]) +
                                                   std::abs(point.offset[2]));
    if (by_distance[distance] != 0) {
      points.push_back({point.offset, by_distance[distance]});
    }
  }
  return Stencil<3>(std::move(points));
}

std::size_t linear(const Extents& extents, std::size_t i, std::size_t j, std::size_t k) {
  return (i * extents[1] + j) * extents[2] + k;
}

struct Level {
  std::unique_ptr<Grid> u;
  std::unique_ptr<Grid> r;
  std::unique_ptr<Halo> u_halo;  // stencil A: the residual reads u
  std::unique_ptr<Halo> r_halo;  // stencil S: the smoother reads r
  // All 26 neighbours: prolongation reads the coarser u, restriction the finer r (A and S skip
  // some regions when blocks are one cell wide).
  std::unique_ptr<Halo> u_cube;
  std::unique_ptr<Halo> r_cube;
  Extents extents{};
  std::size_t cells = 0;
};

class Multigrid {
public:
  Multigrid(const MgClass& klass, Team& team, const StencilOptions& options)
      : team_(team), n_(klass.n), options_(options) {
    const std::size_t units = static_cast<std::size_t>(team.size());
    const DistributionSpec<3> blocked(BLOCKED, BLOCKED, BLOCKED);
    const TeamSpec<3> grid(SizeSpec<3>(), blocked, units);
    const auto residual = cube_stencil({-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0});
    const auto smoother = klass.name == 'S' || klass.name == 'W' || klass.name == 'A'
                              ? cube_stencil({-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0})
                              : cube_stencil({-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0});
    const auto cube = Stencil<3>::box(1, 0, 0);
    top_ = static_cast<std::size_t>(std::countr_zero(n_));
    levels_.resize(top_ + 1);
    for (std::size_t k = 1; k <= top_; ++k) {
      const std::size_t m = std::size_t{1} << k;
      Level& level = levels_[k];
      level.u = std::make_unique<Grid>(SizeSpec<3>(m, m, m), blocked, team, grid);
      level.r = std::make_unique<Grid>(SizeSpec<3>(m, m, m), blocked, team, grid);
      level.u_halo = std::make_unique<Halo>(*level.u, residual, HaloBoundary::periodic);
      level.r_halo = std::make_unique<Halo>(*level.r, smoother, HaloBoundary::periodic);
      if (k < top_) {
        level.u_cube = std::make_unique<Halo>(*level.u, cube, HaloBoundary::periodic);
      }
      if (k >= 2) {
        level.r_cube = std::make_unique<Halo>(*level.r, cube, HaloBoundary::periodic);
      }
      level.extents = level.u_halo->local_extents();
      level.cells = level.extents[0] * level.extents[1] * level.extents[2];
    }
    v_ = std::make_unique<Grid>(SizeSpec<3>(n_, n_, n_), blocked, team, grid);
  }

  // v: +1 at the 10 largest and -1 at the 10 smallest values of NPB's random field (zran3).
  void make_right_hand_side() {
    const Level& top = levels_[top_];
    const Index origin = top.u_halo->local_origin();
    std::vector<double> field(top.cells);
    for (std::size_t i = 0; i < top.extents[0]; ++i) {
      for (std::size_t j = 0; j < top.extents[1]; ++j) {
        // NPB's x (fastest) is our last dimension, its z our first.
        const auto gz = static_cast<std::uint64_t>(origin[0]) + i;
        const auto gy = static_cast<std::uint64_t>(origin[1]) + j;
        const auto gx = static_cast<std::uint64_t>(origin[2]);
        std::uint64_t state = randlc_jump(randlc_seed, gx + n_ * (gy + n_ * gz));
        for (std::size_t k = 0; k < top.extents[2]; ++k) {
          field[linear(top.extents, i, j, k)] = randlc(state);
        }
      }
    }
    // The 10 largest and 10 smallest of each unit, then of all.
    struct Candidate {
      double value;
      std::uint64_t at;  // global linear index, as a tie-break that all units agree on
    };
    constexpr std::size_t picks = 10;
    std::vector<Candidate> local;
    for (std::size_t i = 0; i < top.extents[0]; ++i) {
      for (std::size_t j = 0; j < top.extents[1]; ++j) {
        for (std::size_t k = 0; k < top.extents[2]; ++k) {
          const auto g = static_cast<std::uint64_t>(
              ((static_cast<std::size_t>(origin[0]) + i) * n_ + static_cast<std::size_t>(origin[1]) + j) * n_ +
              static_cast<std::size_t>(origin[2]) + k);
          local.push_back({field[linear(top.extents, i, j, k)], g});
        }
      }
    }
    const auto larger = [](const Candidate& a, const Candidate& b) {
      return a.value > b.value || (a.value == b.value && a.at < b.at);
    };
    const auto smaller = [](const Candidate& a, const Candidate& b) {
      return a.value < b.value || (a.value == b.value && a.at < b.at);
    };
    const auto best = [&](std::vector<Candidate> from, auto order) {
      const std::size_t count = std::min(picks, from.size());
      std::partial_sort(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(count), from.end(), order);
      from.resize(picks, Candidate{order(Candidate{0, 0}, Candidate{1, 0}) ? 2.0 : -1.0, UINT64_MAX});
      return from;
    };
    const auto top_local = best(local, larger);
    const auto bottom_local = best(local, smaller);
    std::vector<Candidate> top_all(picks * static_cast<std::size_t>(team_.size()));
    std::vector<Candidate> bottom_all(top_all.size());
    comm::allgather(top_local, top_all, team_.group());
    comm::allgather(bottom_local, bottom_all, team_.group());
    double* v = v_->lbegin();
    std::fill(v, v + top.cells, 0.0);
    const auto place = [&](const std::vector<Candidate>& chosen, double value) {
      for (std::size_t c = 0; c < picks; ++c) {
        const std::uint64_t g = chosen[c].at;
        const Index global{static_cast<std::ptrdiff_t>(g / (n_ * n_)), static_cast<std::ptrdiff_t>(g / n_ % n_),
                           static_cast<std::ptrdiff_t>(g % n_)};
        bool mine = true;
        std::array<std::size_t, 3> at{};
        for (std::size_t d = 0; d < 3; ++d) {
          const std::ptrdiff_t l = global[d] - origin[d];
          mine = mine && l >= 0 && l < static_cast<std::ptrdiff_t>(top.extents[d]);
          at[d] = static_cast<std::size_t>(l);
        }
        if (mine) {
          v[linear(top.extents, at[0], at[1], at[2])] = value;
        }
      }
    };
    place(best(top_all, larger), 1.0);
    place(best(bottom_all, smaller), -1.0);
  }

  void zero_top() { zero(levels_[top_]); }

  // r_top = v - A u_top.
  void top_residual() { residual(top_, v_->lbegin()); }

  // One V-cycle (NPB's mg3P).
  void v_cycle() {
    for (std::size_t k = top_; k >= 2; --k) {
      restrict_residual(k);
    }
    zero(levels_[1]);
    smooth(1);
    for (std::size_t k = 2; k < top_; ++k) {
      zero(levels_[k]);
      prolongate(k);
      residual(k, levels_[k].r->lbegin());
      smooth(k);
    }
    prolongate(top_);
    top_residual();
    smooth(top_);
  }

  // sqrt(sum r^2 / n^3) and max |r| over the top level's residual.
  std::pair<double, double> norms() const {
    const Level& top = levels_[top_];
    const double* r = top.r->lbegin();
    double sum = 0;
    double largest = 0;
    for (std::size_t c = 0; c < top.cells; ++c) {
      sum += r[c] * r[c];
      largest = std::max(largest, std::abs(r[c]));
    }
    comm::allreduce(std::span<const double>(&sum, 1), std::span<double>(&sum, 1), plus{}, team_.group());
    comm::allreduce(std::span<const double>(&largest, 1), std::span<double>(&largest, 1), max{}, team_.group());
    return {std::sqrt(sum / static_cast<double>(n_ * n_ * n_)), largest};
  }

private:
  static void zero(Level& level) { std::fill(level.u->lbegin(), level.u->lbegin() + level.cells, 0.0); }

  // r_k = v - A u_k, v being the top level's right-hand side or r_k itself.
  void residual(std::size_t k, const double* v) {
    Level& level = levels_[k];
    apply_stencil(*level.u_halo, *level.r, [v](double sum, std::size_t i) { return v[i] - sum; }, options_);
  }

  // u_k += S r_k.
  void smooth(std::size_t k) {
    Level& level = levels_[k];
    const double* u = level.u->lbegin();
    apply_stencil(*level.r_halo, *level.u, [u](double sum, std::size_t i) { return u[i] + sum; }, options_);
  }

  // r_{k-1} = P r_k (rprj3): coarse cell c takes the fine cells around 2c + 1, weighted 1/2, 1/4,
  // 1/8, 1/16 by distance; the last coarse cell of a block reads the halo above the fine block.
  void restrict_residual(std::size_t k) {
    Level& fine = levels_[k];
    Level& coarse = levels_[k - 1];
    fine.r_cube->update();
    const Extents& fe = fine.extents;
    const Extents& ce = coarse.extents;
    const double* r = fine.r->lbegin();
    double* s = coarse.r->lbegin();
    std::array<std::array<std::ptrdiff_t, 27>, 1> offsets{};
    std::array<std::size_t, 27> distance{};
    std::size_t p = 0;
    for (std::ptrdiff_t a = -1; a <= 1; ++a) {
      for (std::ptrdiff_t b = -1; b <= 1; ++b) {
        for (std::ptrdiff_t c = -1; c <= 1; ++c, ++p) {
          offsets[0][p] = (a * static_cast<std::ptrdiff_t>(fe[1]) + b) * static_cast<std::ptrdiff_t>(fe[2]) + c;
          distance[p] = static_cast<std::size_t>(std::abs(a) + std::abs(b) + std::abs(c));
        }
      }
    }
    for (std::size_t i = 0; i < ce[0]; ++i) {
      for (std::size_t j = 0; j < ce[1]; ++j) {
        for (std::size_t l = 0; l < ce[2]; ++l) {
          const std::size_t fi = 2 * i + 1;
          const std::size_t fj = 2 * j + 1;
          const std::size_t fl = 2 * l + 1;
          std::array<double, 4> sums{};
          if (fi + 1 < fe[0] && fj + 1 < fe[1] && fl + 1 < fe[2]) {
            const double* centre = r + linear(fe, fi, fj, fl);
            for (std::size_t q = 0; q < 27; ++q) {
              sums[distance[q]] += centre[offsets[0][q]];
            }
          } else {
            std::size_t q = 0;
            for (std::ptrdiff_t a = -1; a <= 1; ++a) {
              for (std::ptrdiff_t b = -1; b <= 1; ++b) {
                for (std::ptrdiff_t c = -1; c <= 1; ++c, ++q) {
                  sums[distance[q]] += fine.r_cube->value_unchecked(
                      {static_cast<std::ptrdiff_t>(fi) + a, static_cast<std::ptrdiff_t>(fj) + b,
                       static_cast<std::ptrdiff_t>(fl) + c});
                }
              }
            }
          }
          s[linear(ce, i, j, l)] = 0.5 * sums[0] + 0.25 * sums[1] + 0.125 * sums[2] + 0.0625 * sums[3];
        }
      }
    }
  }

  // u_k += Q u_{k-1} (interp): fine cell 2c + 1 takes coarse cell c, fine cell 2c + 2 the mean of
  // c and c + 1, per dimension (trilinear). The coarse block and the halo layer below it are copied
  // into one padded array first, so that the loop over the fine cells reads without branches.
  void prolongate(std::size_t k) {
    Level& fine = levels_[k];
    Level& coarse = levels_[k - 1];
    coarse.u_cube->update();
    const Extents& ce = coarse.extents;
    const Extents padded{ce[0] + 1, ce[1] + 1, ce[2] + 1};
    padded_.resize(padded[0] * padded[1] * padded[2]);
    const double* z = coarse.u->lbegin();
    for (std::size_t i = 0; i < padded[0]; ++i) {
      for (std::size_t j = 0; j < padded[1]; ++j) {
        for (std::size_t l = 0; l < padded[2]; ++l) {
          padded_[linear(padded, i, j, l)] =
              i > 0 && j > 0 && l > 0
                  ? z[linear(ce, i - 1, j - 1, l - 1)]
                  : coarse.u_cube->value_unchecked({static_cast<std::ptrdiff_t>(i) - 1, static_cast<std::ptrdiff_t>(j) - 1,
                                                    static_cast<std::ptrdiff_t>(l) - 1});
        }
      }
    }
    // Per fine index: the padded coarse indices (coarse + 1) it reads and their weights.
    struct Source {
      std::size_t low;
      std::size_t high;
      double weight;  // of each; 1 with low == high for odd fine indices
    };
    const auto sources = [](std::size_t extent) {
      std::vector<Source> list(extent);
      for (std::size_t f = 0; f < extent; ++f) {
        list[f] = f % 2 == 1 ? Source{(f - 1) / 2 + 1, (f - 1) / 2 + 1, 1.0} : Source{f / 2, f / 2 + 1, 0.5};
      }
      return list;
    };
    const Extents& fe = fine.extents;
    const auto s0 = sources(fe[0]);
    const auto s1 = sources(fe[1]);
    const auto s2 = sources(fe[2]);
    double* u = fine.u->lbegin();
    for (std::size_t i = 0; i < fe[0]; ++i) {
      for (std::size_t j = 0; j < fe[1]; ++j) {
        double* row = u + linear(fe, i, j, 0);
        // The coarse rows (padded) this fine row reads: one or two per dimension.
        std::array<const double*, 4> planes{};
        std::size_t count = 0;
        for (const std::size_t a : {s0[i].low, s0[i].high}) {
          for (const std::size_t b : {s1[j].low, s1[j].high}) {
            const double* plane = padded_.data() + (a * padded[1] + b) * padded[2];
            if (std::find(planes.begin(), planes.begin() + static_cast<std::ptrdiff_t>(count), plane) ==
                planes.begin() + static_cast<std::ptrdiff_t>(count)) {
              planes[count++] = plane;
            }
          }
        }
        const double w01 = s0[i].weight * s1[j].weight;
        for (std::size_t l = 0; l < fe[2]; ++l) {
          const std::size_t c0 = s2[l].low;
          const std::size_t c1 = s2[l].high;
          double sum = 0;
          for (std::size_t q = 0; q < count; ++q) {
            sum += planes[q][c0] + (c0 != c1 ? planes[q][c1] : 0.0);
          }
          row[l] += w01 * s2[l].weight * sum;
        }
      }
    }
  }

  Team& team_;
  std::size_t n_;
  StencilOptions options_;
  std::size_t top_ = 0;
  std::vector<Level> levels_;  // index k = level k; 0 unused
  std::unique_ptr<Grid> v_;
  std::vector<double> padded_;
};

}  // namespace

const MgClass& mg_class(char name) {
  for (const MgClass& klass : classes) {
    if (klass.name == name) {
      return klass;
    }
  }
  throw invalid_argument("dash::bench::npb::mg_class", "name", std::string(1, name), "'S', 'W', 'A' or 'B'");
}

MgResult run_mg(char klass_name, Team& team, const StencilOptions& options) {
  const MgClass& klass = mg_class(klass_name);
  const auto units = static_cast<std::size_t>(team.size());
  if (!std::has_single_bit(units) || units > 8) {
    throw invalid_argument("dash::bench::npb::run_mg", "team.size()", units,
                           "a power of two up to 8 (the coarsest grid, 2 x 2 x 2, needs a cell per unit)");
  }
  Multigrid multigrid(klass, team, options);
  multigrid.make_right_hand_side();
  // One untimed V-cycle first, as NPB does, then from u = 0 again.
  multigrid.zero_top();
  multigrid.top_residual();
  multigrid.v_cycle();
  multigrid.top_residual();
  multigrid.zero_top();

  team.barrier();
  const double start = MPI_Wtime();
  multigrid.top_residual();
  for (int it = 0; it < klass.iterations; ++it) {
    multigrid.v_cycle();
    multigrid.top_residual();
  }
  double seconds = MPI_Wtime() - start;
  comm::allreduce(std::span<const double>(&seconds, 1), std::span<double>(&seconds, 1), max{}, team.group());

  MgResult result;
  result.klass = klass.name;
  result.n = klass.n;
  result.units = units;
  std::tie(result.rnm2, result.rnmu) = multigrid.norms();
  result.verified = std::abs(result.rnm2 - klass.verify_value) <= 1e-8 * klass.verify_value;
  result.seconds = seconds;
  const auto cells = static_cast<double>(klass.n * klass.n * klass.n);
  result.mops = seconds > 0 ? 58.0 * klass.iterations * cells * 1e-6 / seconds : 0;
  return result;
}

}  // namespace dash::bench::npb
