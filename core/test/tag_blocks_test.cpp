#include <gtest/gtest.h>

#include <dash/core/detail/tag_blocks.hpp>
#include <dash/core/detail/team_ranks.hpp>

namespace {

using dash::detail::TagBlockLayout;

TEST(TagBlockLayout, OpenMpiRangeGivesTheMostBlocks) {
  const TagBlockLayout layout = TagBlockLayout::for_range(1 << 14, (1 << 30) - 1 + (1 << 30));
  EXPECT_EQ(layout.blocks, TagBlockLayout::max_blocks);
  EXPECT_EQ(layout.first_tag, 1 << 14);
  // The last block ends within the range.
  const auto last = layout.space(layout.blocks - 1);
  EXPECT_LE(static_cast<long long>(last.first) + last.count - 1, 2147483647LL);
  EXPECT_EQ(layout.space(1).first, layout.space(0).first + layout.block_tags);
}

TEST(TagBlockLayout, MinimalMpiRangeStillGivesBlocks) {
  // MPI guarantees MPI_TAG_UB >= 32767; the world takes [1, 2^14]: 16383 tags left, 63 blocks of
  // at least 256.
  const TagBlockLayout layout = TagBlockLayout::for_range(16385, 32767);
  EXPECT_EQ(layout.blocks, 63);
  EXPECT_EQ(layout.block_tags, 260);
  const auto last = layout.space(layout.blocks - 1);
  EXPECT_LE(last.first + last.count - 1, 32767);
}

TEST(TagBlockLayout, TooFewTagsGiveNoBlocks) {
  EXPECT_EQ(TagBlockLayout::for_range(100, 200).blocks, 0);
}

TEST(CompactRanks, FindsFormulasAndFallsBackToATable) {
  using dash::detail::compact_ranks;
  EXPECT_EQ(compact_ranks({3, 4, 5, 6})->representation(), "contiguous");
  const auto strided = compact_ranks({1, 4, 7});
  EXPECT_EQ(strided->representation(), "strided");
  EXPECT_EQ(strided->to_base(2), 7);
  EXPECT_EQ(strided->from_base(4), 1);
  EXPECT_FALSE(strided->from_base(5).has_value());
  EXPECT_FALSE(strided->from_base(10).has_value());
  EXPECT_EQ(strided->rows_held(), 0u);
  const auto table = compact_ranks({5, 2, 9, 0});
  EXPECT_EQ(table->representation(), "table");
  EXPECT_EQ(table->rows_held(), 4u);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(table->from_base(table->to_base(rank)), rank);
  }
  EXPECT_FALSE(table->from_base(3).has_value());
  EXPECT_EQ(compact_ranks({7})->to_base(0), 7);
  const auto reversed = compact_ranks({6, 4, 2, 0});
  EXPECT_EQ(reversed->representation(), "strided");
  EXPECT_EQ(reversed->from_base(2), 2);
  EXPECT_FALSE(reversed->from_base(8).has_value());
  EXPECT_FALSE(reversed->from_base(-2).has_value());
}

}  // namespace
