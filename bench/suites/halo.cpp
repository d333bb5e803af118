// Suite `halo`: the 2-D Jacobi heat equation of Kowalewski 2021 §7.5 (Tbl. 7.4), dash::apply_stencil on
// dash::HaloMatrix against the same computation written in plain MPI (baselines/heat_mpi.cpp):
// the single-sender "MPI Funnel" and the many-sender "MPI Multiple" variants.
//
// Each rank holds a b x b block of a (q0 b) x (q1 b) domain on a q0 x q1 grid (MPI_Dims_create),
// fixed boundary: 1 along the top edge, 0 elsewhere. One run is `iterations` steps; times are per
// step. Cases:
//   heat_partial              dash: inner cells while the faces travel, each boundary box as its
//                             faces land (FMPI "Partial"), against the funnel
//   heat_blocking             dash: inner cells, then wait for the whole halo (FMPI "Sync"),
//                             against the funnel
//   heat_partial_vs_multiple  heat_partial against MPI Multiple
// Verification: both sides reproduce the funnel's result, computed once at set-up, bit for bit
// (the Jacobi stencil's points share the coefficient 0.25, so dash computes 0.25 (n + s + w + e)
// as the baselines do).

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/team.hpp>

#include "baselines/heat_mpi.hpp"
#include "runner/registry.hpp"

namespace dash::bench::halo {

namespace {

constexpr int iterations = 10;
// MPI Multiple's threads per rank. Kowalewski 2021 runs one per core (20); at P = 2 on this 2-core machine
// that would be 1, which is just the funnel. 2 is the fewest with several threads inside MPI at
// once, at the price of two threads sharing each rank's core.
constexpr int multiple_threads = 2;

double initial_value(std::ptrdiff_t i, std::ptrdiff_t j) { return 0.01 * static_cast<double>((i * 37 + j * 11) % 101); }
double edge_value(std::ptrdiff_t i, std::ptrdiff_t) { return i < 0 ? 1.0 : 0.0; }

class HeatWorkload final : public Workload {
public:
  // `baseline_threads`: 1 for the funnel, more for MPI Multiple.
  HeatWorkload(const Problem& problem, bool partial, int baseline_threads)
      : comm_(problem.team), block_(problem.size), partial_(partial) {
    int ranks = 0;
    comm::check_mpi(MPI_Comm_size(comm_, &ranks), "dash-bench halo: MPI_Comm_size");
    comm::check_mpi(MPI_Dims_create(ranks, 2, grid_.data()), "dash-bench halo: MPI_Dims_create");
    const auto q0 = static_cast<std::size_t>(grid_[0]);
    const auto q1 = static_cast<std::size_t>(grid_[1]);
    const dash::SizeSpec<2> sizes(q0 * block_, q1 * block_);
    const dash::DistributionSpec<2> blocked(dash::BLOCKED, dash::BLOCKED);
    u_ = std::make_unique<Matrix<double, 2>>(sizes, blocked, Team::All(), TeamSpec<2>(q0, q1));
    v_ = std::make_unique<Matrix<double, 2>>(sizes, blocked, Team::All(), TeamSpec<2>(q0, q1));
    const Stencil<2> jacobi({{{-1, 0}, 0.25}, {{1, 0}, 0.25}, {{0, -1}, 0.25}, {{0, 1}, 0.25}});
    const auto edge = [](const std::array<std::ptrdiff_t, 2>& g) { return edge_value(g[0], g[1]); };
    halo_u_ = std::make_unique<HaloMatrix<double, 2>>(*u_, jacobi, HaloBoundary::fixed, edge);
    halo_v_ = std::make_unique<HaloMatrix<double, 2>>(*v_, jacobi, HaloBoundary::fixed, edge);
    {
      // The reference: the funnel's result, computed once.
      HeatMpi funnel(comm_, grid_, block_, block_, edge_value);
      funnel.load(initial_value);
      funnel.iterate(iterations);
      reference_ = funnel.block();
    }
    mpi_ = std::make_unique<HeatMpi>(comm_, grid_, block_, block_, edge_value, baseline_threads);
  }

  void run_impl() override {
    StencilOptions options;
    options.partial = partial_;
    for (int it = 0; it < iterations; ++it) {
      if (it % 2 == 0) {
        apply_stencil(*halo_u_, *v_, options);
      } else {
        apply_stencil(*halo_v_, *u_, options);
      }
    }
    last_ = Side::impl;
  }

  void run_baseline() override {
    mpi_->iterate(iterations);
    last_ = Side::baseline;
  }

  void prepare(Side side) override {
    if (side == Side::impl) {
      const auto& origin = halo_u_->local_origin();
      for (std::size_t i = 0; i < block_; ++i) {
        for (std::size_t j = 0; j < block_; ++j) {
          u_->lbegin()[i * block_ + j] =
              initial_value(origin[0] + static_cast<std::ptrdiff_t>(i), origin[1] + static_cast<std::ptrdiff_t>(j));
        }
      }
    } else {
      mpi_->load(initial_value);
    }
  }

  void reset() override {
    std::fill(u_->lbegin(), u_->lbegin() + block_ * block_, -1.0);
    std::fill(v_->lbegin(), v_->lbegin() + block_ * block_, -1.0);
    mpi_->load([](std::ptrdiff_t, std::ptrdiff_t) { return -1.0; });
  }

  bool verify() const override {
    bool ok = true;
    if (last_ == Side::baseline) {
      ok = mpi_->block() == reference_;
    } else {
      // An even number of steps ends in u.
      ok = std::equal(reference_.begin(), reference_.end(), u_->lbegin());
    }
    int all = ok ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm_);
    return all != 0;
  }

private:
  static_assert(iterations % 2 == 0, "the dash side alternates u -> v -> u and must end in u");

  MPI_Comm comm_;
  std::size_t block_;
  bool partial_;
  std::array<int, 2> grid_{};
  std::unique_ptr<Matrix<double, 2>> u_;
  std::unique_ptr<Matrix<double, 2>> v_;
  std::unique_ptr<HaloMatrix<double, 2>> halo_u_;
  std::unique_ptr<HaloMatrix<double, 2>> halo_v_;
  std::unique_ptr<HeatMpi> mpi_;
  std::vector<double> reference_;
  Side last_ = Side::impl;
};

std::vector<std::size_t> block_sizes(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {512, 1024};
  }
  // Kowalewski 2021 §7.5: blocks of 2,500 and 5,000 doubles per dimension.
  return {512, 1024, 2500, 5000};
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

constexpr const char* funnel =
    "plain MPI, single sender: Irecv/Isend of the 4 faces (columns as MPI_Type_vector), inner cells, Waitall, "
    "border cells (baselines/heat_mpi.cpp, Kowalewski 2021's MPI Funnel)";

void add_case(const char* name, const char* impl, bool partial, std::string baseline, int baseline_threads) {
  const CaseRegistration registration{Case{
      .suite = "halo",
      .name = name,
      .impl = impl,
      .baseline = std::move(baseline),
      .size_unit = "block edge b per rank (b x b doubles), 2-D Jacobi, per step",
      .sizes = block_sizes,
      .active_rank_counts = whole_job,
      .rate = Rate{"Mcell/s",
                   [](std::size_t b, int ranks) { return static_cast<double>(b * b) * ranks / 1e6; }},
      .make_workload =
          [partial, baseline_threads](const Problem& problem) {
            return std::make_unique<HeatWorkload>(problem, partial, baseline_threads);
          },
      .calls_per_run = [](std::size_t) { return static_cast<std::size_t>(iterations); },
      .needs_thread_multiple = baseline_threads > 1,
  }};
}

[[maybe_unused]] const bool halo_cases_registered = [] {
  constexpr const char* partial =
      "dash::apply_stencil on dash::HaloMatrix: inner cells during the halo update, each boundary box as its faces "
      "land (FMPI Partial)";
  add_case("heat_partial", partial, true, funnel, 1);
  add_case("heat_blocking",
           "dash::apply_stencil with StencilOptions::partial = false: inner cells, then the whole halo (FMPI Sync)",
           false, funnel, 1);
  add_case("heat_partial_vs_multiple", partial, true,
           "plain MPI, many senders: " + std::to_string(multiple_threads) +
               " threads per rank, each with a column stripe: Irecv/Isend of its segments of the faces, its inner "
               "cells, Testall/yield until its own requests are done, its border cells (baselines/heat_mpi.cpp, "
               "Kowalewski 2021's MPI Multiple; needs MPI_THREAD_MULTIPLE)",
           multiple_threads);
  return true;
}();

}  // namespace

}  // namespace dash::bench::halo
