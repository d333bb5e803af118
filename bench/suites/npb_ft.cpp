// Case npb/ft: NPB FT (npb/ft.hpp) on dash, its 3-D FFTs transforming each tile as its pieces of
// the transpose arrive (dash::fft, FftOptions::partial), against the same with every transform
// waiting for its whole exchange first. Both plan with FftPlanning::measure (FFTW_MEASURE): with
// FFTW_ESTIMATE, class A's transforms take 4x as long at one unit. The size is the class's nx; FT
// times NPB's part (set-up, forward FFT, iterations), which gives NPB's Mflop/s and the time to
// compare with NPB's own (extra metrics), while the runner's times cover a whole run_ft call
// (matrices, the untimed warm-up, the timed part; FFTW measures in the process's first call of a
// class only, the runner's warm-up).

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <dash/algorithms/fft.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/team.hpp>

#include "npb/ft.hpp"
#include "runner/registry.hpp"

namespace dash::bench::npb_suite {

namespace {

constexpr std::array<char, 4> ft_classes{'S', 'W', 'A', 'B'};

const npb::FtClass& class_with_nx(std::size_t nx) {
  for (const char name : ft_classes) {
    if (npb::ft_class(name).nx == nx) {
      return npb::ft_class(name);
    }
  }
  throw invalid_argument("dash-bench npb/ft", "size", nx, "the nx of NPB FT class S (64), W (128), A (256) or B (512)");
}

class FtWorkload final : public Workload {
public:
  explicit FtWorkload(const npb::FtClass& klass) : klass_(klass) {}

  void run_impl() override { run(true, impl_); }
  void run_baseline() override { run(false, baseline_); }
  // Every run sets up its field afresh; only the result has to be forgotten.
  void reset() override { last_verified_ = false; }
  bool verify() const override { return last_verified_; }

  // FT's Mflop/s, the seconds of its timed part (slowest unit) and the largest relative checksum error.
  std::vector<double> extra_metrics(Side side) override {
    const npb::FtResult& result = side == Side::impl ? impl_ : baseline_;
    return {result.mops, result.seconds, result.max_error};
  }

private:
  void run(bool partial, npb::FtResult& result) {
    FftOptions options;
    options.partial = partial;
    options.planning = FftPlanning::measure;
    result = npb::run_ft(klass_.name, Team::All(), options);
    last_verified_ = result.verified;
  }

  const npb::FtClass& klass_;
  npb::FtResult impl_;
  npb::FtResult baseline_;
  bool last_verified_ = false;
};

// Classes S and W in the quick sweep; A and B (512 x 256 x 256, 20 iterations) as well in the full one.
std::vector<std::size_t> class_nx(Sweep sweep) {
  std::vector<std::size_t> sizes;
  for (const char name : ft_classes) {
    if (sweep == Sweep::full || (name != 'A' && name != 'B')) {
      sizes.push_back(npb::ft_class(name).nx);
    }
  }
  return sizes;
}

// dash::fft's slabs need a unit count that divides nz and ny, which powers of two up to 32 do for
// every class here (W's nz = 32 is the smallest), and the workload runs on Team::All(): in jobs of
// other sizes the case has no sweep point.
std::vector<int> dividing_job(int job_size) {
  if (job_size <= 32 && (job_size & (job_size - 1)) == 0) {
    return {job_size};
  }
  return {};
}

const CaseRegistration ft_case{Case{
    .suite = "npb",
    .name = "ft",
    .impl = "NPB FT with dash::fft transforming each tile as it arrives (partial), FFTW_MEASURE plans",
    .baseline = "the same with FftOptions::partial = false",
    .size_unit = "nx (the NPB FT class: 64 S, 128 W, 256 A, 512 B)",
    .sizes = class_nx,
    .active_rank_counts = dividing_job,
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<FtWorkload>(class_with_nx(problem.size));
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"mops", ""}, ExtraMetric{"ft_seconds", "s"}, ExtraMetric{"checksum_error", ""}},
    .only_own_sizes = true,
}};

}  // namespace

}  // namespace dash::bench::npb_suite
