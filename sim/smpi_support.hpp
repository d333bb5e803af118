#pragma once
// What every SMPI driver of sim/ needs from the simulation (sim/README.md): folded memory for large buffers,
// waiting instead of polling, a scalable MPI_Exscan (the last two by link wrapping, sim/CMakeLists.txt), the
// slowest rank's time of a call, and the command-line and result-header helpers the drivers share.

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include <dash/comm/environment.hpp>

namespace dash::sim {

// From now on, allocations of `bytes` or more (0: none) on this simulated rank come from SMPI's shared malloc,
// which maps all of them onto the same physical pages and copies no payload between them: their data is
// meaningless, so a driver verifies only what stays below the threshold.
void fold_allocations_from(std::size_t bytes);
std::size_t fold_threshold();

// While one lives, nothing this simulated rank allocates is folded: for work whose large tables must read
// back what was written to them, such as planning a point (the cost model lays out the schedules of all P
// ranks), unlike collective buffers and scratch.
class UnfoldedAllocations {
public:
  UnfoldedAllocations() noexcept;
  ~UnfoldedAllocations();
  UnfoldedAllocations(const UnfoldedAllocations&) = delete;
  UnfoldedAllocations& operator=(const UnfoldedAllocations&) = delete;

private:
  std::size_t folded_from_;
};
// From now on, a test of requests (MPI_Testsome, as the library calls it) that completes none charges this
// simulated rank `seconds` (doubling for each further idle test in a row, up to 8 times) and returns, instead of
// waiting for the first completion (0: wait, the default).
// For drivers whose ranks work while their collectives run (sim/smpi_support.cpp says why).
void poll_with_cost(double seconds);
// MPI_Test of one request, charged as the library's tests are (above): for a driver's own requests, e.g. those of
// SMPI's non-blocking collectives, so that they poll at the same cost as ours.
int test_with_cost(MPI_Request* request, int* done);
// Charges this simulated rank `seconds` of computation; the next idle test is again a first one in a row.
void charge(double seconds);
// Called once dash::finalize has returned: SMPI may tear its shared malloc down before static caches release
// their folded blocks, which are then left to the end of the process.
void mark_rank_finished();

// Seconds of the slowest rank for one call of `call`, on rank 0 of `comm` (0 elsewhere).
template <class Call>
double slowest_rank_seconds(MPI_Comm comm, Call&& call) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  call();
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  return slowest;
}

// One point of a sweep: `call` `warmup` times untimed, then `reps` times timed (the slowest rank's seconds each);
// on rank 0 of `comm` the median, fastest and slowest of them.
struct PointTimes {
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
};
template <class Call>
PointTimes time_point(MPI_Comm comm, int warmup, int reps, Call&& call) {
  for (int rep = 0; rep < warmup; ++rep) {
    slowest_rank_seconds(comm, call);
  }
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    times.push_back(slowest_rank_seconds(comm, call));
  }
  std::sort(times.begin(), times.end());
  return times.empty() ? PointTimes{} : PointTimes{times[times.size() / 2], times.front(), times.back()};
}

// Whether `correct` holds on every rank of `comm` (collective).
bool correct_everywhere(MPI_Comm comm, bool correct);

// "a,b,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(std::string_view text);
// A non-negative integer option value; throws dash::InvalidArgument naming `tool` and `option` otherwise.
std::size_t parse_count(const std::string& text, std::string_view option, std::string_view tool);
std::string utc_timestamp();
std::string mpi_library_version();

// A driver's main: parses the command line (exit 2 on a mistake), then runs between dash::init and
// dash::finalize; an exception on any rank aborts the simulation.
template <class Arguments>
int driver_main(int argc, char** argv, std::string_view tool, Arguments (*parse)(int, char**),
                int (*run)(const Arguments&)) {
  Arguments arguments;
  try {
    arguments = parse(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  int code = 2;
  {
    dash::Environment environment(argc, argv);
    try {
      code = run(arguments);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%.*s: error on rank %d: %s\n", static_cast<int>(tool.size()), tool.data(), dash::myid(),
                   error.what());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  mark_rank_finished();
  return code;
}

}  // namespace dash::sim
