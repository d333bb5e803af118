// The overlap suite (Kowalewski 2021 §7.3.3.2, benchmark B4): how much of a non-blocking alltoall hides
// behind computation, for dash::comm::ialltoall and for MPI_Ialltoall.
//
// Per side and repetition: t_comm, the collective alone (start, then wait); t_compute, a compute
// load alone, sized at construction to last about t_comm; and T, start, then the load in chunks
// of about 25 us with a progress call (test() / MPI_Test) after each, then wait. The overlap
// ratio (Kowalewski 2021 Eq. 7.1) is r = (t_compute + t_comm - T) / max(t_compute, t_comm): 1 when T is
// the longer of the two alone (full overlap), 0 when it is their sum (none).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

#include "runner/registry.hpp"
#include "suites/matrix_products.hpp"

namespace dash::bench::overlap {

namespace {

// Compute between two progress calls. dash (unless its progress thread runs) and Open MPI's
// libnbc advance a non-blocking collective only inside such calls.
constexpr double chunk_seconds = 25e-6;
// The compute calibration times runs of the load that last at least this long.
constexpr double calibration_seconds = 1e-3;
constexpr int calibration_reps = 5;

constexpr double garbage = std::numeric_limits<double>::quiet_NaN();

// Rank r's block for rank q: distinct per (r, q), small multiples of 1/2, so == verifies.
double input_value(int rank, std::size_t block, std::size_t index) {
  return rank * 1000.0 + static_cast<double>(block) + static_cast<double>(index % 7) * 0.5;
}

double max_over(MPI_Comm team, double value) {
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, team),
                  "dash-bench overlap: MPI_Allreduce");
  return value;
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// One side's compute load: `products` matrix products in chunks of `chunk_products` (the last
// may be shorter), with a progress call after each chunk.
struct ComputePlan {
  std::size_t products = 1;
  std::size_t chunk_products = 1;
};

class OverlapWorkload final : public Workload {
public:
  OverlapWorkload(std::size_t bytes, MPI_Comm team, std::size_t calls) : team_(team), calls_(calls) {
    MPI_Comm_rank(team, &rank_);
    MPI_Comm_size(team, &size_);
    n_ = std::max<std::size_t>(1, bytes / sizeof(double));
    in_.resize(n_ * static_cast<std::size_t>(size_));
    out_.resize(in_.size());
    reset();
    calibrate();
  }

  void run_impl() override { overlapped_seconds_[index(Side::impl)] = time_calls([&] { overlapped(Side::impl); }); }
  void run_baseline() override {
    overlapped_seconds_[index(Side::baseline)] = time_calls([&] { overlapped(Side::baseline); });
  }

  void reset() override {
    for (std::size_t i = 0; i < in_.size(); ++i) {
      in_[i] = input_value(rank_, i / n_, i % n_);
    }
    std::fill(out_.begin(), out_.end(), garbage);
    products_.reset();
  }

  bool verify() const override {
    for (std::size_t i = 0; i < out_.size(); ++i) {
      if (!(out_[i] == input_value(static_cast<int>(i / n_), static_cast<std::size_t>(rank_), i % n_))) {
        return false;
      }
    }
    return products_.verify();
  }

  // overlap_ratio, t_comm, t_compute of the repetition; each time is the slowest rank's.
  std::vector<double> extra_metrics(Side side) override {
    barrier();
    const double t_comm = max_over(team_, time_calls([&] { communication_alone(side); }));
    barrier();
    const double t_compute = max_over(team_, time_calls([&] { products_.compute(plan(side).products); }));
    const double overlapped = max_over(team_, overlapped_seconds_[index(side)]);
    const double ratio = (t_compute + t_comm - overlapped) / std::max(t_compute, t_comm);
    return {ratio, t_comm, t_compute};
  }

private:
  static std::size_t index(Side side) { return side == Side::impl ? 0 : 1; }
  const ComputePlan& plan(Side side) const { return plans_[index(side)]; }

  // Per call, on this rank.
  template <class F>
  double time_calls(F&& f) {
    const double start = MPI_Wtime();
    for (std::size_t call = 0; call < calls_; ++call) {
      f();
    }
    return (MPI_Wtime() - start) / static_cast<double>(calls_);
  }

  void barrier() { comm::check_mpi(MPI_Barrier(team_), "dash-bench overlap: MPI_Barrier"); }

  void communication_alone(Side side) {
    if (side == Side::impl) {
      comm::ialltoall(in_, out_).wait();
    } else {
      MPI_Request request = start_mpi();
      comm::check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "dash-bench overlap: MPI_Wait");
    }
  }

  void overlapped(Side side) {
    if (side == Side::impl) {
      auto request = comm::ialltoall(in_, out_);
      compute_in_chunks(plan(side), [&] { request.test(); });
      request.wait();
    } else {
      MPI_Request request = start_mpi();
      compute_in_chunks(plan(side), [&] {
        int flag = 0;
        comm::check_mpi(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), "dash-bench overlap: MPI_Test");
      });
      comm::check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "dash-bench overlap: MPI_Wait");
    }
  }

  template <class Poll>
  void compute_in_chunks(const ComputePlan& compute, Poll&& poll) {
    for (std::size_t done = 0; done < compute.products; done += compute.chunk_products) {
      products_.compute(std::min(compute.chunk_products, compute.products - done));
      poll();
    }
  }

  MPI_Request start_mpi() {
    const int n = static_cast<int>(n_);
    MPI_Request request = MPI_REQUEST_NULL;
    comm::check_mpi(MPI_Ialltoall(in_.data(), n, MPI_DOUBLE, out_.data(), n, MPI_DOUBLE, team_, &request),
                    "dash-bench overlap: MPI_Ialltoall");
    return request;
  }

  // Sizes each side's compute load to its own t_comm at this point (the median of a few runs of
  // the slowest rank), so that Eq. 7.1 compares like with like. All ranks agree on the sizes.
  void calibrate() {
    const double seconds_per_product = calibrate_products();
    const auto products_for = [&](double seconds) {
      return std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(seconds / seconds_per_product)));
    };
    for (const Side side : {Side::impl, Side::baseline}) {
      communication_alone(side);  // warm-up: plans, connections
      std::vector<double> samples;
      for (int rep = 0; rep < calibration_reps; ++rep) {
        barrier();
        samples.push_back(max_over(team_, time_calls([&] { communication_alone(side); })));
      }
      plans_[index(side)] = ComputePlan{products_for(median(samples)), products_for(chunk_seconds)};
    }
    products_.reset();
  }

  // Seconds per matrix product on the slowest rank. The load is deterministic, so anything above
  // its best time is interference (other processes): the best of a few runs counts.
  double calibrate_products() {
    const auto slowest_rank_seconds = [&](std::size_t count) {
      barrier();
      const double start = MPI_Wtime();
      products_.compute(count);
      return max_over(team_, MPI_Wtime() - start);
    };
    std::size_t count = 64;
    while (slowest_rank_seconds(count) < calibration_seconds) {
      count *= 2;
    }
    double best = slowest_rank_seconds(count);
    for (int rep = 1; rep < calibration_reps; ++rep) {
      best = std::min(best, slowest_rank_seconds(count));
    }
    return best / static_cast<double>(count);
  }

  MPI_Comm team_;
  std::size_t calls_;
  int rank_ = 0;
  int size_ = 1;
  std::size_t n_ = 1;
  std::vector<double> in_;
  std::vector<double> out_;
  MatrixProducts products_;
  // Indexed by index(Side).
  std::array<ComputePlan, 2> plans_{};
  std::array<double, 2> overlapped_seconds_{};  // T of the last run, per call on this rank
};

std::vector<std::size_t> block_bytes(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {8, 4096, 262144, 4194304};
  }
  return {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
}

// Short collectives repeat within a run (about 1 MiB per block in all), as in the coll suite.
std::size_t calls_for(std::size_t bytes) {
  return std::clamp<std::size_t>((std::size_t{1} << 20) / std::max<std::size_t>(bytes, 1), 1, 200);
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

const CaseRegistration alltoall_case{Case{
    .suite = "overlap",
    .name = "alltoall",
    .impl = "dash::comm::ialltoall, matrix products in ~25 us chunks with test() between, wait()",
    .baseline = "MPI_Ialltoall, the same compute with MPI_Test between, MPI_Wait",
    .size_unit = "bytes per block, per pair",
    .sizes = block_bytes,
    .active_rank_counts = whole_job,
    .rate = std::nullopt,
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<OverlapWorkload>(problem.size, problem.team, calls_for(problem.size));
    },
    .calls_per_run = calls_for,
    .extra_metrics = {{"overlap_ratio", ""}, {"t_comm", "s"}, {"t_compute", "s"}},
}};

}  // namespace

}  // namespace dash::bench::overlap
