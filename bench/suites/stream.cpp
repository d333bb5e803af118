// The STREAM suite: the memory bandwidth a rank can reach, the physical limit that later
// memory-bound benchmarks are measured against.
//
// McCalpin's rules (as in HPCC): every array is at least 4x the last-level cache, so no kernel
// runs from cache; bandwidth counts 16 bytes per element for copy (one load, one store) and 24
// for triad (two loads, one store) and uses the best time; a run is valid when each array's
// average relative error against the analytically expected values is at most 1e-13.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include <unistd.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/locality.hpp>

#include "runner/cache_size.hpp"
#include "runner/registry.hpp"
#include "suites/stream_kernels.hpp"

namespace dash::bench::stream {

namespace {

constexpr double triad_scalar = 0.42;
constexpr double max_average_relative_error = 1e-13;
// Initial values as in STREAM's reference code (a = 1, b = 2) and a c that makes the triad's
// scalar matter. The kernels only read arrays they do not write, so one application gives the
// expected values of any number of repetitions.
constexpr double initial_a = 1.0;
constexpr double initial_b = 2.0;
constexpr double initial_c = 0.5;
constexpr double garbage = std::numeric_limits<double>::quiet_NaN();

bool close_to(const std::vector<double>& values, double expected) {
  double error_sum = 0.0;
  for (const double value : values) {
    error_sum += std::abs(value - expected) / std::abs(expected);
  }
  const double average_error = error_sum / static_cast<double>(values.size());
  return average_error <= max_average_relative_error;  // false for NaN
}

class CopyWorkload final : public Workload {
public:
  explicit CopyWorkload(std::size_t n) : a_(n, initial_a), c_(n, initial_c) {}

  void run_impl() override { copy(a_.data(), c_.data(), a_.size()); }
  void run_baseline() override { std::memcpy(c_.data(), a_.data(), a_.size() * sizeof(double)); }
  void reset() override {
    std::fill(a_.begin(), a_.end(), initial_a);
    std::fill(c_.begin(), c_.end(), garbage);
  }
  bool verify() const override { return close_to(a_, initial_a) && close_to(c_, initial_a); }

private:
  std::vector<double> a_;
  std::vector<double> c_;
};

class TriadWorkload final : public Workload {
public:
  explicit TriadWorkload(std::size_t n) : a_(n, initial_a), b_(n, initial_b), c_(n, initial_c) {}

  void run_impl() override { triad(a_.data(), b_.data(), c_.data(), triad_scalar, a_.size()); }
  void run_baseline() override {
    std::transform(b_.begin(), b_.end(), c_.begin(), a_.begin(),
                   [](double b, double c) { return b + triad_scalar * c; });
  }
  void reset() override {
    std::fill(a_.begin(), a_.end(), garbage);
    std::fill(b_.begin(), b_.end(), initial_b);
    std::fill(c_.begin(), c_.end(), initial_c);
  }
  bool verify() const override {
    return close_to(a_, initial_b + triad_scalar * initial_c) && close_to(b_, initial_b) &&
           close_to(c_, initial_c);
  }

private:
  std::vector<double> a_;
  std::vector<double> b_;
  std::vector<double> c_;
};

// The longest array length at which the three arrays of every process on the node take at most
// half of its physical memory. A guest may report its host's whole last-level cache (this VM: 480
// MiB), and 8x that in three arrays on two processes is more than the machine has.
std::size_t longest_fitting_length() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) {
    return std::numeric_limits<std::size_t>::max();
  }
  const auto processes = static_cast<std::size_t>(dash::is_initialized() ? comm::locality().node_size : 1);
  const std::size_t memory = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_bytes);
  return memory / 2 / (3 * sizeof(double) * processes);
}

std::vector<std::size_t> array_lengths(Sweep sweep) {
  const std::size_t four_caches = 4 * last_level_cache_bytes() / sizeof(double);
  const std::size_t fitting = longest_fitting_length();
  // The quick sweep already satisfies the 4x rule; the full one adds 8x to show that the
  // bandwidth no longer depends on the size. Lengths that do not fit are left out; if none fits,
  // the longest that does is the one point (the 4x rule cannot hold on such a node).
  std::vector<std::size_t> lengths;
  for (const std::size_t caches : {std::size_t{1}, std::size_t{2}}) {
    if ((sweep == Sweep::full || caches == 1) && caches * four_caches <= fitting) {
      lengths.push_back(caches * four_caches);
    }
  }
  if (lengths.empty()) {
    lengths.push_back(fitting);
  }
  return lengths;
}

Rate bandwidth(double bytes_per_element) {
  return Rate{"GB/s", [bytes_per_element](std::size_t n, int active_ranks) {
                return bytes_per_element * static_cast<double>(n) * active_ranks / 1e9;
              }};
}

const CaseRegistration copy_case{Case{
    .suite = "stream",
    .name = "copy",
    .impl = "STREAM copy loop c[j] = a[j]",
    .baseline = "std::memcpy",
    .size_unit = "doubles per array per rank",
    .sizes = array_lengths,
    .active_rank_counts = one_and_all_ranks,
    .rate = bandwidth(16.0),
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<CopyWorkload>(problem.size);
    },
    .calls_per_run = nullptr,
}};

const CaseRegistration triad_case{Case{
    .suite = "stream",
    .name = "triad",
    .impl = "STREAM triad loop a[j] = b[j] + 0.42*c[j]",
    .baseline = "std::transform with the same formula",
    .size_unit = "doubles per array per rank",
    .sizes = array_lengths,
    .active_rank_counts = one_and_all_ranks,
    .rate = bandwidth(24.0),
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<TriadWorkload>(problem.size);
    },
    .calls_per_run = nullptr,
}};

}  // namespace

}  // namespace dash::bench::stream
