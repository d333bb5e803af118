#include "runner/sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <dash/comm/check.hpp>
#include <dash/comm/mpi_call.hpp>

#include "runner/core_round_trip.hpp"
#include "runner/job_abort.hpp"
#include "runner/progress.hpp"
#include "runner/timing.hpp"

namespace dash::bench {

namespace {

// The communicator of a point's active ranks; MPI_COMM_NULL on idle ranks.
class Team {
public:
  Team(MPI_Comm world, bool active, int rank) {
    comm::check_mpi(MPI_Comm_split(world, active ? 0 : MPI_UNDEFINED, rank, &comm_),
                    "dash-bench: MPI_Comm_split");
  }
  ~Team() {
    if (comm_ != MPI_COMM_NULL) {
      MPI_Comm_free(&comm_);
    }
  }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  Team(Team&&) = delete;
  Team& operator=(Team&&) = delete;

  MPI_Comm comm() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

void run_side(Workload& workload, Side side) {
  if (side == Side::impl) {
    workload.run_impl();
  } else {
    workload.run_baseline();
  }
}

// Collective over `world`: prepares `side` (untimed), then times one run of it.
// `workload` is null on idle ranks.
double timed_run(MPI_Comm world, Workload* workload, Side side) {
  if (workload != nullptr) {
    workload->prepare(side);
  }
  return time_slowest_rank(world, [&] {
    if (workload != nullptr) {
      run_side(*workload, side);
    }
  });
}

// Collective over `world`: runs `side` once more on fresh inputs and checks its output on every
// active rank. `workload` is null on idle ranks.
bool verified_everywhere(MPI_Comm world, Workload* workload, Side side) {
  int correct = 1;
  if (workload != nullptr) {
    workload->reset();
    workload->prepare(side);
    run_side(*workload, side);
    correct = workload->verify() ? 1 : 0;
  }
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, world),
                  "dash-bench: MPI_Allreduce");
  return correct == 1;
}

// The samples of a case's extra metrics, one list per metric, collected on the active ranks.
class ExtraSamples {
public:
  explicit ExtraSamples(const Case& bench_case)
      : bench_case_(bench_case), samples_(bench_case.extra_metrics.size()) {}

  // Collective over the active ranks; does nothing for cases without extra metrics.
  void record(Workload* workload, Side side) {
    if (samples_.empty() || workload == nullptr) {
      return;
    }
    const std::vector<double> values = workload->extra_metrics(side);
    assert_that(values.size() == samples_.size(), [&] {
      return "dash-bench: " + bench_case_.id() + " reported " + std::to_string(values.size()) +
             " extra metrics, its case declares " + std::to_string(samples_.size());
    });
    for (std::size_t index = 0; index < values.size(); ++index) {
      samples_[index].push_back(values[index]);
    }
  }

  // Empty on idle ranks, which recorded nothing.
  std::vector<Summary> summaries() && {
    std::vector<Summary> result;
    for (std::vector<double>& samples : samples_) {
      if (!samples.empty()) {
        result.push_back(summarize(std::move(samples)));
      }
    }
    return result;
  }

private:
  const Case& bench_case_;
  std::vector<std::vector<double>> samples_;
};

// The point's result, or why it was skipped. Collective over `world`.
std::variant<Result, SkippedPoint> run_point(const SweepPoint& point, const RunOptions& options,
                                             MPI_Comm world, int rank, CoreRoundTrip& core_round_trip) {
  const double round_trip_before = core_round_trip.measure();
  const bool active = rank < point.active_ranks;
  const Team team(world, active, rank);
  std::unique_ptr<Workload> workload;
  std::optional<std::string> not_applicable;
  if (active) {
    try {
      workload =
          point.bench_case->make_workload(Problem{point.size, point.active_ranks, team.comm()});
    } catch (const PointNotApplicable& error) {
      not_applicable = error.what();
    }
  }
  // Every rank, idle ones too, takes part in the timing's collectives: all skip or none.
  int applicable = not_applicable ? 0 : 1;
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &applicable, 1, MPI_INT, MPI_MIN, world),
                  "dash-bench: MPI_Allreduce");
  if (applicable == 0) {
    return SkippedPoint{point, not_applicable.value_or("not applicable on another rank")};
  }

  // Alternating the two in one run exposes both to the same machine state (frequency, other
  // load), which makes their ratio more stable than the times themselves.
  const bool with_baseline = !point.bench_case->baseline_unavailable;
  for (int rep = 0; rep < options.warmup_reps; ++rep) {
    timed_run(world, workload.get(), Side::impl);
    if (with_baseline) {
      timed_run(world, workload.get(), Side::baseline);
    }
  }
  const auto& calls_per_run = point.bench_case->calls_per_run;
  const double calls = calls_per_run ? static_cast<double>(calls_per_run(point.size)) : 1.0;
  std::vector<double> impl_times;
  std::vector<double> baseline_times;
  ExtraSamples impl_extra(*point.bench_case);
  ExtraSamples baseline_extra(*point.bench_case);
  for (int rep = 0; rep < options.timed_reps; ++rep) {
    impl_times.push_back(timed_run(world, workload.get(), Side::impl) / calls);
    impl_extra.record(workload.get(), Side::impl);
    if (with_baseline) {
      baseline_times.push_back(timed_run(world, workload.get(), Side::baseline) / calls);
      baseline_extra.record(workload.get(), Side::baseline);
    }
  }

  const bool impl_verified = verified_everywhere(world, workload.get(), Side::impl);
  const bool baseline_verified = !with_baseline || verified_everywhere(world, workload.get(), Side::baseline);
  const double round_trip_after = core_round_trip.measure();
  return Result{point,
                options.timed_reps,
                summarize(std::move(impl_times)),
                with_baseline ? std::optional<Summary>(summarize(std::move(baseline_times))) : std::nullopt,
                std::move(impl_extra).summaries(),
                std::move(baseline_extra).summaries(),
                impl_verified,
                baseline_verified,
                round_trip_before,
                round_trip_after};
}

void report_verification_failure(const Result& result) {
  const Case& bench_case = *result.point.bench_case;
  const std::string point = result.point.description();
  if (!result.impl_verified) {
    std::fprintf(stderr,
                 "dash-bench: VERIFICATION FAILED: %s: the implementation (%s) computed a wrong "
                 "result\n",
                 point.c_str(), bench_case.impl.c_str());
  }
  if (!result.baseline_verified) {
    std::fprintf(stderr,
                 "dash-bench: VERIFICATION FAILED: %s: the baseline (%s) computed a wrong result\n",
                 point.c_str(), bench_case.baseline.c_str());
  }
}

}  // namespace

std::string SweepPoint::description() const {
  return bench_case->id() + " p=" + std::to_string(active_ranks) + " size=" + std::to_string(size);
}

std::vector<SweepPoint> plan_sweep(const std::vector<const Case*>& cases,
                                   const RunOptions& options, int job_size) {
  std::vector<SweepPoint> plan;
  for (const Case* bench_case : cases) {
    std::vector<std::size_t> sizes =
        options.size ? std::vector<std::size_t>{*options.size} : bench_case->sizes(options.sweep);
    if (options.size && bench_case->only_own_sizes) {
      const std::vector<std::size_t> own = bench_case->sizes(Sweep::full);
      if (std::find(own.begin(), own.end(), *options.size) == own.end()) {
        sizes.clear();
      }
    }
    for (const std::size_t size : sizes) {
      for (const int active_ranks : bench_case->active_rank_counts(job_size)) {
        plan.push_back(SweepPoint{bench_case, size, active_ranks});
      }
    }
  }
  return plan;
}

SweepResults run_sweep(const std::vector<SweepPoint>& plan, const RunOptions& options,
                       MPI_Comm world, const PointsDone& points_done) {
  int rank = 0;
  comm::check_mpi(MPI_Comm_rank(world, &rank), "dash-bench: MPI_Comm_rank");
  // A point's run time grows with its size; p matters little while ranks run concurrently.
  std::vector<double> weights;
  for (const SweepPoint& point : plan) {
    weights.push_back(static_cast<double>(point.size));
  }
  Progress progress(std::move(weights), rank == 0);
  CoreRoundTrip core_round_trip(world);

  SweepResults done;
  for (std::size_t index = 0; index < plan.size(); ++index) {
    // An error here may strike some ranks only (a file only rank 0 writes, an allocation where
    // only rank 0 is active): abort while the round-trip window is still open, since freeing it
    // is collective and the other ranks wait elsewhere.
    try {
      auto outcome = run_point(plan[index], options, world, rank, core_round_trip);
      if (auto* skipped = std::get_if<SkippedPoint>(&outcome)) {
        if (rank == 0) {
          std::fprintf(stderr, "dash-bench: skipped %s: %s\n", skipped->point.description().c_str(),
                       skipped->reason.c_str());
        }
        done.skipped.push_back(std::move(*skipped));
      } else {
        done.results.push_back(std::move(std::get<Result>(outcome)));
        if (rank == 0 && !done.results.back().verified()) {
          report_verification_failure(done.results.back());
        }
      }
      if (rank == 0 && points_done) {
        points_done(done);
      }
    } catch (const std::exception& error) {
      abort_job(error);
    }
    progress.point_done(index, plan[index].description());
  }
  return done;
}

}  // namespace dash::bench
