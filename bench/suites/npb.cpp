// The npb suite: NAS Parallel Benchmark kernels on dash. Case `cg`: NPB CG (npb/cg.hpp) with
// dash::sparse_matvec consuming the blocks of x as they arrive, against the same kernel with the
// products waiting for all of x. The size is the class's row count; CG times its own outer
// iterations, which give NPB's Mop/s and the time to compare with NPB's own (extra metrics), while
// the runner's times cover a whole run_cg call (matrix generation, warm-up, iterations). NPB IS
// stays in the sort suite (sort/npb_is), next to the sorts it measures.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/sparse_matvec.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/team.hpp>

#include "npb/cg.hpp"
#include "runner/registry.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> cg_classes{'S', 'W', 'A', 'B'};

const npb::CgClass& class_with_rows(std::size_t rows) {
  for (const char name : cg_classes) {
    if (npb::cg_class(name).na == rows) {
      return npb::cg_class(name);
    }
  }
  throw invalid_argument("dash-bench npb/cg", "size", rows,
                         "the row count of NPB CG class S (1400), W (7000), A (14000) or B (75000)");
}

class CgWorkload final : public Workload {
public:
  explicit CgWorkload(const npb::CgClass& klass) : klass_(klass) {}

  void run_impl() override { run(true, impl_); }
  void run_baseline() override { run(false, baseline_); }
  // Every run builds its matrix and vectors afresh; only the result has to be forgotten.
  void reset() override { last_verified_ = false; }
  bool verify() const override { return last_verified_; }

  // CG's Mop/s, the seconds of its timed iterations (slowest unit) and zeta's relative error; the
  // same on every unit.
  std::vector<double> extra_metrics(Side side) override {
    const npb::CgResult& result = side == Side::impl ? impl_ : baseline_;
    return {result.mops, result.seconds, result.error};
  }

private:
  void run(bool partial, npb::CgResult& result) {
    SparseMatvecOptions options;
    options.partial = partial;
    result = npb::run_cg(klass_.name, Team::All(), options);
    last_verified_ = result.verified;
  }

  const npb::CgClass& klass_;
  npb::CgResult impl_;
  npb::CgResult baseline_;
  bool last_verified_ = false;
};

// Classes S and W in the quick sweep; A and B (75000 rows, 75 iterations, tens of seconds per
// run) as well in the full one.
std::vector<std::size_t> class_rows(Sweep sweep) {
  std::vector<std::size_t> rows;
  for (const char name : cg_classes) {
    if (sweep == Sweep::full || (name != 'A' && name != 'B')) {
      rows.push_back(npb::cg_class(name).na);
    }
  }
  return rows;
}

const CaseRegistration cg_case{Case{
    .suite = "npb",
    .name = "cg",
    .impl = "NPB CG with dash::sparse_matvec multiplying each block of x as it arrives",
    .baseline = "the same with SparseMatvecOptions::partial = false",
    .size_unit = "rows (the NPB CG class: 1400 S, 7000 W, 14000 A, 75000 B)",
    .sizes = class_rows,
    .active_rank_counts = [](int job_size) { return std::vector<int>{job_size}; },
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<CgWorkload>(class_with_rows(problem.size));
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"cg_seconds", "s"}, ExtraMetric{"zeta_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
