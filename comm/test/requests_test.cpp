// Non-blocking collectives: partial completion (each block reported once, early blocks
// consumable before the last one lands), continuations, and concurrent collectives on the same
// and on different groups that must never match each other's messages.

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

Options forced(std::string algorithm) {
  Options options;
  options.algorithm = std::move(algorithm);
  return options;
}

// The last rank starts its alltoall only when every other rank has been reported the blocks of
// all senders but it, and told it so: those blocks were consumable while the late block did not
// exist, and no request could complete without it.
TEST(PartialCompletion, EverySourceArrivesOnceAndEarlyBlocksComeFirst) {
  constexpr std::size_t n = 64;
  constexpr int reported_all_but_late = 1;
  const int late = P() - 1;
  std::vector<int> in(n * static_cast<std::size_t>(P()));
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = me() * 100000 + static_cast<int>(i);
  }
  std::vector<int> out(in.size(), -1);
  MPI_Comm signals = MPI_COMM_NULL;
  MPI_Comm_dup(dash::comm::base_comm(), &signals);
  std::vector<int> order;
  const auto record = [&](const dash::comm::Arrival<int>& arrival) {
    order.push_back(arrival.source);
    // The block is final when reported: check it right away.
    ASSERT_EQ(arrival.count, n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(arrival.data[i], arrival.source * 100000 + me() * static_cast<int>(n) + static_cast<int>(i));
    }
    EXPECT_EQ(arrival.data, out.data() + static_cast<std::size_t>(arrival.source) * n);
  };
  if (me() == late) {
    for (int early = 0; early < late; ++early) {
      int note = 0;
      MPI_Recv(&note, 1, MPI_INT, early, reported_all_but_late, signals, MPI_STATUS_IGNORE);
    }
    auto request = dash::comm::ialltoall(in, out, Group::world(), forced("linear"));
    request.for_each_arrival(record);
    EXPECT_TRUE(request.done());
  } else {
    auto request = dash::comm::ialltoall(in, out, Group::world(), forced("linear"));
    // Ends only if arrivals are reported before completion (held back, the job hangs until CTest ends it).
    bool completed_without_late = false;
    while (order.size() < static_cast<std::size_t>(P() - 1) && !completed_without_late) {
      completed_without_late = request.test_arrivals(record);
    }
    EXPECT_FALSE(completed_without_late) << "the alltoall completed before the late rank started it";
    EXPECT_EQ(std::count(order.begin(), order.end(), late), 0) << "a block of the late rank, which has not started";
    MPI_Send(&reported_all_but_late, 1, MPI_INT, late, reported_all_but_late, signals);
    request.for_each_arrival(record);
    EXPECT_TRUE(request.done());
    EXPECT_EQ(order.back(), late);
  }
  MPI_Comm_free(&signals);
  std::multiset<int> sources(order.begin(), order.end());
  for (int source = 0; source < P(); ++source) {
    EXPECT_EQ(sources.count(source), 1u) << "source " << source;
  }
}

TEST(PartialCompletion, ReductionsReportEachSegmentOnce) {
  const std::size_t n = 1000;
  std::vector<double> in(n, 1.0 + me());
  std::vector<double> out(n, 0.0);
  Options options = forced("ring");
  options.segments = 5;
  auto request = dash::comm::iallreduce(in, out, dash::plus{}, Group::world(), options);
  std::set<std::size_t> covered;
  std::size_t elements = 0;
  request.for_each_arrival([&](const dash::comm::Arrival<double>& arrival) {
    EXPECT_EQ(arrival.source, -1);
    EXPECT_TRUE(covered.insert(arrival.block).second) << "segment " << arrival.block << " reported twice";
    elements += arrival.count;
  });
  EXPECT_EQ(elements, n);
  const double expected = P() * (P() + 1) / 2.0;
  for (const double value : out) {
    ASSERT_EQ(value, expected);
  }
}

TEST(Requests, ContinuationsRunOnceAfterCompletion) {
  std::vector<int> in{me()};
  std::vector<int> out(1);
  int runs = 0;
  auto request = dash::comm::iallreduce(in, out, dash::max{});
  request.then([&] { ++runs; }).then([&] { runs += 10; });
  request.wait();
  EXPECT_EQ(runs, 11);
  request.wait();
  EXPECT_EQ(runs, 11);
  EXPECT_EQ(out[0], P() - 1);
  int late_runs = 0;
  request.then([&] { ++late_runs; });
  EXPECT_EQ(late_runs, 1) << "a continuation on a complete request runs at once";
}

TEST(Requests, WhenAnyReturnsACompletedRequest) {
  std::vector<int> in(8, me());
  std::vector<int> a(8);
  std::vector<int> b(8 * static_cast<std::size_t>(P()));
  auto first = dash::comm::iallreduce(in, a, dash::plus{});
  auto second = dash::comm::iallgather(in, b);
  const std::size_t index = dash::comm::when_any(first, second);
  EXPECT_TRUE(index == 0 ? first.done() : second.done());
  first.wait();
  second.wait();
  EXPECT_EQ(a[0], P() * (P() - 1) / 2);
}

TEST(ConcurrentCollectives, InterleavedRequestsOnOneGroupDoNotMatch) {
  // Same algorithm, same sizes, different data, completed in the opposite order of starting.
  std::vector<int> in_a(33, me());
  std::vector<int> in_b(33, 1000 + me());
  std::vector<int> out_a(33);
  std::vector<int> out_b(33);
  auto a = dash::comm::iallreduce(in_a, out_a, dash::plus{}, Group::world(), forced("recursive_doubling"));
  auto b = dash::comm::iallreduce(in_b, out_b, dash::plus{}, Group::world(), forced("recursive_doubling"));
  b.wait();
  a.wait();
  const int sum = P() * (P() - 1) / 2;
  EXPECT_EQ(out_a, std::vector<int>(33, sum));
  EXPECT_EQ(out_b, std::vector<int>(33, 1000 * P() + sum));
}

TEST(ConcurrentCollectives, DisjointAndOverlappingGroupsDoNotMatch) {
  // Even and odd ranks form two groups; the world runs a collective at the same time.
  std::vector<int> members;
  for (int r = me() % 2; r < P(); r += 2) {
    members.push_back(r);
  }
  const dash::comm::TagSpace tags{Group::world_tag_space().first + Group::world_tag_space().count + 1000 * (me() % 2),
                                  1000};
  const Group parity = Group::of_base_ranks(members, tags);
  EXPECT_EQ(parity.size(), static_cast<int>(members.size()));
  EXPECT_EQ(parity.base_rank(parity.rank()), me());

  std::vector<long> in(17, me() + 1);
  std::vector<long> in_parity(17, 100 * (me() + 1));
  std::vector<long> out_world(17);
  std::vector<long> out_parity(17);
  auto world = dash::comm::iallreduce(in, out_world, dash::plus{}, Group::world(), forced("ring"));
  auto sub = dash::comm::iallreduce(in_parity, out_parity, dash::plus{}, parity, forced("ring"));
  sub.wait();
  world.wait();
  long parity_sum = 0;
  for (const int r : members) {
    parity_sum += 100 * (r + 1);
  }
  EXPECT_EQ(out_world, std::vector<long>(17, static_cast<long>(P()) * (P() + 1) / 2));
  EXPECT_EQ(out_parity, std::vector<long>(17, parity_sum));
}

// More calls outstanding than the group has tags: the sequence wraps onto tags of running calls,
// which must finish before their tag serves again. Waited for in reverse order, so that the last
// calls' messages are about while the first ones still run.
TEST(ConcurrentCollectives, MoreCallsThanTagsKeepTheirMessagesApart) {
  std::vector<int> everyone(static_cast<std::size_t>(P()));
  std::iota(everyone.begin(), everyone.end(), 0);
  const int after_world = Group::world_tag_space().first + Group::world_tag_space().count;
  const Group few_tags = Group::of_base_ranks(everyone, dash::comm::TagSpace{after_world, 4});
  constexpr int calls = 24;
  for (const char* algorithm : {"ring", "recursive_doubling", ""}) {
    SCOPED_TRACE(algorithm);
    std::vector<std::vector<long>> in(calls);
    std::vector<std::vector<long>> out(calls);
    std::vector<dash::comm::Request<long>> requests;
    for (int k = 0; k < calls; ++k) {
      in[static_cast<std::size_t>(k)].assign(6, me() + 10L * k);
      out[static_cast<std::size_t>(k)].assign(6, -1);
      requests.push_back(dash::comm::iallreduce(in[static_cast<std::size_t>(k)], out[static_cast<std::size_t>(k)],
                                                dash::plus{}, few_tags, forced(algorithm)));
    }
    for (int k = calls - 1; k >= 0; --k) {
      requests[static_cast<std::size_t>(k)].wait();
    }
    bool ok = true;
    for (int k = 0; k < calls; ++k) {
      const long expected = static_cast<long>(P()) * 10L * k + static_cast<long>(P()) * (P() - 1) / 2;
      ok = ok && out[static_cast<std::size_t>(k)] == std::vector<long>(6, expected);
    }
    EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  }
}

TEST(Groups, TagSpacesOfFewerThanTwoTagsAreRejected) {
  EXPECT_THROW(static_cast<void>(Group::of_base_ranks({me()}, dash::comm::TagSpace{20000, 1})),
               dash::InvalidArgument);
}

TEST(Groups, BadMembershipIsRejected) {
  const int outsider = (me() + 1) % P();
  if (P() > 1) {
    try {
      Group::of_base_ranks({outsider}, {20000, 10});
      FAIL() << "no exception";
    } catch (const dash::InvalidArgument& error) {
      EXPECT_NE(std::string(error.what()).find("a list that contains the calling process"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_THROW(Group::of_base_ranks({me(), me()}, {20000, 10}), dash::InvalidArgument);
  EXPECT_THROW(Group::of_base_ranks({me(), P()}, {20000, 10}), dash::OutOfRange);
  EXPECT_THROW(Group::world().base_rank(P()), dash::OutOfRange);
}

}  // namespace

namespace {

TEST(UserOperations, CapturingLambdasWork) {
  const int offset = 0;  // captured: the closure type has no default constructor
  const auto add = dash::comm::commutative([offset](long a, long b) { return a + b + offset; });
  std::vector<long> in(5, me() + 1);
  std::vector<long> out(5);
  dash::comm::allreduce(in, out, add);
  EXPECT_EQ(out, std::vector<long>(5, static_cast<long>(P()) * (P() + 1) / 2));
}

}  // namespace
