#pragma once
// Running the selected cases over their sweep points.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include "runner/registry.hpp"
#include "runner/statistics.hpp"

namespace dash::bench {

struct RunOptions {
  Sweep sweep = Sweep::full;
  int warmup_reps = 1;
  int timed_reps = 10;
  // Replaces every case's sizes (smoke tests use tiny ones).
  std::optional<std::size_t> size;
};

struct SweepPoint {
  const Case* bench_case;
  std::size_t size;
  int active_ranks;

  // "suite/case p=.. size=.."
  std::string description() const;
};

struct Result {
  SweepPoint point;
  int timed_reps;
  // Timings are known on rank 0 only; verification outcomes on every rank.
  Summary impl;
  // None when the case's baseline is unavailable in this build (Case::baseline_unavailable).
  std::optional<Summary> baseline;
  // One summary per Case::extra_metrics entry, known on rank 0; the baseline's are empty without a
  // baseline.
  std::vector<Summary> impl_extra;
  std::vector<Summary> baseline_extra;
  bool impl_verified;
  bool baseline_verified;  // true without a baseline
  // Cache-line round trips between the cores of ranks 0 and 1 before and after the point
  // (runner/core_round_trip.hpp), known on rank 0; NaN where not measured.
  double core_round_trip_before_ns;
  double core_round_trip_after_ns;

  bool verified() const { return impl_verified && baseline_verified; }
};

// A point that did not run, and why: its workload could not be set up in this job
// (Case::make_workload threw PointNotApplicable).
struct SkippedPoint {
  SweepPoint point;
  std::string reason;  // rank 0's
};

struct SweepResults {
  std::vector<Result> results;
  std::vector<SkippedPoint> skipped;
};

// Every (case, size, p) combination in run order: by case, then size, then p.
std::vector<SweepPoint> plan_sweep(const std::vector<const Case*>& cases,
                                   const RunOptions& options, int job_size);

// Called on rank 0 after every point with the results so far.
using PointsDone = std::function<void(const SweepResults&)>;

// Collective over `world`. Reports progress, skipped points and verification failures on rank 0's
// stderr.
SweepResults run_sweep(const std::vector<SweepPoint>& plan, const RunOptions& options,
                       MPI_Comm world, const PointsDone& points_done = {});

}  // namespace dash::bench
