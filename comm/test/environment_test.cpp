#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/mpi_call.hpp>

#include "dash_testing.hpp"

namespace {

TEST(Environment, RanksMatchMpiCommWorld) {
  int rank = -1;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_TRUE(dash::is_initialized());
  EXPECT_FALSE(dash::is_finalized());
  EXPECT_EQ(dash::myid(), rank);
  EXPECT_EQ(dash::size(), static_cast<std::size_t>(size));
}

TEST(Environment, BaseCommIsAPrivateDuplicateThatReturnsErrors) {
  const MPI_Comm base = dash::comm::base_comm();
  int comparison = MPI_UNEQUAL;
  MPI_Comm_compare(base, MPI_COMM_WORLD, &comparison);
  EXPECT_EQ(comparison, MPI_CONGRUENT);
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(base, &handler);
  EXPECT_EQ(handler, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler);
}

TEST(Environment, BarrierSynchronises) {
  // Every rank publishes a value before the barrier; after it, a one-sided-free check: the sum
  // over all ranks is complete on every rank.
  dash::barrier();
  const int one = 1;
  int total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, dash::comm::base_comm());
  EXPECT_EQ(static_cast<std::size_t>(total), dash::size());
}

TEST(Environment, InitTwiceIsAnError) {
  try {
    dash::init();
    FAIL() << "dash::init did not throw";
  } catch (const dash::InvalidState& error) {
    EXPECT_STREQ(error.what(),
                 "dash::init: the library is already initialised (dash::init was called twice "
                 "without dash::finalize in between)");
  }
  EXPECT_TRUE(dash::is_initialized());
}

TEST(Environment, NestedEnvironmentIsAnError) { EXPECT_THROW(dash::Environment nested, dash::InvalidState); }

TEST(Environment, ThreadLevelIsReported) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  const bool at_least_funneled = dash::comm::provided_thread_level() >= dash::comm::ThreadLevel::funneled;
  EXPECT_EQ(at_least_funneled, provided >= MPI_THREAD_FUNNELED);
  EXPECT_TRUE(dash::comm::owns_mpi());
}

TEST(MpiErrors, FailingCallBecomesMpiErrorWithMpiText) {
  // Sending to a rank that does not exist fails on the library's communicator (MPI_ERRORS_RETURN)
  // instead of aborting the job.
  const int size = static_cast<int>(dash::size());
  int value = 0;
  try {
    dash::comm::check_mpi(MPI_Send(&value, 1, MPI_INT, size + 3, 0, dash::comm::base_comm()),
                          "dash::test: MPI_Send");
    FAIL() << "MPI_Send to rank " << size + 3 << " did not fail";
  } catch (const dash::MpiError& error) {
    EXPECT_EQ(error.call(), "dash::test: MPI_Send");
    EXPECT_EQ(error.error_class(), MPI_ERR_RANK);
    const std::string what = error.what();
    EXPECT_EQ(what.rfind("dash::test: MPI_Send failed: ", 0), 0u) << what;
    EXPECT_NE(what.find(error.mpi_message()), std::string::npos) << what;
  }
}

// Runs `body` with file descriptor 2 redirected to a temporary file and returns what was written.
template <class Body>
std::string capture_stderr(Body body) {
  std::fflush(stderr);
  char path[] = "/tmp/dash_log_XXXXXX";
  const int file = mkstemp(path);
  const int saved = dup(STDERR_FILENO);
  dup2(file, STDERR_FILENO);
  body();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  lseek(file, 0, SEEK_SET);
  char buffer[512];
  ssize_t n = 0;
  while ((n = read(file, buffer, sizeof buffer)) > 0) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(file);
  unlink(path);
  return text;
}

TEST(Logging, LinesCarryRankPrefixAndRespectTheLevel) {
  const dash::comm::LogLevel previous = dash::comm::log_level();
  dash::comm::set_log_level(dash::comm::LogLevel::info);
  const std::string text = capture_stderr([] {
    dash::comm::log(dash::comm::LogLevel::info, "value ", 42);
    dash::comm::log(dash::comm::LogLevel::debug, "hidden");
  });
  dash::comm::set_log_level(previous);
  const std::string expected = "[dash " + std::to_string(dash::myid()) + "/" +
                               std::to_string(dash::size()) + " info] value 42\n";
  EXPECT_EQ(text, expected);
}

TEST(Logging, OffSilencesEverything) {
  const dash::comm::LogLevel previous = dash::comm::log_level();
  dash::comm::set_log_level(dash::comm::LogLevel::off);
  const std::string text = capture_stderr([] { dash::comm::log(dash::comm::LogLevel::error, "x"); });
  dash::comm::set_log_level(previous);
  EXPECT_TRUE(text.empty()) << text;
}

TEST(Harness, SeedsDifferPerRankAndRepeat) {
  const std::uint64_t first = dash::testing::seed();
  EXPECT_EQ(first, dash::testing::seed());
  std::uint64_t from_rank0 = first;
  MPI_Bcast(&from_rank0, 1, MPI_UINT64_T, 0, dash::comm::base_comm());
  EXPECT_EQ(first == from_rank0, dash::myid() == 0);
}

TEST(Harness, OnAllRanksAgrees) {
  EXPECT_TRUE(dash::testing::on_all_ranks(true));
  EXPECT_FALSE(dash::testing::on_all_ranks(dash::myid() != 0));
}

}  // namespace
