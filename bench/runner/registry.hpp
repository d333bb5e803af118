#pragma once
// The catalogue of benchmark cases.
//
// A suite describes each of its cases with a `Case` and adds it from its own source file with a
// namespace-scope `CaseRegistration`, so a new suite never touches the runner. The runner sweeps
// every selected case over its sizes and active-rank counts and, at each point, alternates the
// implementation with the baseline it is compared against (docs/benchmarks.md).

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

namespace dash::bench {

// --quick runs a short sweep meant for development; the full sweep is the one to report.
enum class Sweep { quick, full };

// One sweep point as seen by one of its active ranks.
struct Problem {
  std::size_t size;  // in the case's size unit
  int active_ranks;  // p: ranks 0 .. p-1 of the job run the case, the others only wait
  MPI_Comm team;     // the p active ranks
};

// The two contenders of a case.
enum class Side { impl, baseline };

// A case set up at one sweep point on one active rank.
class Workload {
public:
  virtual ~Workload() = default;
  virtual void run_impl() = 0;
  virtual void run_baseline() = 0;
  // Called before every run of `side` (warm-up, timed and verification), outside the timing:
  // restores what a run consumes, e.g. the input of an in-place sort. Does nothing by default.
  virtual void prepare(Side side);
  // Restores the inputs and overwrites the outputs with garbage, so that the next run has to
  // produce everything verify() checks (otherwise a broken implementation could pass on the
  // output the baseline left behind). Never timed.
  virtual void reset() = 0;
  // True when the outputs of the last run are correct.
  virtual bool verify() const = 0;
  // The values of the case's extra metrics (Case::extra_metrics, in that order) for the timed run
  // of `side` that just finished. Called on all active ranks together after each timed run,
  // outside the timing, so it may communicate over the team and measure more (e.g. the parts of
  // an overlap experiment). The runner records active rank 0's values, which should therefore
  // describe the whole team. Only called for cases with extra metrics.
  virtual std::vector<double> extra_metrics(Side side);
};

// A rate computed from a run time, e.g. bandwidth: rate = work(size, p) / seconds, where work
// sums over all p active ranks. The runner also reports rate / p as the per-rank rate.
struct Rate {
  std::string unit;  // e.g. "GB/s"
  std::function<double(std::size_t size, int active_ranks)> work;
};

// A quantity a case's workloads measure themselves besides the run time the runner takes, e.g. an
// overlap ratio. The runner reports its median over the timed repetitions for each side.
struct ExtraMetric {
  std::string name;  // a column name, e.g. "overlap_ratio"
  std::string unit;  // "s" prints as a time; empty for a plain number
};

struct Case {
  std::string suite;
  std::string name;
  std::string impl;       // what is measured
  std::string baseline;   // what it is compared against
  std::string size_unit;  // the meaning of a size, e.g. "doubles per array per rank"
  std::function<std::vector<std::size_t>(Sweep)> sizes;
  // The values of p to run with in a job of `job_size` ranks.
  std::function<std::vector<int>(int job_size)> active_rank_counts;
  std::optional<Rate> rate;  // computed from the best (minimum) time
  // Called on the active ranks only.
  std::function<std::unique_ptr<Workload>(const Problem&)> make_workload;
  // Calls of the measured operation in one run_impl()/run_baseline(), for operations too short
  // to time one by one; reported times are per call. Unset: one.
  std::function<std::size_t(std::size_t size)> calls_per_run;
  // What Workload::extra_metrics reports; none by default.
  std::vector<ExtraMetric> extra_metrics = {};
  // The sizes define the problem (e.g. the classes of an NPB kernel): under --size N the case runs
  // only when N is one of its full sweep's sizes, and is left out otherwise.
  bool only_own_sizes = false;
  // Set when the baseline cannot run in this build (e.g. FFTW-MPI, which Debian builds for Open MPI
  // only, under MPICH): why. The runner then times and verifies the implementation alone, and the
  // results carry this text instead of baseline times and a ratio.
  std::optional<std::string> baseline_unavailable = std::nullopt;
  // The case calls MPI from several threads at once. A job that runs it initialises MPI with
  // MPI_THREAD_MULTIPLE, which changes MPI for every case of that job (runner/thread_multiple.hpp),
  // so `all` leaves the case out: it runs when its suite or its name is the target.
  bool needs_thread_multiple = false;

  std::string id() const { return suite + "/" + name; }
};

// Thrown by Case::make_workload, alike on every active rank, when the point cannot run in this job
// (e.g. the MPI library cannot apply a forced algorithm to these arguments): the runner records the
// point as skipped, with this message as the reason, and goes on.
class PointNotApplicable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// p = 1 (one rank alone, the others idle) and p = the whole job.
std::vector<int> one_and_all_ranks(int job_size);

// Adds a case to the catalogue during static initialisation.
class CaseRegistration {
public:
  explicit CaseRegistration(Case bench_case);
};

// All registered cases, grouped by suite (suites in name order, cases in registration order).
const std::vector<Case>& registered_cases();

// The cases `target` names: "all" (all but those that need MPI_THREAD_MULTIPLE), "<suite>" or
// "<suite>/<case>". Throws dash::InvalidArgument when it names none.
std::vector<const Case*> select_cases(std::string_view target);

}  // namespace dash::bench
