// The alltoall + merge suite (Kowalewski 2021 §7.4.3 Fig. 7.7, benchmark B5): the exchange and merge
// phases of a distributed sort. Every rank holds one sorted run per destination, exchanges them
// all-to-all and ends with one sorted sequence of everything it received. The baseline is
// MPI_Alltoall followed by a pairwise merge of the p received runs; the implementations are
// dash::comm::alltoall with the same merge, and dash::comm::ialltoall merging each run as it
// arrives (partial consumption), so that merging overlaps the transfers still under way.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

#include "runner/registry.hpp"
#include "suites/merge_runs.hpp"

namespace dash::bench::alltoall_merge {

namespace {

enum class Variant {
  blocking,  // dash::comm::alltoall, then merge_pairwise
  partial,   // dash::comm::ialltoall, ProgressiveMerge fed by for_each_arrival
  partial_noncanonical,  // the same, allowing the output in arrival order
};

constexpr double garbage = std::numeric_limits<double>::quiet_NaN();

// Element `index` of the run rank `from` sends to rank `to`, before sorting: uniform in
// [-1e6, 1e6) as in Kowalewski 2021's sort benchmark, from a SplitMix64 hash of the three, so any rank
// can compute any run.
double element(int from, int to, std::size_t index) {
  std::uint64_t x = (static_cast<std::uint64_t>(from) << 48) ^ (static_cast<std::uint64_t>(to) << 32) ^ index;
  x += 0x9e3779b97f4a7c15;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53 * 2e6 - 1e6;
}

void fill_sorted_run(std::span<double> run, int from, int to) {
  for (std::size_t i = 0; i < run.size(); ++i) {
    run[i] = element(from, to, i);
  }
  std::sort(run.begin(), run.end());
}

class AlltoallMergeWorkload final : public Workload {
public:
  AlltoallMergeWorkload(Variant variant, std::size_t run_length, MPI_Comm team, std::size_t calls)
      : variant_(variant), team_(team), calls_(calls), n_(run_length) {
    MPI_Comm_rank(team, &rank_);
    MPI_Comm_size(team, &size_);
    const auto p = static_cast<std::size_t>(size_);
    arrived_.resize(p);
    in_.resize(p * n_);
    received_.resize(p * n_);
    scratch_.resize(p * n_);
    out_.resize(p * n_);
    expected_.resize(p * n_);
    for (int q = 0; q < size_; ++q) {
      fill_sorted_run(run(in_, q), rank_, q);
      fill_sorted_run(run(expected_, q), q, rank_);
    }
    std::sort(expected_.begin(), expected_.end());
    progressive_ = std::make_unique<ProgressiveMerge>(p, n_, std::span<double>(out_));
    options_.canonical_placement = variant != Variant::partial_noncanonical;
    reset();
  }

  void run_impl() override {
    for (std::size_t call = 0; call < calls_; ++call) {
      if (variant_ == Variant::blocking) {
        comm::alltoall(in_, received_, comm::Group::world(), options_);
        merge_pairwise(received_, n_, scratch_, out_);
      } else {
        auto request = comm::ialltoall(in_, received_, comm::Group::world(), options_);
        std::fill(arrived_.begin(), arrived_.end(), RunArrival{});
        request.for_each_arrival([&](const comm::Arrival<double>& arrival) { take(arrival); });
      }
    }
  }

  void run_baseline() override {
    const int n = static_cast<int>(n_);
    for (std::size_t call = 0; call < calls_; ++call) {
      comm::check_mpi(MPI_Alltoall(in_.data(), n, MPI_DOUBLE, received_.data(), n, MPI_DOUBLE, team_),
                      "dash-bench alltoall_merge: MPI_Alltoall");
      merge_pairwise(received_, n_, scratch_, out_);
    }
  }

  // The input runs are only read; every buffer a run writes gets garbage.
  void reset() override {
    for (std::vector<double>* buffer : {&received_, &scratch_, &out_}) {
      std::fill(buffer->begin(), buffer->end(), garbage);
    }
  }

  // Sorted and the same multiset as the received runs: equal to their sorted concatenation.
  bool verify() const override { return out_ == expected_; }

private:
  // What arrived of one rank's run: its segments (the library may cut runs, e.g. into the
  // shared-memory arena's chunks) lie next to each other in the output, in any order.
  struct RunArrival {
    const double* first = nullptr;
    std::size_t elements = 0;
  };

  // Merges a run once all of it arrived.
  void take(const comm::Arrival<double>& arrival) {
    RunArrival& run = arrived_[static_cast<std::size_t>(arrival.source)];
    run.first = run.first == nullptr ? arrival.data : std::min(run.first, static_cast<const double*>(arrival.data));
    run.elements += arrival.count;
    if (run.elements == n_) {
      progressive_->add({run.first, n_});
    }
  }

  std::span<double> run(std::vector<double>& buffer, int q) const {
    return std::span<double>(buffer).subspan(static_cast<std::size_t>(q) * n_, n_);
  }

  Variant variant_;
  MPI_Comm team_;
  std::size_t calls_;
  std::size_t n_;
  int rank_ = 0;
  int size_ = 1;
  comm::Options options_;
  std::vector<RunArrival> arrived_;
  std::vector<double> in_;  // p sorted runs, run q for rank q
  std::vector<double> received_;
  std::vector<double> scratch_;
  std::vector<double> out_;
  std::vector<double> expected_;
  std::unique_ptr<ProgressiveMerge> progressive_;
};

// Doubles per run (per pair): 8 B to 1 MiB.
std::vector<std::size_t> run_lengths(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {1, 128, 16384, 131072};
  }
  return {1, 16, 128, 1024, 16384, 131072};
}

// Short exchanges repeat within a run (about 1 MiB per pair in all), as in the coll suite.
std::size_t calls_for(std::size_t run_length) {
  return std::clamp<std::size_t>(std::size_t{131072} / run_length, 1, 200);
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

Case make_case(Variant variant, std::string name, std::string impl) {
  return Case{
      .suite = "alltoall_merge",
      .name = std::move(name),
      .impl = std::move(impl),
      .baseline = "MPI_Alltoall, then pairwise merge of the p runs",
      .size_unit = "doubles per run, per pair",
      .sizes = run_lengths,
      .active_rank_counts = whole_job,
      .rate = std::nullopt,
      .make_workload = [variant](const Problem& problem) -> std::unique_ptr<Workload> {
        return std::make_unique<AlltoallMergeWorkload>(variant, problem.size, problem.team, calls_for(problem.size));
      },
      .calls_per_run = calls_for,
  };
}

const CaseRegistration blocking_case{
    make_case(Variant::blocking, "blocking", "dash::comm::alltoall, then pairwise merge of the p runs")};
const CaseRegistration partial_case{make_case(
    Variant::partial, "partial", "dash::comm::ialltoall, each run merged on arrival (binary-counter merge)")};
const CaseRegistration partial_noncanonical_case{
    make_case(Variant::partial_noncanonical, "partial_noncanonical",
              "as partial, with Options::canonical_placement = false (arrival-order output)")};

}  // namespace

}  // namespace dash::bench::alltoall_merge
