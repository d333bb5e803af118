// The MPI-aware GoogleTest main shared by every MPI test (docs/design.md §5).
//
// - initialises dash once (dash owns MPI) and finalises it at the end;
// - only rank 0 prints gtest's normal output; other ranks print their own failures, prefixed
//   with the rank, and the seed the test drew;
// - after every test the ranks agree on the outcome over a private communicator; rank 0 names
//   the ranks on which the test failed, and every rank exits non-zero if any test failed on any
//   rank;
// - a rank whose test failed while other ranks are still inside the test body (stuck in a
//   collective the failing rank left) waits DASH_TEST_AGREE_TIMEOUT seconds for them, then reports
//   and aborts the job, so a failure is never turned into a hang;
// - with DASH_TEST_EXPECT_NODES=n0,n1,... (the virtual cluster's runs, cmake/DashClusterTest.cmake)
//   it first checks that dash detected that placement: n0 ranks on node 0, the next n1 on node 1,
//   and so on. A launcher or detection fault that put the job on one node fails the run instead
//   of passing it on the single-node code paths;
// - when every test passed on every rank, rank 0 says so in one line ("every test passed on all n
//   ranks"); with DASH_TEST_FINALIZE_WATCHDOG=s (MPICH 4.0's runs on the virtual cluster, whose
//   MPI_Finalize now and then hangs over TCP: docs/testing.md) each rank ends itself with the agreed
//   exit code when dash::finalize has not returned after s seconds, and CTest judges the run by
//   that line instead of the launcher's exit code.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/abort_job.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>

#include "dash_testing.hpp"

namespace {

MPI_Comm harness_comm = MPI_COMM_NULL;
int harness_rank = 0;
int harness_size = 1;
std::optional<std::uint64_t> current_seed;

double agree_timeout_seconds() {
  const char* raw = std::getenv("DASH_TEST_AGREE_TIMEOUT");
  if (raw == nullptr) {
    return 60.0;
  }
  char* end = nullptr;
  const double value = std::strtod(raw, &end);
  if (end == raw || value <= 0.0) {
    std::fprintf(stderr, "DASH_TEST_AGREE_TIMEOUT='%s' is not a positive number of seconds\n", raw);
    std::exit(2);
  }
  return value;
}

// Completes `request`, or aborts the whole job after the agreement timeout.
void wait_or_abort(MPI_Request& request, const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(agree_timeout_seconds());
  int done = 0;
  while (true) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) {
      return;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      std::array<char, 32> seconds{};
      std::snprintf(seconds.data(), seconds.size(), "%.0f", agree_timeout_seconds());
      dash::comm::abort_job(1, "[rank " + std::to_string(harness_rank) + "] other ranks did not finish " + what +
                                   " within DASH_TEST_AGREE_TIMEOUT=" + seconds.data() +
                                   " s (probably blocked in a collective this rank left after a failure); aborting");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Whether this rank is where DASH_TEST_EXPECT_NODES places it (true if unset); says why not.
bool placed_as_expected() {
  const char* raw = std::getenv("DASH_TEST_EXPECT_NODES");
  if (raw == nullptr) {
    return true;
  }
  std::vector<int> sizes;
  for (const char* at = raw; *at != '\0';) {
    char* end = nullptr;
    const long size = std::strtol(at, &end, 10);
    if (end == at || size <= 0 || (*end != ',' && *end != '\0')) {
      std::fprintf(stderr, "DASH_TEST_EXPECT_NODES='%s' is no list of positive rank counts such as 1,2,3\n", raw);
      std::exit(2);
    }
    sizes.push_back(static_cast<int>(size));
    at = *end == ',' ? end + 1 : end;
  }
  int node = 0;
  int first = 0;
  while (node < static_cast<int>(sizes.size()) && harness_rank >= first + sizes[static_cast<std::size_t>(node)]) {
    first += sizes[static_cast<std::size_t>(node)];
    ++node;
  }
  const int size = node < static_cast<int>(sizes.size()) ? sizes[static_cast<std::size_t>(node)] : 0;
  const dash::comm::Locality& place = dash::comm::locality();
  if (place.node == node && place.node_size == size && place.node_count == static_cast<int>(sizes.size())) {
    return true;
  }
  std::fprintf(stderr,
               "[rank %d] DASH_TEST_EXPECT_NODES=%s places this rank on node %d of %zu, which holds %d rank(s); dash "
               "detected node %d of %d, which holds %d\n",
               harness_rank, raw, node, sizes.size(), size, place.node, place.node_count, place.node_size);
  return false;
}

// Prints this (non-zero) rank's failures; gtest's own printer runs on rank 0 only.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) {
      return;
    }
    std::string text = "[rank " + std::to_string(harness_rank) + "] ";
    text += result.file_name() != nullptr ? result.file_name() : "unknown file";
    text += ':';
    text += std::to_string(result.line_number());
    text += ": Failure\n";
    text += result.message();
    text += '\n';
    if (current_seed) {
      text += "[rank " + std::to_string(harness_rank) + "] test seed = " +
              std::to_string(*current_seed) + "\n";
    }
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }
};

// Agrees on each test's outcome across ranks and remembers the tests that failed anywhere.
class CrossRankVerdict : public ::testing::EmptyTestEventListener {
public:
  const std::vector<std::string>& failed_anywhere() const { return failed_anywhere_; }

private:
  void OnTestStart(const ::testing::TestInfo&) override { current_seed.reset(); }

  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed() && harness_rank == 0 && current_seed) {
      std::printf("[rank 0] test seed = %llu\n", static_cast<unsigned long long>(*current_seed));
    }
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    const std::string name = std::string(info.test_suite_name()) + "." + info.name();
    const int failed_here = info.result()->Failed() ? 1 : 0;
    std::vector<int> failed(static_cast<std::size_t>(harness_size), 0);
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Iallgather(&failed_here, 1, MPI_INT, failed.data(), 1, MPI_INT, harness_comm, &request);
    wait_or_abort(request, name);
    if (std::none_of(failed.begin(), failed.end(), [](int f) { return f != 0; })) {
      return;
    }
    failed_anywhere_.push_back(name);
    if (harness_rank == 0) {
      std::string ranks;
      for (int r = 0; r < harness_size; ++r) {
        if (failed[static_cast<std::size_t>(r)] != 0) {
          ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
        }
      }
      std::printf("[  FAILED  ] %s failed on rank(s) %s of %d\n", name.c_str(), ranks.c_str(),
                  harness_size);
      std::fflush(stdout);
    }
  }

  std::vector<std::string> failed_anywhere_;
};

// DASH_TEST_FINALIZE_WATCHDOG=s: a thread that ends the process with `code`, the verdict all ranks
// agreed on, when finalisation has not finished s seconds from now.
void end_if_finalize_hangs(int code) {
  const char* seconds = std::getenv("DASH_TEST_FINALIZE_WATCHDOG");
  if (seconds == nullptr) {
    return;
  }
  const int limit = std::atoi(seconds);
  std::thread([code, limit] {
    std::this_thread::sleep_for(std::chrono::seconds(limit));
    std::fprintf(stderr, "[rank %d] MPI_Finalize has not returned after %d s (DASH_TEST_FINALIZE_WATCHDOG); ending "
                         "with the agreed exit code %d\n", harness_rank, limit, code);
    std::fflush(stderr);
    std::_Exit(code);
  }).detach();
}

}  // namespace

namespace dash::testing {

bool on_all_ranks(bool ok) {
  int local = ok ? 1 : 0;
  int global = 0;
  comm::check_mpi(MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_LAND, harness_comm),
                  "dash::testing::on_all_ranks: MPI_Allreduce");
  return global != 0;
}

std::uint64_t seed() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info == nullptr ? "no test" : std::string(info->test_suite_name()) + "." + info->name();
  constexpr std::uint64_t golden_ratio = 0x9E3779B97F4A7C15;
  const std::uint64_t value =
      std::uint64_t{std::hash<std::string>{}(name)} ^ (golden_ratio * static_cast<std::uint64_t>(harness_rank + 1));
  current_seed = value;
  return value;
}

}  // namespace dash::testing

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Comm_dup(MPI_COMM_WORLD, &harness_comm);
  MPI_Comm_rank(harness_comm, &harness_rank);
  MPI_Comm_size(harness_comm, &harness_size);
  if (!dash::testing::on_all_ranks(placed_as_expected())) {
    if (harness_rank == 0) {
      std::printf("the job does not run on the nodes DASH_TEST_EXPECT_NODES names; no test run\n");
    }
    MPI_Comm_free(&harness_comm);
    dash::finalize();
    return 1;
  }

  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (harness_rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter);
  }
  auto* verdict = new CrossRankVerdict;
  listeners.Append(verdict);

  const int local_result = RUN_ALL_TESTS();
  const std::vector<std::string> failed = verdict->failed_anywhere();

  int any_failure = (local_result != 0 || !failed.empty()) ? 1 : 0;
  int global_failure = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&any_failure, &global_failure, 1, MPI_INT, MPI_MAX, harness_comm, &request);
  wait_or_abort(request, "the test program");
  if (harness_rank == 0 && global_failure != 0) {
    std::printf("%zu test(s) failed on at least one of %d rank(s):\n", failed.size(), harness_size);
    for (const std::string& name : failed) {
      std::printf("  %s\n", name.c_str());
    }
  }
  if (harness_rank == 0 && global_failure == 0) {
    std::printf("every test passed on all %d ranks\n", harness_size);
  }
  std::fflush(stdout);
  end_if_finalize_hangs(global_failure);
  MPI_Comm_free(&harness_comm);
  dash::finalize();
  return global_failure;
}
