// Collectives' errors and choices: forcing an unknown or unfit algorithm, size mismatches, groups of
// one member (no algorithm: a copy), the cost model's choice and explain() (the cheapest candidate,
// the network's prices between nodes), and, with cross-rank checks compiled in, arguments that
// differ between ranks reported on every rank.

#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "collectives_inputs.hpp"
#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::comm::Coll;
using dash::comm::Group;
using dash::comm::Options;
using dash::testing::mentions;
using dash::testing::thrown_message;
using namespace dash::testing::collectives;

TEST(Collectives, ForcingAnUnknownOrUnfitAlgorithmIsAnError) {
  std::vector<int> in(4, 1);
  std::vector<int> out(4);
  try {
    dash::comm::allreduce(in, out, dash::plus{}, Group::world(), forced("quantum"));
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::allreduce: invalid argument 'algorithm (forced by Options::algorithm)' = 'quantum'; "
              "expected one of recursive_doubling, rabenseifner, binary_blocks, ring, pairwise_ring, shared_memory, "
              "shared_memory_replicated, distance_halving, torus_order, bucket, bucket_3way, bucket_6way, "
              "hierarchical");
  }
  std::vector<Matrix> min(4, Matrix{1, 0, 0, 1});
  std::vector<Matrix> mout(4);
  try {
    dash::comm::allreduce(min, mout, matrix_product, Group::world(), forced("ring"));
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::allreduce: algorithm 'ring' (forced by Options::algorithm) cannot serve this call: it "
              "reorders contributions, so it needs a commutative operation");
  }
}

TEST(Collectives, SizeMismatchesAreErrors) {
  std::vector<int> in(4, 1);
  std::vector<int> out(3);
  try {
    dash::comm::allreduce(in, out, dash::plus{});
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::comm::allreduce: invalid argument 'out.size()' = 3; expected 4 (the size of in)");
  }
  EXPECT_THROW(dash::comm::bcast(in, P(), Group::world()), dash::OutOfRange);
  Options too_many_segments = forced("ring");
  too_many_segments.segments = 5;  // more segments than the 4 elements
  try {
    dash::comm::allreduce(in, in, dash::plus{}, Group::world(), too_many_segments);
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "dash::comm::allreduce: invalid argument 'options.segments' = 5; expected at most the 4 "
                               "element(s) of a contribution (0: the algorithm's default)");
  }
}

// A group of one member (each rank alone) takes no algorithm: every collective copies the
// member's contribution to its output or leaves the buffer alone, and never writes beside it.
TEST(Collectives, OneMemberGroupsCopyTheirContribution) {
  const Group alone = Group::of_base_ranks({me()}, dash::comm::TagSpace{31000 + me() * 32, 32});
  constexpr std::size_t n = 5;
  constexpr int guard = -7;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 100 * me() + 1);
  // The output with a guard element on each side.
  std::vector<int> padded(n + 2, guard);
  const std::span<int> out(padded.data() + 1, n);
  const auto expect_copied = [&](std::string_view collective) {
    EXPECT_TRUE(std::equal(out.begin(), out.end(), in.begin())) << collective;
    EXPECT_EQ(padded.front(), guard) << collective;
    EXPECT_EQ(padded.back(), guard) << collective;
    std::fill(out.begin(), out.end(), 0);
  };
  dash::comm::allreduce(in, out, dash::plus{}, alone);
  expect_copied("allreduce");
  dash::comm::reduce(in, out, dash::plus{}, 0, alone);
  expect_copied("reduce");
  dash::comm::allgather(in, out, alone);
  expect_copied("allgather");
  dash::comm::gather(in, out, 0, alone);
  expect_copied("gather");
  dash::comm::scatter(in, out, 0, alone);
  expect_copied("scatter");
  dash::comm::alltoall(in, out, alone);
  expect_copied("alltoall");
  dash::comm::reduce_scatter_block(in, out, dash::plus{}, alone);
  expect_copied("reduce_scatter_block");
  dash::comm::scan(in, out, dash::plus{}, alone);
  expect_copied("scan");
  dash::comm::exscan(in, out, dash::plus{}, alone);  // member 0's output is not touched
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](int v) { return v == 0; }));
  std::vector<int> buffer = in;
  dash::comm::bcast(buffer, 0, alone);
  EXPECT_EQ(buffer, in);
  dash::comm::allreduce(buffer, buffer, dash::plus{}, alone);  // in place
  EXPECT_EQ(buffer, in);
  dash::comm::barrier(alone);
  EXPECT_THROW(dash::comm::bcast(buffer, 1, alone), dash::OutOfRange);
  // A forced algorithm still runs (or is refused) as itself.
  dash::comm::allreduce(in, out, dash::plus{}, alone, forced("ring"));
  expect_copied("allreduce forced to ring");
}

// The library's choice is the candidate the cost model prices lowest, the first one on a tie; the
// others are listed with their prices, the unfit ones with the reason.
void expect_cheapest(const dash::comm::Choice& choice, Coll collective) {
  const std::vector<std::string_view> names = dash::comm::algorithms(collective);
  ASSERT_EQ(choice.candidates.size(), names.size());
  const dash::comm::Candidate* cheapest = nullptr;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const dash::comm::Candidate& candidate = choice.candidates[i];
    EXPECT_EQ(candidate.algorithm, names[i]);
    if (candidate.unfit.empty() && (cheapest == nullptr || candidate.predicted_seconds < cheapest->predicted_seconds)) {
      cheapest = &candidate;
    }
  }
  ASSERT_NE(cheapest, nullptr);
  EXPECT_EQ(choice.algorithm, cheapest->algorithm);
  EXPECT_NE(choice.reason.find("lowest predicted time"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("cost model alpha="), std::string::npos) << choice.reason;
}

TEST(Collectives, GroupsOnSeveralNodesPriceTheirMessagesWithTheNetworksParameters) {
  const bool several = dash::comm::locality().node_count > 1 && P() > 1;
  const dash::comm::CostParameters& machine = dash::comm::config().cost_parameters;
  const dash::comm::CostParameters expected = several ? dash::comm::between_nodes(machine) : machine;
  for (const Coll collective : {Coll::allreduce, Coll::allgather, Coll::bcast}) {
    const dash::comm::Choice choice = dash::comm::explain(collective, 4096, Group::world());
    EXPECT_EQ(choice.between_nodes, several);
    EXPECT_EQ(choice.reason.find("alpha_net, beta_net") != std::string::npos, several) << choice.reason;
    for (const dash::comm::Candidate& candidate : choice.candidates) {
      // A hierarchical run adds its rails' prices (between nodes) to its node's.
      if (!candidate.unfit.empty() || candidate.algorithm == "hierarchical") {
        continue;
      }
      EXPECT_DOUBLE_EQ(candidate.predicted_seconds,
                       dash::comm::predicted_seconds(candidate.terms, candidate.block_bytes, expected))
          << to_string(collective) << " " << candidate.algorithm;
    }
  }
}

TEST(Collectives, ExplainNamesAlgorithmReasonAndEveryCandidatesCost) {
  // A short vector on a group without the shared-memory arena (not the world group): recursive
  // doubling has the fewest start-ups at every group size.
  std::vector<int> everyone(static_cast<std::size_t>(P()));
  std::iota(everyone.begin(), everyone.end(), 0);
  const Group all_but_world = Group::of_base_ranks(everyone, dash::comm::TagSpace{30000, 16});
  const dash::comm::Choice small = dash::comm::explain(Coll::allreduce, 8, all_but_world);
  EXPECT_EQ(small.algorithm, "recursive_doubling");
  expect_cheapest(small, Coll::allreduce);
  expect_cheapest(dash::comm::explain(Coll::allreduce, 8, Group::world()), Coll::allreduce);
  const dash::comm::Choice large = dash::comm::explain(Coll::allreduce, 1 << 24, Group::world());
  expect_cheapest(large, Coll::allreduce);
  const dash::comm::Choice rooted = dash::comm::explain(Coll::bcast, 1 << 20, Group::world());
  expect_cheapest(rooted, Coll::bcast);
  // On a network whose nodes are the ranks, the topology-aware algorithms that fit are priced there too.
  for (const Coll collective : {Coll::allgather, Coll::reduce_scatter, Coll::allreduce}) {
    const dash::comm::Choice choice = dash::comm::explain(collective, 1 << 20, Group::world());
    expect_cheapest(choice, collective);
    for (const dash::comm::Candidate& candidate : choice.candidates) {
      if (candidate.algorithm == "distance_halving" || candidate.algorithm == "torus_order" ||
          candidate.algorithm.starts_with("bucket")) {
        const bool priced = ranks_are_nodes() && fits(collective, candidate.algorithm, true);
        EXPECT_EQ(candidate.unfit.empty(), priced) << candidate.algorithm << ": " << candidate.unfit;
        EXPECT_EQ(candidate.predicted_seconds > 0, priced && P() > 1) << candidate.algorithm;
      }
    }
  }
  // Arrival order was not allowed, so Bruck without its reorder cannot serve the call.
  const dash::comm::Choice gathered = dash::comm::explain(Coll::allgather, 64, Group::world());
  expect_cheapest(gathered, Coll::allgather);
  for (const dash::comm::Candidate& candidate : gathered.candidates) {
    if (candidate.algorithm == "bruck_noncanonical") {
      EXPECT_NE(candidate.unfit.find("arrival order"), std::string::npos) << candidate.unfit;
    } else if (!ranks_are_nodes() && (candidate.algorithm == "ring" || candidate.algorithm == "sparbit")) {
      // The flat model (on a network, blocks are the busiest link's per stage).
      EXPECT_EQ(candidate.terms.blocks, P() - 1) << candidate.algorithm;  // p - 1 contributions of one block
      EXPECT_EQ(candidate.block_bytes, 64u) << candidate.algorithm;
    }
  }
}

}  // namespace

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
namespace {

// With cross-rank checks compiled in, arguments that differ between ranks are reported on every
// rank instead of hanging or corrupting data.
TEST(Collectives, MismatchedArgumentsAreReportedOnEveryRank) {
  if (P() < 2) {
    return;  // one rank always agrees with itself
  }
  std::vector<double> buffer(16, 1.0);
  const int root = me() == 0 ? 0 : 1;  // rank 0 disagrees about the root
  bool reported = false;
  try {
    dash::comm::bcast(buffer, root, Group::world(), forced("binomial"));
  } catch (const dash::InvalidArgument& error) {
    reported = std::string(error.what()).find("must be the same on every rank") != std::string::npos;
  }
  EXPECT_TRUE(reported);
}

// Segments and placement change the schedule as the algorithm does: members that differ in them
// would exchange blocks of other sizes.
TEST(Collectives, MismatchedSegmentsOrPlacementAreReportedOnEveryRank) {
  if (P() < 2) {
    return;
  }
  std::vector<long> in(30, me());
  std::vector<long> out(30);
  for (const bool vary_segments : {true, false}) {
    Options options = forced("ring");
    if (vary_segments) {
      options.segments = me() == 0 ? 2 : 3;
    } else {
      options.canonical_placement = me() != 0;
    }
    bool reported = false;
    try {
      dash::comm::allreduce(in, out, dash::plus{}, Group::world(), options);
    } catch (const dash::InvalidArgument& error) {
      reported = std::string(error.what()).find("must be the same on every rank") != std::string::npos;
    }
    EXPECT_TRUE(reported) << (vary_segments ? "segments" : "canonical_placement");
  }
}

}  // namespace
#endif
