// dash::matvec's pipeline stages on a process grid (detail/matvec_stages.hpp): every row of a unit
// in exactly one piece, pieces of a segment in order and near-equal, the reduce-scatter counts of
// each stage, and the automatic and forced stage counts.

#include <cstddef>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include <dash/algorithms/detail/matvec_stages.hpp>

namespace {

using dash::detail::MatvecStages;

void expect_a_partition(const MatvecStages& stages) {
  SCOPED_TRACE(std::to_string(stages.rows) + " rows, " + std::to_string(stages.segments) + " segments, " +
               std::to_string(stages.count) + " stages");
  std::vector<int> covered(stages.rows, 0);
  for (std::size_t segment = 0; segment < stages.segments; ++segment) {
    EXPECT_EQ(stages.piece_begin(segment, 0), stages.segment_begin(segment));
    EXPECT_EQ(stages.piece_begin(segment, stages.count), stages.segment_begin(segment + 1));
    const std::size_t length = stages.segment_begin(segment + 1) - stages.segment_begin(segment);
    for (std::size_t stage = 0; stage < stages.count; ++stage) {
      const std::size_t rows = stages.piece_rows(segment, stage);
      EXPECT_LE(rows, length / stages.count + 1);
      EXPECT_GE(rows, length / stages.count);
      for (std::size_t row = stages.piece_begin(segment, stage); row < stages.piece_begin(segment, stage + 1); ++row) {
        ++covered[row];
      }
    }
  }
  for (std::size_t row = 0; row < stages.rows; ++row) {
    EXPECT_EQ(covered[row], 1) << "row " << row;
  }
  std::size_t all = 0;
  for (std::size_t stage = 0; stage < stages.count; ++stage) {
    const std::vector<std::size_t> counts = stages.counts(stage);
    ASSERT_EQ(counts.size(), stages.segments);
    for (std::size_t segment = 0; segment < stages.segments; ++segment) {
      EXPECT_EQ(counts[segment], stages.piece_rows(segment, stage));
    }
    all += std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  }
  EXPECT_EQ(all, stages.rows);
}

TEST(MatvecStages, CutEveryRowIntoExactlyOnePiece) {
  for (const std::size_t rows : {0u, 1u, 2u, 7u, 64u, 97u, 1000u, 4097u}) {
    for (const std::size_t segments : {1u, 2u, 3u, 4u, 8u}) {
      for (const std::size_t piece_rows : {0u, 1u, 3u, 7u, 100000u}) {
        expect_a_partition(MatvecStages::plan(rows, segments, piece_rows));
      }
    }
  }
}

TEST(MatvecStages, CountFollowsTheForcedPieceSize) {
  EXPECT_EQ(MatvecStages::plan(300, 2, 7).count, 22u);   // 150 rows per segment: ceil(150 / 7)
  EXPECT_EQ(MatvecStages::plan(301, 2, 1).count, 150u);  // the shorter segment decides
  EXPECT_EQ(MatvecStages::plan(300, 2, 1000).count, 1u);
}

TEST(MatvecStages, AutomaticCountKeepsPiecesLargeAndStagesFew) {
  constexpr std::size_t min_rows = MatvecStages::min_automatic_rows;
  EXPECT_EQ(MatvecStages::plan(2 * (2 * min_rows - 1), 2, 0).count, 1u);
  EXPECT_EQ(MatvecStages::plan(2 * 2 * min_rows, 2, 0).count, 2u);
  EXPECT_EQ(MatvecStages::plan(16384, 2, 0).count, MatvecStages::max_count);
  EXPECT_EQ(MatvecStages::plan(1 << 24, 4, 0).count, MatvecStages::max_count);
}

TEST(MatvecStages, OneStageWhereThereIsNothingToReduce) {
  EXPECT_EQ(MatvecStages::plan(16384, 1, 0).count, 1u);  // one grid column
  EXPECT_EQ(MatvecStages::plan(16384, 1, 3).count, 1u);
  EXPECT_EQ(MatvecStages::plan(0, 4, 1).count, 1u);      // no rows
  EXPECT_EQ(MatvecStages::plan(3, 4, 1).count, 1u);      // a segment without rows
}

}  // namespace
