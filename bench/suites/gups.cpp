// The gups suite: HPCC RandomAccess (docs/references.md) on a dash::Array,
// exchanging each look-ahead's updates with dash::comm::alltoall (counts) and alltoallv
// (addresses), against the same algorithm on plain MPI (baselines/gups_mpi.hpp) in the same run.
// Both share the stream, the bucketing and the update loop (suites/random_access.hpp), so the
// ratio measures the exchange.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include <mpi.h>

#include <dash/comm/alltoall.hpp>
#include <dash/comm/alltoallv.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/array.hpp>
#include <dash/core/team.hpp>

#include "baselines/gups_mpi.hpp"
#include "runner/registry.hpp"
#include "suites/random_access.hpp"

namespace dash::bench::gups {

namespace {

// HPCC's pass criterion: at most 1% of the table's words wrong.
constexpr double max_wrong_fraction = 0.01;

class DashRandomAccess {
public:
  // Collective over Team::All().
  explicit DashRandomAccess(std::uint64_t table_words)
      : table_(table_words),
        team_(&table_.team()),
        layout_{table_words, table_.pattern().blocksize(0)},
        local_begin_(table_.lsize() == 0 ? table_words
                                         : table_.pattern().global_index(static_cast<std::size_t>(team_->myid()), 0)),
        buckets_(static_cast<int>(team_->size())),
        receive_counts_(team_->size()),
        received_(look_ahead * team_->size()) {
    reset();
  }

  // Collective: applies all 4 * table_words updates once.
  void run() {
    const int units = static_cast<int>(team_->size());
    const int me = team_->myid();
    const std::uint64_t first = first_update(layout_.words, units, me);
    std::uint64_t remaining = first_update(layout_.words, units, me + 1) - first;
    std::uint64_t position = stream_position(first);
    const std::size_t rounds = look_ahead_rounds(layout_.words, units);
    for (std::size_t round = 0; round < rounds; ++round) {
      const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, look_ahead));
      remaining -= count;
      buckets_.fill(position, count, layout_);
      comm::alltoall(buckets_.send_counts(), receive_counts_, *team_);
      const std::span<std::uint64_t> arrivals(
          received_.data(), std::accumulate(receive_counts_.begin(), receive_counts_.end(), std::size_t{0}));
      comm::alltoallv(buckets_.addresses(), std::span<const std::size_t>(buckets_.send_counts()), arrivals,
                      std::span<const std::size_t>(receive_counts_), *team_);
      apply_updates(arrivals, layout_, table_.local.span());
    }
  }
  void reset() { initialise_table(table_.local.span(), local_begin_); }

  std::span<const std::uint64_t> local() const noexcept { return table_.local.span(); }
  std::uint64_t local_begin() const noexcept { return local_begin_; }

private:
  Array<std::uint64_t> table_;
  Team* team_;
  BlockedTable layout_;
  std::uint64_t local_begin_;
  UpdateBuckets buckets_;
  std::vector<std::size_t> receive_counts_;
  std::vector<std::uint64_t> received_;
};

class RandomAccessWorkload final : public Workload {
public:
  RandomAccessWorkload(const Problem& problem, std::uint64_t table_words)
      : team_(problem.team),
        table_words_(table_words),
        dash_(table_words),
        mpi_(problem.team, table_words),
        dash_replay_(serial_replay(table_words, dash_.local_begin(), dash_.local().size())),
        mpi_replay_(serial_replay(table_words, mpi_.local_begin(), mpi_.local().size())) {}

  void run_impl() override {
    dash_.run();
    ++dash_applications_;
  }
  void run_baseline() override {
    mpi_.run();
    ++mpi_applications_;
  }
  void reset() override {
    dash_.reset();
    mpi_.reset();
    dash_applications_ = 0;
    mpi_applications_ = 0;
  }
  // HPCC's check on both tables: each holds what its number of runs since reset() must leave.
  bool verify() const override {
    const double allowed = max_wrong_fraction * static_cast<double>(table_words_);
    return static_cast<double>(wrong_words_of(Side::impl)) <= allowed &&
           static_cast<double>(wrong_words_of(Side::baseline)) <= allowed;
  }
  std::vector<double> extra_metrics(Side side) override { return {static_cast<double>(wrong_words_of(side))}; }

private:
  // Collective: the wrong words of one side's table, summed over all units.
  std::uint64_t wrong_words_of(Side side) const {
    std::uint64_t wrong = side == Side::impl
                              ? wrong_words(dash_.local(), dash_.local_begin(), dash_replay_, dash_applications_)
                              : wrong_words(mpi_.local(), mpi_.local_begin(), mpi_replay_, mpi_applications_);
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_UINT64_T, MPI_SUM, team_),
                    "dash-bench gups: MPI_Allreduce");
    return wrong;
  }

  MPI_Comm team_;
  std::uint64_t table_words_;
  DashRandomAccess dash_;
  MpiRandomAccess mpi_;
  std::vector<std::uint64_t> dash_replay_;
  std::vector<std::uint64_t> mpi_replay_;
  int dash_applications_ = 0;
  int mpi_applications_ = 0;
};

std::vector<std::size_t> table_sizes(Sweep sweep) {
  constexpr std::size_t words_2_20 = std::size_t{1} << 20;
  if (sweep == Sweep::quick) {
    return {words_2_20};
  }
  return {words_2_20, words_2_20 << 2, words_2_20 << 4};
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

const CaseRegistration random_access_case{Case{
    .suite = "gups",
    .name = "random_access",
    .impl = "dash::Array table, look-ahead 1024, dash::comm::alltoall + alltoallv",
    .baseline = "std::vector table, the same algorithm with MPI_Alltoall + MPI_Alltoallv",
    .size_unit = "64-bit words in the table (all ranks)",
    .sizes = table_sizes,
    .active_rank_counts = whole_job,
    .rate = Rate{"GUP/s",
                 [](std::size_t words, int) { return static_cast<double>(updates_per_word * words) / 1e9; }},
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      if (!std::has_single_bit(problem.size)) {
        throw invalid_argument("dash-bench gups", "size", problem.size,
                               "a power of two (the table has 2^m words, HPCC RandomAccess)");
      }
      return std::make_unique<RandomAccessWorkload>(problem, problem.size);
    },
    .calls_per_run = nullptr,
    .extra_metrics = {ExtraMetric{"wrong_words", ""}},
}};

}  // namespace

}  // namespace dash::bench::gups
