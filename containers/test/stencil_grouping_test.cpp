// dash::StencilGrouping: the classes, terms and weight groups of the stencils NPB MG and the
// heat equation use, their operation counts (the 27-point cube with one weight per distance
// class: 14 operations per cell for resid, 15 for psinv, against 41 and 37 summed as listed), and
// the grouped value of a cell against the listed one.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include <dash/containers/stencil.hpp>

namespace {

// The 27-point cube with a coefficient per distance class (centre, faces, edges, corners),
// without the points of zero weight, in the cube's row-major order (NPB MG's A and S).
dash::Stencil<3> cube(const std::array<double, 4>& by_distance) {
  std::vector<dash::StencilPoint<3>> points;
  const auto box = dash::Stencil<3>::box(1, 0, 0);
  for (const auto& point : box.points()) {
    const auto distance =
        static_cast<std::size_t>(std::abs(point.offset[0]) + std::abs(point.offset[1]) + std::abs(point.offset[2]));
    if (by_distance[distance] != 0) {
      points.push_back({point.offset, by_distance[distance]});
    }
  }
  return dash::Stencil<3>(points);
}

std::vector<std::size_t> lines_per_class(const dash::StencilGrouping& grouping) {
  std::vector<std::size_t> lines;
  for (const auto& line_class : grouping.classes()) {
    lines.push_back(line_class.lines);
  }
  return lines;
}

std::vector<std::size_t> terms_per_group(const dash::StencilGrouping& grouping) {
  std::vector<std::size_t> terms;
  for (const auto& group : grouping.groups()) {
    terms.push_back(group.terms);
  }
  return terms;
}

TEST(StencilGrouping, MultigridResidualSharesFaceAndEdgeSums) {
  const double a0 = -8.0 / 3.0;
  const double a2 = 1.0 / 6.0;
  const double a3 = 1.0 / 12.0;
  const auto a = cube({a0, 0.0, a2, a3});
  const auto& grouping = a.grouping();
  // Lines: (-1,-1), (-1,0), ... ; classes in order of first appearance: corners' lines (4),
  // faces' lines (4), the centre line.
  EXPECT_EQ(lines_per_class(grouping), (std::vector<std::size_t>{4, 4, 1}));
  // Groups by first appearance: a3 (the corner lines at -1 and +1), a2 (corner lines at 0,
  // face lines at -1 and +1), a0 (the centre).
  ASSERT_EQ(grouping.groups().size(), 3U);
  EXPECT_EQ(grouping.groups()[0].coefficient, a3);
  EXPECT_EQ(grouping.groups()[1].coefficient, a2);
  EXPECT_EQ(grouping.groups()[2].coefficient, a0);
  EXPECT_EQ(terms_per_group(grouping), (std::vector<std::size_t>{2, 3, 1}));
  EXPECT_EQ(grouping.grouped_operations(), 14U);
  EXPECT_EQ(a.listed_operations(), 41U);
}

TEST(StencilGrouping, MultigridSmootherSharesFaceAndEdgeSums) {
  const auto s = cube({-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0});
  EXPECT_EQ(lines_per_class(s.grouping()), (std::vector<std::size_t>{4, 4, 1}));
  EXPECT_EQ(terms_per_group(s.grouping()), (std::vector<std::size_t>{3, 3, 1}));
  EXPECT_EQ(s.grouping().grouped_operations(), 15U);
  EXPECT_EQ(s.listed_operations(), 37U);
}

TEST(StencilGrouping, UniformAndSmallStencils) {
  // Jacobi's average: the two column neighbours' lines share a sum; as many operations as listed.
  const dash::Stencil<2> jacobi({{{-1, 0}, 0.25}, {{1, 0}, 0.25}, {{0, -1}, 0.25}, {{0, 1}, 0.25}});
  EXPECT_EQ(lines_per_class(jacobi.grouping()), (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(jacobi.grouping().grouped_operations(), 4U);
  EXPECT_EQ(jacobi.listed_operations(), 4U);
  // 5-point Laplacian: 6 against 9.
  EXPECT_EQ(dash::Stencil<2>::star(1, -4.0, 1.0).grouping().grouped_operations(), 6U);
  // 1-D: one line; the two neighbours share their coefficient.
  const auto second_difference = dash::Stencil<1>::star(1, -2.0, 1.0);
  EXPECT_EQ(lines_per_class(second_difference.grouping()), (std::vector<std::size_t>{1}));
  EXPECT_EQ(terms_per_group(second_difference.grouping()), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(second_difference.grouping().grouped_operations(), 4U);
}

TEST(StencilGrouping, GroupedValueIsTheListedSumRegrouped) {
  // The grouped expression uses every point exactly once with its coefficient: with all values
  // 1 it gives the sum of the coefficients, with one point's value 1 that point's coefficient.
  for (const auto& stencil : {cube({-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0}), cube({0.5, 0.25, 0.125, 0.0625}),
                              dash::Stencil<3>::star(2, 1.0, 2.0)}) {
    const auto& points = stencil.points();
    std::vector<double> weights;
    for (const auto& group : stencil.grouping().groups()) {
      weights.push_back(group.coefficient);
    }
    double coefficients = 0;
    for (const auto& point : points) {
      coefficients += point.coefficient;
    }
    EXPECT_NEAR(stencil.grouping().evaluate<double>([](std::size_t) { return 1.0; }, weights.data()), coefficients,
                1e-12);
    for (std::size_t p = 0; p < points.size(); ++p) {
      EXPECT_EQ(stencil.grouping().evaluate<double>([p](std::size_t q) { return q == p ? 1.0 : 0.0; }, weights.data()),
                points[p].coefficient)
          << "point " << p;
    }
  }
}

}  // namespace
