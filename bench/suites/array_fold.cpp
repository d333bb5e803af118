// The array suite's folds: what the STL's typing of dash::accumulate costs.
//
// accumulate_bytes: a count over a dash::Array<std::uint8_t> into a std::uint64_t init, the fold
// that wrapped at 256 while dash::accumulate folded in the element type. dash::accumulate (each unit
// folds its part, then one allreduce of one value) against a raw loop over the same local bytes and
// MPI_Allreduce. Owner-computes with one 8-byte allreduce, so the ratio should stay near 1.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/algorithms/accumulate.hpp>
#include <dash/algorithms/for_each.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/array.hpp>
#include <dash/core/team.hpp>

#include "runner/registry.hpp"

namespace dash::bench::array {

namespace {

// Byte g holds g mod 251: sums exceed a byte many times over and no two neighbours are equal.
std::uint8_t byte_at(std::size_t global_index) { return static_cast<std::uint8_t>(global_index % 251); }

class AccumulateBytesWorkload final : public Workload {
public:
  explicit AccumulateBytesWorkload(const Problem& problem)
      : team_(problem.team), bytes_(problem.size * static_cast<std::size_t>(problem.active_ranks)) {
    dash::for_each_with_index(bytes_.begin(), bytes_.end(),
                              [](std::uint8_t& x, std::size_t g) { x = byte_at(g); });
    // The exact sum, from the formula: every full cycle of 251 bytes sums to 250 * 251 / 2.
    const std::uint64_t n = bytes_.size();
    const std::uint64_t rest = n % 251;
    expected_ = n / 251 * (250 * 251 / 2) + rest * (rest - 1) / 2;
  }

  void run_impl() override { sum_ = dash::accumulate(bytes_.begin(), bytes_.end(), std::uint64_t{0}); }
  void run_baseline() override {
    const std::uint8_t* const local = bytes_.local.data();
    const std::size_t count = bytes_.local.size();
    // A sum whose address is never taken: byte loads may alias any object, so summing straight into
    // the allreduce's buffer would store it on every iteration instead of vectorising the loop.
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < count; ++i) {
      sum += local[i];
    }
    const std::uint64_t mine = sum;
    comm::check_mpi(MPI_Allreduce(&mine, &sum_, 1, MPI_UINT64_T, MPI_SUM, team_), "dash-bench array: MPI_Allreduce");
  }
  void reset() override { sum_ = 0; }
  bool verify() const override { return sum_ == expected_; }

private:
  MPI_Comm team_;
  Array<std::uint8_t> bytes_;
  std::uint64_t expected_ = 0;
  std::uint64_t sum_ = 0;
};

std::vector<std::size_t> bytes_per_unit(Sweep sweep) {
  constexpr std::size_t bytes_2_24 = std::size_t{1} << 24;
  if (sweep == Sweep::quick) {
    return {bytes_2_24, bytes_2_24 << 2};
  }
  return {bytes_2_24, bytes_2_24 << 2, bytes_2_24 << 4};
}

const CaseRegistration accumulate_bytes_case{Case{
    .suite = "array",
    .name = "accumulate_bytes",
    .impl = "dash::accumulate(a, std::uint64_t{0}) over a dash::Array<std::uint8_t>",
    .baseline = "raw loop over the same local bytes into a std::uint64_t, MPI_Allreduce",
    .size_unit = "bytes per unit",
    .sizes = bytes_per_unit,
    .active_rank_counts = [](int job_size) { return std::vector<int>{job_size}; },
    .rate = Rate{"GB/s", [](std::size_t per_unit, int units) { return static_cast<double>(per_unit) * units / 1e9; }},
    .make_workload = [](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<AccumulateBytesWorkload>(problem);
    },
    .calls_per_run = nullptr,
}};

}  // namespace

}  // namespace dash::bench::array
