// Case npb/mg: NPB MG (npb/mg.hpp) on dash, its residuals and smoothing steps overlapping each
// halo update (dash::apply_stencil, partial), against the same with every stencil waiting for its
// whole halo first. The size is the class's grid edge; MG times its own V-cycles, which give NPB's
// Mop/s and the time to compare with NPB's own (extra metrics), while the runner's times cover a
// whole run_mg call (grids, right-hand side, warm-up cycle, timed cycles). Class B (256^3, 20
// cycles) has class A's grid and is run by hand: dash-bench cannot tell them apart by size.

#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/stencil.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/team.hpp>

#include "npb/mg.hpp"
#include "runner/registry.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 3> mg_classes{'S', 'W', 'A'};

const npb::MgClass& class_with_edge(std::size_t n) {
  for (const char name : mg_classes) {
    if (npb::mg_class(name).n == n) {
      return npb::mg_class(name);
    }
  }
  throw invalid_argument("dash-bench npb/mg", "size", n, "the grid edge of NPB MG class S (32), W (128) or A (256)");
}

class MgWorkload final : public Workload {
public:
  explicit MgWorkload(const npb::MgClass& klass) : klass_(klass) {}

  void run_impl() override { run(true, impl_); }
  void run_baseline() override { run(false, baseline_); }
  // Every run builds its grids afresh; only the result has to be forgotten.
  void reset() override { last_verified_ = false; }
  bool verify() const override { return last_verified_; }

  // MG's Mop/s, the seconds of its timed V-cycles (slowest unit) and rnm2's relative error.
  std::vector<double> extra_metrics(Side side) override {
    const npb::MgResult& result = side == Side::impl ? impl_ : baseline_;
    return {result.mops, result.seconds, std::abs(result.rnm2 - klass_.verify_value) / klass_.verify_value};
  }

private:
  void run(bool partial, npb::MgResult& result) {
    StencilOptions options;
    options.partial = partial;
    result = npb::run_mg(klass_.name, Team::All(), options);
    last_verified_ = result.verified;
  }

  const npb::MgClass& klass_;
  npb::MgResult impl_;
  npb::MgResult baseline_;
  bool last_verified_ = false;
};

// Classes S and W in the quick sweep, S, W and A in the full one.
std::vector<std::size_t> class_edges(Sweep sweep) {
  std::vector<std::size_t> edges;
  for (const char name : mg_classes) {
    if (sweep == Sweep::full || name != 'A') {
      edges.push_back(npb::mg_class(name).n);
    }
  }
  return edges;
}

// NPB MG needs a power-of-two unit count up to 8 and the workload runs on Team::All(): in jobs of
// other sizes the case has no sweep point.
std::vector<int> power_of_two_job(int job_size) {
  if (job_size <= 8 && (job_size & (job_size - 1)) == 0) {
    return {job_size};
  }
  return {};
}

const CaseRegistration mg_case{Case{
    .suite = "npb",
    .name = "mg",
    .impl = "NPB MG with dash::apply_stencil overlapping each halo update (partial)",
    .baseline = "the same with StencilOptions::partial = false",
    .size_unit = "grid edge (the NPB MG class: 32 S, 128 W, 256 A)",
    .sizes = class_edges,
    .active_rank_counts = power_of_two_job,
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<MgWorkload>(class_with_edge(problem.size));
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"mg_seconds", "s"}, ExtraMetric{"rnm2_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
