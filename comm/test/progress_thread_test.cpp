// The progress thread (DASH_PROGRESS_THREAD=1, set by CTest for this program): collectives
// complete while the application never calls into dash, results and arrivals stay exact while
// the thread and the application progress the same collective, and errors still surface.

#include <chrono>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::comm::Group;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

TEST(ProgressThread, RunsWithMultipleThreadSupport) {
  ASSERT_STREQ(std::getenv("DASH_PROGRESS_THREAD"), "1") << "CTest runs this program with the progress thread on";
  EXPECT_EQ(dash::comm::provided_thread_level(), dash::comm::ThreadLevel::multiple);
}

// Waits until the progress thread completed `request`, calling only done(), which reads the state
// and drives nothing. Sleeps between looks to leave the cores to the thread: how long it takes
// decides nothing (a thread that never completes it leaves the job hung, which CTest ends).
template <class T>
void await_completion_by_the_thread(const dash::comm::Request<T>& request) {
  while (!request.done()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// A rendezvous-sized alltoall that no rank ever tests or waits for: only the thread can complete it.
TEST(ProgressThread, CompletesACollectiveNobodyWaitsFor) {
  constexpr std::size_t n = 64 * 1024;  // 256 KiB per pair: beyond the eager limits
  std::vector<int> in(n * static_cast<std::size_t>(P()));
  std::iota(in.begin(), in.end(), me() * 1000);
  std::vector<int> out(in.size(), -1);
  auto request = dash::comm::ialltoall(in, out);
  await_completion_by_the_thread(request);
  bool correct = true;
  for (int source = 0; source < P(); ++source) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(source) * n + i;
      correct = correct && out[at] == source * 1000 + me() * static_cast<int>(n) + static_cast<int>(i);
    }
  }
  EXPECT_TRUE(correct);
  EXPECT_TRUE(dash::testing::on_all_ranks(correct));
}

// Every allgather algorithm the thread can drive, 3 segments: each (source, segment) reported once.
// With `thread_finished_first` the application takes no arrival before the thread completed the call.
void expect_each_allgather_block_once(bool thread_finished_first) {
  for (const std::string_view algorithm : dash::comm::algorithms(dash::comm::Coll::allgather)) {
    const bool power_of_two = (P() & (P() - 1)) == 0;
    // Skipped: arrival order, group sizes an algorithm does not serve, and the grid algorithms
    // (they need DASH_TOPOLOGY to name a grid of the job's ranks; mpi_collectives covers them).
    if (algorithm == "bruck_noncanonical" || (algorithm == "neighbor_exchange" && P() % 2 != 0) ||
        (algorithm == "distance_halving" && !power_of_two) || algorithm == "torus_order" ||
        algorithm.starts_with("bucket")) {
      continue;
    }
    constexpr std::size_t n = 3000;
    std::vector<double> in(n, me() + 0.5);
    std::vector<double> out(n * static_cast<std::size_t>(P()), -1.0);
    dash::comm::Options options;
    options.algorithm = std::string(algorithm);
    options.segments = 3;
    // The thread does not drive the arena, so these are refused (the hierarchical one also because
    // the job is on one node).
    if (algorithm.starts_with("shared_memory") || algorithm == "hierarchical") {
      EXPECT_THROW(dash::comm::iallgather(in, out, Group::world(), options), dash::InvalidArgument);
      continue;
    }
    auto request = dash::comm::iallgather(in, out, Group::world(), options);
    if (thread_finished_first) {
      await_completion_by_the_thread(request);
    }
    std::multiset<std::pair<int, std::size_t>> seen;
    request.for_each_arrival([&](const dash::comm::Arrival<double>& arrival) {
      seen.emplace(arrival.source, arrival.block);
      for (std::size_t i = 0; i < arrival.count; ++i) {
        ASSERT_EQ(arrival.data[i], arrival.source + 0.5) << algorithm;
      }
    });
    std::multiset<std::pair<int, std::size_t>> expected;
    for (int source = 0; source < P(); ++source) {
      for (std::size_t segment = 0; segment < 3; ++segment) {
        expected.emplace(source, segment);
      }
    }
    EXPECT_EQ(seen, expected) << algorithm;
  }
}

// Each block is reported exactly once, whether the application drains the arrivals while the
// thread finishes steps too, or only after the thread alone finished every step.
TEST(ProgressThread, ArrivalsStayExactlyOnce) {
  for (const bool thread_finished_first : {false, true}) {
    SCOPED_TRACE(thread_finished_first ? "drained after the thread completed the call"
                                       : "drained alongside the thread");
    expect_each_allgather_block_once(thread_finished_first);
  }
}

// Several collectives in flight at once, completed out of order, against MPI's own results.
TEST(ProgressThread, ConcurrentCollectivesMatchMpi) {
  constexpr std::size_t n = 20000;
  std::vector<long> in(n);
  std::iota(in.begin(), in.end(), static_cast<long>(me()) * 7);
  std::vector<long> sum(n), maximum(n), gathered(n * static_cast<std::size_t>(P()));
  auto first = dash::comm::iallreduce(in, sum, dash::plus{});
  auto second = dash::comm::iallreduce(in, maximum, dash::max{});
  auto third = dash::comm::iallgather(in, gathered);
  third.wait();
  second.wait();
  first.wait();
  std::vector<long> expected_sum(n), expected_max(n), expected_gathered(gathered.size());
  MPI_Allreduce(in.data(), expected_sum.data(), static_cast<int>(n), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(in.data(), expected_max.data(), static_cast<int>(n), MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allgather(in.data(), static_cast<int>(n), MPI_LONG, expected_gathered.data(), static_cast<int>(n), MPI_LONG,
                MPI_COMM_WORLD);
  const bool ok = sum == expected_sum && maximum == expected_max && gathered == expected_gathered;
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
}

// A request destroyed before it completes still completes (blocking), thread or not.
TEST(ProgressThread, DestroyingARunningRequestCompletesIt) {
  std::vector<int> in(4096, me());
  std::vector<int> out(in.size() * static_cast<std::size_t>(P()), -1);
  {
    auto request = dash::comm::iallgather(in, out);
  }
  bool ok = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    ok = ok && out[i] == static_cast<int>(i / in.size());
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
}

#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
// Open MPI 4's one-sided components are wrong or absent under MPI_THREAD_MULTIPLE: allocating global
// memory says so, on every unit, instead of failing obscurely (docs/configuration.md).
TEST(ProgressThread, GlobalMemoryExplainsTheOpenMpiLimit) {
  bool explained = false;
  try {
    dash::Array<int> a(8);
  } catch (const dash::InvalidState& error) {
    explained = std::string_view(error.what()).find("MPI_THREAD_MULTIPLE") != std::string_view::npos;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(explained));
}
#endif

}  // namespace
