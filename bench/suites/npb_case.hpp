#pragma once
// What the cases of the npb suite share: a workload that runs one whole NPB kernel call per run
// (the implementation with partial aggregation, the baseline without), verified by the kernel's
// own check, and the mapping between NPB classes and the runner's sizes.

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>

#include "runner/registry.hpp"

namespace dash::bench::npb_suite {

// Result needs a `bool verified`; `metrics` turns a result into the case's extra metrics.
template <class Result>
class KernelWorkload final : public Workload {
public:
  using Run = std::function<Result(bool partial)>;
  using Metrics = std::function<std::vector<double>(const Result&)>;

  KernelWorkload(Run run, Metrics metrics) : run_(std::move(run)), metrics_(std::move(metrics)) {}

  void run_impl() override { verified_ = (impl_ = run_(true)).verified; }
  void run_baseline() override { verified_ = (baseline_ = run_(false)).verified; }
  // Every run sets its data up afresh; only the last result has to be forgotten.
  void reset() override { verified_ = false; }
  bool verify() const override { return verified_; }
  std::vector<double> extra_metrics(Side side) override { return metrics_(side == Side::impl ? impl_ : baseline_); }

private:
  Run run_;
  Metrics metrics_;
  Result impl_{};
  Result baseline_{};
  bool verified_ = false;
};

// The sizes of a case whose classes are `classes` (S, W, ... in order), size_of(name) giving each
// one's size: S and W in the quick sweep, all of them in the full one.
template <std::size_t K, class SizeOf>
std::vector<std::size_t> class_sizes(const std::array<char, K>& classes, Sweep sweep, SizeOf size_of) {
  std::vector<std::size_t> sizes;
  for (const char name : classes) {
    if (sweep == Sweep::full || name == 'S' || name == 'W') {
      sizes.push_back(size_of(name));
    }
  }
  return sizes;
}

// The class of `classes` whose size is `size`; dash::InvalidArgument naming the case and the
// classes' sizes otherwise.
template <std::size_t K, class SizeOf>
char class_of_size(std::string_view case_id, const std::array<char, K>& classes, std::size_t size, SizeOf size_of) {
  std::string known;
  for (const char name : classes) {
    if (size_of(name) == size) {
      return name;
    }
    known += (known.empty() ? "" : ", ") + std::string(1, name) + " (" + std::to_string(size_of(name)) + ")";
  }
  throw invalid_argument("dash-bench " + std::string(case_id), "size", size, "the size of NPB class " + known);
}

// Jobs of a power-of-two size up to `largest` (the workloads run on Team::All()).
inline std::vector<int> power_of_two_job(int job_size, int largest) {
  if (job_size <= largest && (job_size & (job_size - 1)) == 0) {
    return {job_size};
  }
  return {};
}

}  // namespace dash::bench::npb_suite
