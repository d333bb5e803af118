// dash::ViewPattern: a region of an N-d pattern as a 1-d index space. Checked against the base
// pattern element by element: positions map to the right global coordinates and owners, and the runs
// of any range cover it exactly, in order, consistently with local().

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <dash/core/view_pattern.hpp>

namespace {

template <std::size_t N>
void expect_consistent(const dash::Pattern<N>& base, const dash::ViewSpec<N>& region) {
  const dash::ViewPattern<N> view(base, region);
  ASSERT_EQ(view.size(), region.size());
  for (std::size_t position = 0; position < view.size(); ++position) {
    std::array<std::size_t, N> global{};
    std::size_t rest = position;
    for (std::size_t dim = N; dim-- > 0;) {
      global[dim] = region.offsets[dim] + rest % region.extents[dim];
      rest /= region.extents[dim];
    }
    ASSERT_EQ(view.coords(position), global);
    ASSERT_EQ(view.local(position), base.local(global));
  }
  const std::vector<std::pair<std::size_t, std::size_t>> ranges{
      {0, view.size()}, {view.size() / 3, view.size() - view.size() / 4}, {view.size() / 2, view.size() / 2}};
  for (const auto& [begin, end] : ranges) {
    std::size_t next = begin;
    view.for_each_run(begin, end, [&](const dash::Run& run) {
      ASSERT_EQ(run.global_begin, next);
      ASSERT_GT(run.length, 0U);
      for (std::size_t k = 0; k < run.length; ++k) {
        const dash::LocalIndex where = view.local(run.global_begin + k);
        ASSERT_EQ(where.unit, run.unit);
        ASSERT_EQ(where.index, run.local_begin + k);
      }
      next += run.length;
    });
    EXPECT_EQ(next, end);
  }
}

TEST(ViewPattern, RegionsOfTwoDimensionalPatterns) {
  const std::vector<std::pair<dash::Distribution, dash::Distribution>> kinds{
      {dash::BLOCKED, dash::NONE}, {dash::BLOCKED, dash::BLOCKED}, {dash::CYCLIC, dash::BLOCKCYCLIC(2)},
      {dash::TILE(2), dash::TILE(3)}, {dash::NONE, dash::CYCLIC}};
  for (const auto& [rows, cols] : kinds) {
    const dash::SizeSpec<2> sizes(9, 11);
    const dash::DistributionSpec<2> distributions(rows, cols);
    const dash::Pattern<2> base(sizes, distributions, dash::TeamSpec<2>(sizes, distributions, 6));
    for (const dash::ViewSpec<2>& region : {dash::ViewSpec<2>{{0, 0}, {9, 11}}, dash::ViewSpec<2>{{2, 3}, {5, 4}},
                                            dash::ViewSpec<2>{{0, 10}, {9, 1}}, dash::ViewSpec<2>{{4, 0}, {1, 11}},
                                            dash::ViewSpec<2>{{3, 3}, {0, 5}}}) {
      SCOPED_TRACE(rows.name() + "x" + cols.name());
      expect_consistent(base, region);
    }
  }
}

TEST(ViewPattern, RegionsOfThreeDimensionalPatterns) {
  const dash::SizeSpec<3> sizes(5, 4, 6);
  const dash::DistributionSpec<3> distributions(dash::BLOCKCYCLIC(2), dash::CYCLIC, dash::BLOCKED);
  const dash::Pattern<3> base(sizes, distributions, dash::TeamSpec<3>(2, 2, 2));
  expect_consistent(base, dash::ViewSpec<3>{{1, 1, 2}, {3, 2, 3}});
  expect_consistent(base, dash::ViewSpec<3>{{0, 0, 0}, {5, 4, 6}});
}

TEST(ViewPattern, RegionsOutsideThePatternAreRejected) {
  const dash::Pattern<2> base(dash::SizeSpec<2>(4, 4), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                              dash::TeamSpec<2>(2, 1));
  EXPECT_THROW(dash::ViewPattern<2>(base, dash::ViewSpec<2>{{2, 0}, {3, 4}}), dash::OutOfRange);
  // offset + extent wraps to 1 here, inside the extent; the region is still outside.
  EXPECT_THROW(dash::ViewPattern<2>(base, dash::ViewSpec<2>{{std::numeric_limits<std::size_t>::max(), 0}, {2, 4}}),
               dash::OutOfRange);
  const dash::ViewPattern<2> view(base, dash::ViewSpec<2>{{1, 1}, {2, 2}});
  EXPECT_THROW(static_cast<void>(view.local(4)), dash::OutOfRange);
  EXPECT_THROW(view.for_each_run(1, 5, [](const dash::Run&) {}), dash::OutOfRange);
}

}  // namespace
