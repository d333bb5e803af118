// The verifier itself: it accepts correct schedules, measures them, and rejects each kind of
// broken schedule with a message that names the problem.

#include <string>

#include <gtest/gtest.h>

#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace {

using namespace dash::comm;
using namespace dash::comm::schedule;

CollectiveShape shape_of(Coll collective, int size, std::uint32_t segments = 1, int root = 0) {
  CollectiveShape shape;
  shape.collective = collective;
  shape.size = size;
  shape.segments = segments;
  shape.root = root;
  return shape;
}

VerificationReport run(const CollectiveShape& shape, Schedule (*generator)(const CollectiveShape&, int),
                       VerifyOptions options = {}) {
  return verify(shape, [&](int rank) { return generator(shape, rank); }, options);
}

TEST(ScheduleVerifier, BinomialBcastForEveryRootIsCorrectAndLogarithmic) {
  for (int p = 1; p <= 40; ++p) {
    for (const int root : {0, p / 2, p - 1}) {
      const VerificationReport report = run(shape_of(Coll::bcast, p, 2, root), bcast_binomial);
      ASSERT_TRUE(report.ok) << "p=" << p << " root=" << root << ": " << report.error;
      EXPECT_EQ(report.metrics.critical_startups, ceil_log2(static_cast<std::uint32_t>(p))) << p;
      EXPECT_EQ(report.metrics.total_messages, static_cast<std::size_t>(p - 1));
    }
  }
}

TEST(ScheduleVerifier, RingAllgatherMovesEachBlockPMinusOneTimes) {
  for (int p = 1; p <= 40; ++p) {
    const VerificationReport report = run(shape_of(Coll::allgather, p, 3), allgather_ring);
    ASSERT_TRUE(report.ok) << "p=" << p << ": " << report.error;
    EXPECT_EQ(report.metrics.max_communication_rounds, static_cast<std::size_t>(p - 1));
    EXPECT_EQ(report.metrics.max_blocks_sent, 3u * static_cast<std::uint64_t>(p - 1));
    EXPECT_EQ(report.metrics.critical_startups, p - 1);
  }
}

TEST(ScheduleVerifier, RecursiveDoublingAllreduceKeepsRankOrder) {
  for (int p = 1; p <= 40; ++p) {
    CollectiveShape shape = shape_of(Coll::allreduce, p, 2);
    shape.op.commutative = false;
    const VerificationReport report = run(shape, allreduce_recursive_doubling);
    ASSERT_TRUE(report.ok) << "p=" << p << ": " << report.error;
    const auto p2 = floor_pow2(static_cast<std::uint32_t>(p));
    const double folding = p2 == static_cast<std::uint32_t>(p) ? 0 : 2;
    EXPECT_EQ(report.metrics.critical_startups, floor_log2(static_cast<std::uint32_t>(p)) + folding) << p;
  }
}

// Hand-written two-rank schedules for the failure cases.
VerificationReport two_ranks(Coll collective, const Schedule& rank0, const Schedule& rank1,
                             bool commutative = true) {
  CollectiveShape shape = shape_of(collective, 2);
  shape.op.commutative = commutative;
  return verify(shape, [&](int rank) { return rank == 0 ? rank0 : rank1; });
}

Schedule rounds(std::initializer_list<std::initializer_list<Action>> list, std::uint32_t scratch = 0) {
  Schedule schedule;
  for (const auto& round : list) {
    schedule.add_round().actions.assign(round.begin(), round.end());
  }
  schedule.scratch_blocks = scratch;
  return schedule;
}

const BlockSet one = BlockSet::range(0, 1);

void expect_error(const VerificationReport& report, const std::string& fragment) {
  EXPECT_FALSE(report.ok);
  EXPECT_NE(report.error.find(fragment), std::string::npos) << report.error;
}

TEST(ScheduleVerifier, DetectsDeadlock) {
  const Schedule waits_first = rounds({{Action::receive_from(1, Buffer::output, BlockSet::range(1, 1))},
                                       {Action::send_to(1, Buffer::input, one)}});
  const Schedule also_waits = rounds({{Action::receive_from(0, Buffer::output, BlockSet::range(0, 1))},
                                      {Action::send_to(0, Buffer::input, one)}});
  expect_error(two_ranks(Coll::allgather, waits_first, also_waits), "deadlock: 2 rank(s) cannot finish");
}

TEST(ScheduleVerifier, DetectsMessageSizeMismatch) {
  const Schedule sender = rounds({{Action::send_to(1, Buffer::input, one)}});
  const Schedule receiver = rounds({{Action::receive_from(0, Buffer::output, BlockSet::range(0, 2))}});
  expect_error(two_ranks(Coll::allgather, sender, receiver), "expects 2 blocks, but the matching send");
}

TEST(ScheduleVerifier, DetectsDoubleCounting) {
  const Schedule rank0 = rounds({{Action::copy(Buffer::input, one, Buffer::output, one),
                                  Action::send_to(1, Buffer::input, one)},
                                 {Action::receive_from(1, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::copy(Buffer::input, one, Buffer::output, one)},
                                 {Action::receive_reduce_from(0, Buffer::output, one, Operand::incoming_left)},
                                 {Action::reduce(Buffer::input, one, Buffer::output, one, Operand::incoming_right)},
                                 {Action::send_to(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allreduce, rank0, rank1), "counting some contributions twice");
}

TEST(ScheduleVerifier, DetectsBrokenRankOrderForNonCommutativeOperations) {
  const Schedule rank0 = rounds({{Action::send_to(1, Buffer::input, one)},
                                 {Action::receive_from(1, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::copy(Buffer::input, one, Buffer::output, one)},
                                 {Action::receive_reduce_from(0, Buffer::output, one, Operand::incoming_right)},
                                 {Action::send_to(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allreduce, rank0, rank1, false), "breaks rank order");
  EXPECT_TRUE(two_ranks(Coll::allreduce, rank0, rank1, true).ok);
}

TEST(ScheduleVerifier, DetectsWritesToTheInput) {
  const Schedule rank0 = rounds({{Action::receive_from(1, Buffer::input, one)}});
  const Schedule rank1 = rounds({{Action::send_to(0, Buffer::input, one)}});
  expect_error(two_ranks(Coll::allgather, rank0, rank1), "writes the input buffer");
}

TEST(ScheduleVerifier, DetectsBlocksOutsideTheBuffer) {
  const Schedule rank0 = rounds({{Action::copy(Buffer::input, one, Buffer::output, BlockSet::range(2, 1))}});
  expect_error(two_ranks(Coll::allgather, rank0, rank0), "block 2 is outside the output buffer of 2 blocks");
}

TEST(ScheduleVerifier, DetectsSendingUnwrittenBlocks) {
  const Schedule rank0 = rounds({{Action::send_to(1, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::receive_from(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allgather, rank0, rank1), "before anything was written to it");
}

TEST(ScheduleVerifier, DetectsConflictsWithinARound) {
  const Schedule racy = rounds({{Action::copy(Buffer::input, one, Buffer::output, one),
                                 Action::send_to(1, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::receive_from(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allgather, racy, rank1), "reads a block another action of the same round writes");
  const Schedule twice = rounds({{Action::copy(Buffer::input, one, Buffer::output, one),
                                  Action::copy(Buffer::input, one, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allgather, twice, twice), "is written twice in the same round");
}

TEST(ScheduleVerifier, DetectsWrongFinalContent) {
  // Rank 0 never receives rank 1's block.
  const Schedule rank0 = rounds({{Action::copy(Buffer::input, one, Buffer::output, one),
                                  Action::send_to(1, Buffer::input, one)}});
  const Schedule rank1 = rounds({{Action::copy(Buffer::input, one, Buffer::output, BlockSet::range(1, 1)),
                                  Action::receive_from(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::allgather, rank0, rank1),
               "rank 0 output block 1 holds nothing, expected block 0 of ranks {1}");
}

TEST(ScheduleVerifier, DetectsWritesToBlocksTheCollectiveLeavesUntouched) {
  // exscan: rank 0's output is undefined, as in MPI, and must not be written.
  const Schedule rank0 = rounds({{Action::send_to(1, Buffer::input, one),
                                  Action::copy(Buffer::input, one, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::receive_from(0, Buffer::output, one)}});
  expect_error(two_ranks(Coll::exscan, rank0, rank1),
               "rank 0 output block 0 holds block 0 of ranks {0}, but the collective leaves it untouched");
  const Schedule quiet0 = rounds({{Action::send_to(1, Buffer::input, one)}});
  EXPECT_TRUE(two_ranks(Coll::exscan, quiet0, rank1).ok);
}

TEST(ScheduleVerifier, NonCanonicalPlacementAcceptsPermutations) {
  // Both ranks store rank 1's block first.
  const Schedule rank0 = rounds({{Action::copy(Buffer::input, one, Buffer::output, BlockSet::range(1, 1)),
                                  Action::send_to(1, Buffer::input, one),
                                  Action::receive_from(1, Buffer::output, one)}});
  const Schedule rank1 = rounds({{Action::copy(Buffer::input, one, Buffer::output, one),
                                  Action::send_to(0, Buffer::input, one),
                                  Action::receive_from(0, Buffer::output, BlockSet::range(1, 1))}});
  const CollectiveShape shape = shape_of(Coll::allgather, 2);
  auto schedule_of = [&](int rank) { return rank == 0 ? rank0 : rank1; };
  EXPECT_FALSE(verify(shape, schedule_of).ok);
  EXPECT_TRUE(verify(shape, schedule_of, VerifyOptions{true}).ok);
}

TEST(BlockSet, EnumeratesRangesWrapsProgressionsAndStridedRuns) {
  EXPECT_EQ(BlockSet::range(3, 4).indices(), (std::vector<std::uint32_t>{3, 4, 5, 6}));
  EXPECT_EQ(BlockSet::wrapped_range(6, 4, 8).indices(), (std::vector<std::uint32_t>{6, 7, 0, 1}));
  EXPECT_EQ(BlockSet::progression(4, -2, 4, 5).indices(), (std::vector<std::uint32_t>{4, 2, 0, 3}));
  EXPECT_EQ(BlockSet::strided_runs(2, 2, 4, 5).indices(), (std::vector<std::uint32_t>{2, 3, 6, 7, 10}));
  EXPECT_TRUE(BlockSet::range(3, 4).is_contiguous(8));
  EXPECT_FALSE(BlockSet::wrapped_range(6, 4, 8).is_contiguous(8));
}

}  // namespace
