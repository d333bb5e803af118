// The array suite: what dash::Array costs next to plain memory and plain MPI.
//
// triad: the STREAM triad a = b + 0.42 c through dash::transform over three aligned
// dash::Array<double>, against a raw pointer loop over the same local memory. The algorithm
// runs owner-computes on the local parts, so the ratio should stay near 1.
//
// read/write latency: one element a[i] (a dash::GlobRef) at a time, i random in the part of
// either the caller's own unit or the next unit ((me + 1) % p), against MPI_Get / MPI_Put, each
// followed by MPI_Win_flush, on an MPI_Win_allocate window of the same size. Units on one node
// reach each other's part by load/store unless DASH_SHARED_MEMORY=0, which sends every access to
// another unit through MPI RMA; the `mpi_rma` metric says which path the run took.
//
// Map: STREAM's constants and close_to; TriadWorkload; PlainWindow (the baseline's MPI window);
// Access, Target and random_offsets; AccessWorkload (one read or write case); the sizes and job
// sizes; the registrations: triad, then the four access cases.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/transform.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/array.hpp>
#include <dash/core/team.hpp>

#include "runner/registry.hpp"

namespace dash::bench::array {

namespace {

constexpr double triad_scalar = 0.42;
// STREAM's validation bound and start values (b = 2, c = 0.5; a is overwritten).
constexpr double max_average_relative_error = 1e-13;
constexpr double initial_b = 2.0;
constexpr double initial_c = 0.5;
constexpr double garbage = std::numeric_limits<double>::quiet_NaN();

// Single accesses are too short to time one by one.
constexpr std::size_t accesses_per_run = 4096;

bool close_to(std::span<const double> values, double expected) {
  double error_sum = 0.0;
  for (const double value : values) {
    error_sum += std::abs(value - expected) / std::abs(expected);
  }
  return values.empty() || error_sum / static_cast<double>(values.size()) <= max_average_relative_error;
}

std::size_t job_units() { return Team::All().size(); }

class TriadWorkload final : public Workload {
public:
  explicit TriadWorkload(std::size_t per_unit)
      : a_(per_unit * job_units()), b_(per_unit * job_units()), c_(per_unit * job_units()) {
    reset();
  }

  void run_impl() override {
    dash::transform(b_.begin(), b_.end(), c_.begin(), a_.begin(),
                    [](double b, double c) { return b + triad_scalar * c; });
  }
  void run_baseline() override {
    double* a = a_.local.data();
    const double* b = b_.local.data();
    const double* c = c_.local.data();
    const std::size_t n = a_.local.size();
    for (std::size_t j = 0; j < n; ++j) {
      a[j] = b[j] + triad_scalar * c[j];
    }
  }
  void reset() override {
    std::fill(a_.local.begin(), a_.local.end(), garbage);
    std::fill(b_.local.begin(), b_.local.end(), initial_b);
    std::fill(c_.local.begin(), c_.local.end(), initial_c);
  }
  bool verify() const override {
    return close_to(a_.local.span(), initial_b + triad_scalar * initial_c) && close_to(b_.local.span(), initial_b) &&
           close_to(c_.local.span(), initial_c);
  }

private:
  Array<double> a_;
  Array<double> b_;
  Array<double> c_;
};

// The baseline's memory: an MPI_Win_allocate window of `elements` doubles per process, open for
// passive-target access to everyone for its whole life.
class PlainWindow {
public:
  PlainWindow(MPI_Comm comm, std::size_t elements) : elements_(elements) {
    comm::check_mpi(MPI_Win_allocate(static_cast<MPI_Aint>(elements * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                                     comm, static_cast<void*>(&base_), &window_),
                    "dash-bench array: MPI_Win_allocate");
    comm::check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "dash-bench array: MPI_Win_lock_all");
  }
  ~PlainWindow() {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  PlainWindow(const PlainWindow&) = delete;
  PlainWindow& operator=(const PlainWindow&) = delete;

  std::span<double> local() const noexcept { return {base_, elements_}; }
  double get(int unit, std::size_t offset) const {
    double value = 0.0;
    comm::check_mpi(MPI_Get(&value, 1, MPI_DOUBLE, unit, static_cast<MPI_Aint>(offset), 1, MPI_DOUBLE, window_),
                    "dash-bench array: MPI_Get");
    comm::check_mpi(MPI_Win_flush(unit, window_), "dash-bench array: MPI_Win_flush");
    return value;
  }
  void put(int unit, std::size_t offset, double value) const {
    comm::check_mpi(MPI_Put(&value, 1, MPI_DOUBLE, unit, static_cast<MPI_Aint>(offset), 1, MPI_DOUBLE, window_),
                    "dash-bench array: MPI_Put");
    comm::check_mpi(MPI_Win_flush(unit, window_), "dash-bench array: MPI_Win_flush");
  }
  // Collective: every process's earlier accesses are visible to every process afterwards.
  void barrier(MPI_Comm comm) const {
    comm::check_mpi(MPI_Win_sync(window_), "dash-bench array: MPI_Win_sync");
    comm::check_mpi(MPI_Barrier(comm), "dash-bench array: MPI_Barrier");
    comm::check_mpi(MPI_Win_sync(window_), "dash-bench array: MPI_Win_sync");
  }

private:
  std::size_t elements_;
  double* base_ = nullptr;
  MPI_Win window_ = MPI_WIN_NULL;
};

enum class Access { read, write };
enum class Target { own_unit, other_unit };

// Element g holds g before reads, and -(g + 1) after a write (reset() fills in garbage).
double initial_value(std::size_t global_index) { return static_cast<double>(global_index); }
double written_value(std::size_t global_index) { return -static_cast<double>(global_index) - 1.0; }

// The offsets in its target's part that unit `unit` accesses: the same on every process, so the
// target can check the writes it received.
std::vector<std::size_t> random_offsets(int unit, std::size_t per_unit) {
  std::mt19937_64 engine(static_cast<std::uint64_t>(unit) * 1000003U + per_unit);
  std::uniform_int_distribution<std::size_t> offset(0, per_unit - 1);
  std::vector<std::size_t> offsets(accesses_per_run);
  for (std::size_t& value : offsets) {
    value = offset(engine);
  }
  return offsets;
}

class AccessWorkload final : public Workload {
public:
  AccessWorkload(const Problem& problem, Access access, Target target)
      : access_(access),
        team_(problem.team),
        array_(problem.size * job_units()),
        window_(problem.team, problem.size),
        me_(array_.team().myid()),
        units_(static_cast<int>(array_.team().size())),
        target_(target == Target::own_unit ? me_ : (me_ + 1) % units_),
        source_(target == Target::own_unit ? me_ : (me_ + units_ - 1) % units_),
        offsets_(random_offsets(me_, problem.size)),
        target_begin_(array_.pattern().global_index(static_cast<std::size_t>(target_), 0)) {
    const std::size_t my_begin = array_.pattern().global_index(static_cast<std::size_t>(me_), 0);
    for (std::size_t i = 0; i < problem.size; ++i) {
      array_.local[i] = initial_value(my_begin + i);
      window_.local()[i] = initial_value(my_begin + i);
    }
    for (const std::size_t offset : offsets_) {
      expected_sum_ += initial_value(target_begin_ + offset);
    }
    array_.barrier();
    window_.barrier(team_);
  }

  void run_impl() override {
    last_side_ = Side::impl;
    if (access_ == Access::read) {
      double sum = 0.0;
      for (const std::size_t offset : offsets_) {
        sum += array_[target_begin_ + offset];
      }
      sum_ = sum;
    } else {
      for (const std::size_t offset : offsets_) {
        array_[target_begin_ + offset] = written_value(target_begin_ + offset);
      }
    }
  }
  void run_baseline() override {
    last_side_ = Side::baseline;
    if (access_ == Access::read) {
      double sum = 0.0;
      for (const std::size_t offset : offsets_) {
        sum += window_.get(target_, offset);
      }
      sum_ = sum;
    } else {
      for (const std::size_t offset : offsets_) {
        window_.put(target_, offset, written_value(target_begin_ + offset));
      }
    }
  }
  // Reads leave the memory as it is; writes find garbage where they will write. The barriers keep
  // another unit's writes of the next run from landing before the garbage.
  void reset() override {
    sum_ = garbage;
    if (access_ == Access::write) {
      std::fill(array_.local.begin(), array_.local.end(), garbage);
      std::fill(window_.local().begin(), window_.local().end(), garbage);
      array_.barrier();
      window_.barrier(team_);
    }
  }
  // Reads: the sum of the values read. Writes (collective): every element of this unit's part
  // that its source unit wrote holds the written value.
  bool verify() const override {
    if (access_ == Access::read) {
      return sum_ == expected_sum_;
    }
    array_.barrier();
    window_.barrier(team_);
    const std::span<const double> memory = last_side_ == Side::impl ? array_.local.span() : window_.local();
    const std::size_t my_begin = array_.pattern().global_index(static_cast<std::size_t>(me_), 0);
    bool correct = true;
    for (const std::size_t offset : random_offsets(source_, memory.size())) {
      correct = correct && memory[offset] == written_value(my_begin + offset);
    }
    return correct;
  }
  // mpi_rma: 1 when the side reached the target through MPI RMA, 0 for load/store.
  std::vector<double> extra_metrics(Side side) override {
    return {side == Side::baseline || array_.segment().direct(target_) == nullptr ? 1.0 : 0.0};
  }

private:
  Access access_;
  MPI_Comm team_;
  Array<double> array_;
  PlainWindow window_;
  int me_;
  int units_;
  int target_;
  int source_;
  std::vector<std::size_t> offsets_;
  std::size_t target_begin_;
  double expected_sum_ = 0.0;
  double sum_ = garbage;
  Side last_side_ = Side::impl;
};

std::vector<std::size_t> doubles_per_unit(Sweep sweep) {
  constexpr std::size_t doubles_2_20 = std::size_t{1} << 20;
  if (sweep == Sweep::quick) {
    return {doubles_2_20, doubles_2_20 << 2};
  }
  return {doubles_2_20, doubles_2_20 << 2, doubles_2_20 << 4};
}

// The arrays span Team::All(), so every rank takes part.
std::vector<int> whole_job(int job_size) { return {job_size}; }
// "Another unit" needs at least two.
std::vector<int> whole_job_of_two_or_more(int job_size) {
  return job_size >= 2 ? std::vector<int>{job_size} : std::vector<int>{};
}

const CaseRegistration triad_case{Case{
    .suite = "array",
    .name = "triad",
    .impl = "dash::transform(b, c -> a) over three dash::Array<double>: a = b + 0.42*c",
    .baseline = "raw pointer loop over the same local parts",
    .size_unit = "doubles per array per unit",
    .sizes = doubles_per_unit,
    .active_rank_counts = whole_job,
    .rate = Rate{"GB/s",
                 [](std::size_t per_unit, int units) { return 24.0 * static_cast<double>(per_unit) * units / 1e9; }},
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<TriadWorkload>(problem.size);
    },
    .calls_per_run = nullptr,
}};

Case access_case(std::string name, std::string impl, std::string baseline, Access access, Target target) {
  const bool other_unit = target == Target::other_unit;
  return Case{
      .suite = "array",
      .name = std::move(name),
      .impl = std::move(impl),
      .baseline = std::move(baseline),
      .size_unit = "doubles per array per unit",
      .sizes = doubles_per_unit,
      .active_rank_counts = other_unit ? whole_job_of_two_or_more : whole_job,
      .rate = std::nullopt,
      .make_workload = [access, target](const Problem& problem) -> std::unique_ptr<Workload> {
        return std::make_unique<AccessWorkload>(problem, access, target);
      },
      .calls_per_run = [](std::size_t) { return accesses_per_run; },
      .extra_metrics = {ExtraMetric{"mpi_rma", ""}},
  };
}

const CaseRegistration read_own{access_case("read_own_unit", "x = a[i] (GlobRef), i uniform over the caller's part",
                                            "MPI_Get + MPI_Win_flush to itself", Access::read, Target::own_unit)};
const CaseRegistration read_other{access_case("read_other_unit",
                                              "x = a[i] (GlobRef), i uniform over the next unit's part",
                                              "MPI_Get + MPI_Win_flush to the next rank", Access::read,
                                              Target::other_unit)};
const CaseRegistration write_own{access_case("write_own_unit", "a[i] = x (GlobRef), i uniform over the caller's part",
                                             "MPI_Put + MPI_Win_flush to itself", Access::write, Target::own_unit)};
const CaseRegistration write_other{access_case("write_other_unit",
                                               "a[i] = x (GlobRef), i uniform over the next unit's part",
                                               "MPI_Put + MPI_Win_flush to the next rank", Access::write,
                                               Target::other_unit)};

}  // namespace

}  // namespace dash::bench::array
