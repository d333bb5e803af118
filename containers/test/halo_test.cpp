// dash::HaloMatrix and dash::apply_stencil: the halo holds exactly the cells the stencil reads,
// with the neighbours' values (periodic and fixed boundaries, radius 1 and 2, star and box
// stencils, 1-D, 2-D and 3-D, several process grids); faces are reported once each; the heat
// equation equals a serial computation bit for bit; bad input gives clear errors. Run again with
// DASH_SHARED_MEMORY=0 so that the faces travel as MPI messages with derived datatypes.
//
// Map: the cell and boundary values and extents; the halo check (every index around the block);
// balanced grids; the halo tests (2-D, asymmetric stencils, 1-D and 3-D, faces reported once); the
// reference sums in both orders (listed_value, grouped_value, stencil_value); the heat equation
// against a serial run; residual and smoothing in both orders; finish functions; errors.

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/locality.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"

namespace {

std::size_t P() { return dash::size(); }

template <std::size_t N>
using Index = std::array<std::ptrdiff_t, N>;

template <std::size_t N>
double cell_value(const Index<N>& global) {
  double value = 0;
  for (std::size_t d = 0; d < N; ++d) {
    value = value * 1000 + static_cast<double>(global[d]);
  }
  return value;
}

template <std::size_t N>
double boundary_value(const Index<N>& global) {
  double value = -1;
  for (std::size_t d = 0; d < N; ++d) {
    value -= static_cast<double>(global[d] * static_cast<std::ptrdiff_t>(7 + d)) * 0.5;
  }
  return value;
}

// An extent that gives every one of `units` units a block of at least `block` - 1 cells and the
// last one a shorter block than the others when there are several.
std::size_t extent_for(std::size_t units, std::size_t block) { return units * block - (units > 1 ? 1 : 0); }

template <std::size_t N>
std::string describe(const Index<N>& index) {
  std::string text = "(";
  for (std::size_t d = 0; d < N; ++d) {
    text += (d == 0 ? "" : ", ") + std::to_string(index[d]);
  }
  return text + ")";
}

// Fills a matrix with cell_value, updates the halo and checks every index around the block: the
// ones the stencil reads hold the neighbour's value (or the fixed one), the others are refused.
template <std::size_t N>
void check_halo(const dash::SizeSpec<N>& sizes, const dash::DistributionSpec<N>& distribution,
                const dash::TeamSpec<N>& grid, const dash::Stencil<N>& stencil,
                const std::array<dash::HaloBoundary, N>& boundaries) {
  dash::Matrix<double, N> matrix(sizes, distribution, dash::Team::All(), grid);
  dash::HaloMatrix<double, N> halo(matrix, stencil, boundaries, boundary_value<N>);
  const auto& extents = halo.local_extents();
  const auto& origin = halo.local_origin();
  dash::HaloBox<N> block;
  block.last = extents;
  block.for_each([&](const std::array<std::size_t, N>& local) {
    Index<N> global{};
    std::size_t at = 0;
    for (std::size_t d = 0; d < N; ++d) {
      global[d] = origin[d] + static_cast<std::ptrdiff_t>(local[d]);
      at = at * extents[d] + local[d];
    }
    matrix.lbegin()[at] = cell_value<N>(global);
  });
  halo.update();

  // The indices some cell's stencil reads, found by brute force.
  std::set<Index<N>> read;
  block.for_each([&](const std::array<std::size_t, N>& local) {
    for (const auto& point : stencil.points()) {
      Index<N> index{};
      for (std::size_t d = 0; d < N; ++d) {
        index[d] = static_cast<std::ptrdiff_t>(local[d]) + point.offset[d];
      }
      read.insert(index);
    }
  });
  // A halo region is exchanged whole when any of its cells is read.
  auto region_of = [&](const Index<N>& index) {
    std::size_t region = 0;
    for (std::size_t d = 0; d < N; ++d) {
      region = region * 3 +
               (index[d] < 0 ? 0 : index[d] >= static_cast<std::ptrdiff_t>(extents[d]) ? 2 : 1);
    }
    return region;
  };
  std::set<std::size_t> read_regions;
  for (const auto& index : read) {
    read_regions.insert(region_of(index));
  }

  bool ok = true;
  std::string first_failure;
  dash::HaloBox<N> around;
  for (std::size_t d = 0; d < N; ++d) {
    around.last[d] = extents[d] + stencil.reach_below(d) + stencil.reach_above(d);
  }
  around.for_each([&](const std::array<std::size_t, N>& shifted) {
    Index<N> local{};
    Index<N> global{};
    Index<N> wrapped{};
    bool past_fixed_edge = false;
    for (std::size_t d = 0; d < N; ++d) {
      local[d] = static_cast<std::ptrdiff_t>(shifted[d]) - static_cast<std::ptrdiff_t>(stencil.reach_below(d));
      global[d] = origin[d] + local[d];
      const auto n = static_cast<std::ptrdiff_t>(sizes.extent(d));
      wrapped[d] = (global[d] % n + n) % n;
      past_fixed_edge = past_fixed_edge || ((global[d] < 0 || global[d] >= n) &&
                                            boundaries[d] == dash::HaloBoundary::fixed);
    }
    const std::size_t centre = (dash::detail::power_of_three(N) - 1) / 2;
    const bool expected_held = region_of(local) == centre || read_regions.count(region_of(local)) != 0;
    double value = 0;
    bool held = true;
    try {
      value = halo.value(local);
    } catch (const dash::OutOfRange&) {
      held = false;
    }
    const double expected = past_fixed_edge ? boundary_value<N>(global) : cell_value<N>(wrapped);
    const bool right = held == expected_held && (!held || value == expected);
    if (!right && ok) {
      first_failure = "local " + describe<N>(local) + ": held " + std::to_string(held) + " (expected " +
                      std::to_string(expected_held) + "), value " + std::to_string(value) + " (expected " +
                      std::to_string(expected) + ")";
    }
    ok = ok && right;
  });
  EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << "rank " << dash::myid() << ": " << first_failure;

  // without_exchange(): its cells read only the block, halo cells past a fixed edge and halo cells
  // of the unit's own block (periodic along a dimension with one unit: copied as the update
  // starts), and no boundary box straddles it. In a block at least as wide as the stencil reaches
  // both ways (so no boundary band reads the opposite side) it is the inner box grown to the
  // block's edge along each fixed domain edge and along both edges of such a dimension.
  const auto& early = halo.without_exchange();
  const auto coords = grid.coords(static_cast<std::size_t>(dash::myid()));
  const auto own_halo = [&](std::size_t d) {
    return boundaries[d] == dash::HaloBoundary::periodic && grid.extent(d) == 1;
  };
  dash::HaloBox<N> expected = halo.inner();
  bool wide = true;
  for (std::size_t d = 0; d < N; ++d) {
    wide = wide && extents[d] >= stencil.reach_below(d) + stencil.reach_above(d);
    if (boundaries[d] == dash::HaloBoundary::fixed) {
      expected.first[d] = coords[d] == 0 ? 0 : expected.first[d];
      expected.last[d] = coords[d] + 1 == grid.extent(d) ? extents[d] : expected.last[d];
    } else if (own_halo(d)) {
      expected.first[d] = 0;
      expected.last[d] = extents[d];
    }
  }
  bool early_ok = !wide || (expected.empty() ? early.empty() : early == expected);
  std::string early_failure = early_ok ? "" : "box differs from the expected one";
  early_ok = early_ok && early.contains(halo.inner());
  for (const auto& box : halo.boundary()) {
    bool apart = false;
    for (std::size_t d = 0; d < N; ++d) {
      apart = apart || box.last[d] <= early.first[d] || box.first[d] >= early.last[d];
    }
    if (!early.contains(box) && !apart && early_ok) {
      early_ok = false;
      early_failure = "a boundary box straddles it";
    }
  }
  early.for_each([&](const std::array<std::size_t, N>& local) {
    Index<N> cell{};
    for (std::size_t d = 0; d < N; ++d) {
      cell[d] = static_cast<std::ptrdiff_t>(local[d]);
    }
    for (const auto& point : stencil.points()) {
      bool in_block = true;
      bool past_fixed_edge = false;
      Index<N> index{};
      for (std::size_t d = 0; d < N; ++d) {
        index[d] = cell[d] + point.offset[d];
        const auto global = origin[d] + index[d];
        in_block = in_block && (own_halo(d) || (index[d] >= 0 && index[d] < static_cast<std::ptrdiff_t>(extents[d])));
        past_fixed_edge = past_fixed_edge || (boundaries[d] == dash::HaloBoundary::fixed &&
                                              (global < 0 || global >= static_cast<std::ptrdiff_t>(sizes.extent(d))));
      }
      if (!in_block && !past_fixed_edge && early_ok) {
        early_ok = false;
        early_failure = "its cell " + describe<N>(cell) + " reads the exchanged index " + describe<N>(index);
      }
    }
  });
  EXPECT_TRUE(dash::testing::on_all_ranks(early_ok)) << "rank " << dash::myid() << ": without_exchange(): "
                                                     << early_failure;
}

// The units as evenly spread over N dimensions as they factor (e.g. 2 x 2 for 4, 2 x 2 x 2 for 8).
template <std::size_t N>
dash::TeamSpec<N> balanced_grid() {
  static_assert(N == 2 || N == 3);
  if constexpr (N == 2) {
    return dash::TeamSpec<2>(dash::SizeSpec<2>(), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED), P());
  } else {
    return dash::TeamSpec<3>(dash::SizeSpec<3>(), dash::DistributionSpec<3>(dash::BLOCKED, dash::BLOCKED, dash::BLOCKED),
                             P());
  }
}

template <std::size_t N>
std::array<dash::HaloBoundary, N> all(dash::HaloBoundary boundary) {
  std::array<dash::HaloBoundary, N> boundaries;
  boundaries.fill(boundary);
  return boundaries;
}

TEST(Halo, TwoDimensionalHaloHoldsTheNeighboursCells) {
  const std::size_t p = P();
  const dash::TeamSpec<2> balanced = balanced_grid<2>();
  const std::vector<std::pair<dash::TeamSpec<2>, dash::DistributionSpec<2>>> layouts = {
      {balanced, dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED)},
      {dash::TeamSpec<2>(p, 1), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE)},
      {dash::TeamSpec<2>(1, p), dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED)},
  };
  for (const std::size_t radius : {std::size_t{1}, std::size_t{2}}) {
    for (const auto& [grid, distribution] : layouts) {
      const dash::SizeSpec<2> sizes(extent_for(grid.extent(0), radius + 2), extent_for(grid.extent(1), radius + 3));
      for (const auto& stencil : {dash::Stencil<2>::star(radius, 1, 1), dash::Stencil<2>::box(radius, 1, 1)}) {
        for (const auto& boundaries :
             {all<2>(dash::HaloBoundary::periodic), all<2>(dash::HaloBoundary::fixed),
              std::array<dash::HaloBoundary, 2>{dash::HaloBoundary::fixed, dash::HaloBoundary::periodic}}) {
          SCOPED_TRACE("radius " + std::to_string(radius) + ", grid " + std::to_string(grid.extent(0)) + "x" +
                       std::to_string(grid.extent(1)) + ", " + std::to_string(stencil.size()) + " points, boundary " +
                       std::to_string(static_cast<int>(boundaries[0])) +
                       std::to_string(static_cast<int>(boundaries[1])));
          check_halo<2>(sizes, distribution, grid, stencil, boundaries);
        }
      }
    }
  }
}

TEST(Halo, AsymmetricStencilReadsOnlyWhereItReaches) {
  // Reaches two cells up, one to the right, none down or left: only those regions are exchanged.
  const dash::Stencil<2> upwind({{{0, 0}, 1.0}, {{-1, 0}, 1.0}, {{-2, 0}, 1.0}, {{0, 1}, 1.0}, {{-2, 1}, 1.0}});
  const dash::TeamSpec<2> grid = balanced_grid<2>();
  const dash::SizeSpec<2> sizes(extent_for(grid.extent(0), 3), extent_for(grid.extent(1), 2));
  for (const auto boundary : {dash::HaloBoundary::periodic, dash::HaloBoundary::fixed}) {
    check_halo<2>(sizes, dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED), grid, upwind, all<2>(boundary));
  }
}

TEST(Halo, OneAndThreeDimensionalHalos) {
  const std::size_t p = P();
  for (const std::size_t radius : {std::size_t{1}, std::size_t{2}}) {
    for (const auto boundary : {dash::HaloBoundary::periodic, dash::HaloBoundary::fixed}) {
      check_halo<1>(dash::SizeSpec<1>(extent_for(p, radius + 1)), dash::DistributionSpec<1>(dash::BLOCKED),
                    dash::TeamSpec<1>(p), dash::Stencil<1>::star(radius, 1, 1), all<1>(boundary));
    }
  }
  const dash::TeamSpec<3> grid = balanced_grid<3>();
  const dash::SizeSpec<3> sizes(extent_for(grid.extent(0), 3), extent_for(grid.extent(1), 4),
                                extent_for(grid.extent(2), 3));
  const dash::DistributionSpec<3> blocked(dash::BLOCKED, dash::BLOCKED, dash::BLOCKED);
  for (const auto boundary : {dash::HaloBoundary::periodic, dash::HaloBoundary::fixed}) {
    check_halo<3>(sizes, blocked, grid, dash::Stencil<3>::star(1, 1, 1), all<3>(boundary));   // 7-point
    check_halo<3>(sizes, blocked, grid, dash::Stencil<3>::box(1, 1, 1), all<3>(boundary));    // 27-point
    check_halo<3>(sizes, blocked, grid, dash::Stencil<3>::star(2, 1, 1), all<3>(boundary));
  }
}

TEST(Halo, EveryExchangedFaceIsReportedOnce) {
  const dash::TeamSpec<2> grid = balanced_grid<2>();
  dash::Matrix<double, 2> matrix(dash::SizeSpec<2>(extent_for(grid.extent(0), 4), extent_for(grid.extent(1), 4)),
                                 dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED), dash::Team::All(), grid);
  // The node of every unit (Team::All()'s units are the base ranks).
  std::vector<int> nodes(dash::size());
  const int my_node = dash::comm::locality().node;
  MPI_Allgather(&my_node, 1, MPI_INT, nodes.data(), 1, MPI_INT, dash::comm::base_comm());
  for (const auto boundary : {dash::HaloBoundary::periodic, dash::HaloBoundary::fixed}) {
    dash::HaloMatrix<double, 2> halo(matrix, dash::Stencil<2>::box(1, 1, 1), boundary);
    std::size_t expected = 0;
    std::size_t from_others = 0;
    std::size_t from_other_nodes = 0;
    for (std::size_t region = 0; region < 9; ++region) {
      const auto direction = dash::HaloMatrix<double, 2>::direction(region);
      bool exchanged = region != 4;
      for (std::size_t d = 0; d < 2; ++d) {
        const auto c = static_cast<std::ptrdiff_t>(grid.coords(static_cast<std::size_t>(dash::myid()))[d]) +
                       direction[d];
        exchanged = exchanged && (boundary == dash::HaloBoundary::periodic ||
                                  (c >= 0 && c < static_cast<std::ptrdiff_t>(grid.extent(d))));
      }
      expected += exchanged ? 1 : 0;
      if (exchanged) {
        auto coords = grid.coords(static_cast<std::size_t>(dash::myid()));
        for (std::size_t d = 0; d < 2; ++d) {
          const auto units = static_cast<std::ptrdiff_t>(grid.extent(d));
          coords[d] = static_cast<std::size_t>(((static_cast<std::ptrdiff_t>(coords[d]) + direction[d]) % units + units) % units);
        }
        const std::size_t source = grid.unit(coords);
        from_others += source != static_cast<std::size_t>(dash::myid()) ? 1U : 0U;
        from_other_nodes += nodes[source] != my_node ? 1U : 0U;
      }
    }
    // Faces from units on this node come through shared memory, those from other nodes (the
    // virtual cluster's runs) as messages; DASH_SHARED_MEMORY=0 turns every other unit's face
    // into a message.
    const char* shared_memory = std::getenv("DASH_SHARED_MEMORY");
    const bool messages_only = shared_memory != nullptr && std::string(shared_memory) == "0";
    const auto routes = halo.routes();
    const bool routed = routes.shared_memory + routes.messages == expected &&
                        routes.messages == (messages_only ? from_others : from_other_nodes) &&
                        routes.fixed + expected == 8;
    EXPECT_TRUE(dash::testing::on_all_ranks(routed))
        << routes.fixed << " fixed, " << routes.shared_memory << " shared, " << routes.messages << " messages";
    for (int round = 0; round < 3; ++round) {
      std::multiset<std::size_t> reported;
      auto update = halo.update_async();
      update.for_each_arrival([&](std::size_t region) { reported.insert(region); });
      bool ok = update.done() && reported.size() == expected && std::set<std::size_t>(reported.begin(), reported.end()).size() == expected;
      EXPECT_TRUE(dash::testing::on_all_ranks(ok)) << reported.size() << " reports, expected " << expected;
    }
  }
}

// What a stencil gives a cell summed as listed, written out as dash::Stencil documents it:
// c (v_0 + ... + v_K-1) when every coefficient is c, else c_0 v_0 + ... + c_K-1 v_K-1, left to right.
template <std::size_t N, class Value>
double listed_value(const dash::Stencil<N>& stencil, const Value& value_at) {
  const auto& points = stencil.points();
  bool same = true;
  for (const auto& point : points) {
    same = same && point.coefficient == points[0].coefficient;
  }
  double sum = same ? value_at(points[0].offset) : points[0].coefficient * value_at(points[0].offset);
  for (std::size_t p = 1; p < points.size(); ++p) {
    sum += same ? value_at(points[p].offset) : points[p].coefficient * value_at(points[p].offset);
  }
  return same ? points[0].coefficient * sum : sum;
}

// What a stencil gives a cell summed grouped, written out from the order dash::StencilGrouping
// documents: lines (points sharing all offsets but the last), classes of lines with the same
// coefficient at each last offset, terms (class, shift) grouped by coefficient in order of first
// appearance; w_1 (t_11 + t_12 + ...) + w_2 (...) + ..., each term the sum of its class's lines.
template <std::size_t N, class Value>
double grouped_value(const dash::Stencil<N>& stencil, const Value& value_at) {
  using Head = std::array<std::ptrdiff_t, N - 1>;
  const auto head = [](const Index<N>& offset) {
    Head h{};
    for (std::size_t d = 0; d + 1 < N; ++d) {
      h[d] = offset[d];
    }
    return h;
  };
  std::vector<Head> lines;
  std::vector<std::map<std::ptrdiff_t, double>> profiles;
  std::vector<std::size_t> line_of;
  for (const auto& point : stencil.points()) {
    const auto found = std::find(lines.begin(), lines.end(), head(point.offset));
    line_of.push_back(static_cast<std::size_t>(found - lines.begin()));
    if (found == lines.end()) {
      lines.push_back(head(point.offset));
      profiles.emplace_back();
    }
    profiles[line_of.back()][point.offset[N - 1]] = point.coefficient;
  }
  std::vector<std::vector<std::size_t>> classes;
  std::vector<std::size_t> class_of(lines.size());
  for (std::size_t line = 0; line < lines.size(); ++line) {
    std::size_t c = 0;
    while (c < classes.size() && profiles[classes[c].front()] != profiles[line]) {
      ++c;
    }
    if (c == classes.size()) {
      classes.emplace_back();
    }
    classes[c].push_back(line);
    class_of[line] = c;
  }
  std::vector<double> weights;
  std::vector<std::vector<std::pair<std::size_t, std::ptrdiff_t>>> terms;
  std::set<std::pair<std::size_t, std::ptrdiff_t>> seen;
  for (std::size_t p = 0; p < stencil.points().size(); ++p) {
    const auto& point = stencil.points()[p];
    const auto g = static_cast<std::size_t>(std::find(weights.begin(), weights.end(), point.coefficient) - weights.begin());
    if (g == weights.size()) {
      weights.push_back(point.coefficient);
      terms.emplace_back();
    }
    const std::pair<std::size_t, std::ptrdiff_t> term{class_of[line_of[p]], point.offset[N - 1]};
    if (seen.insert(term).second) {
      terms[g].push_back(term);
    }
  }
  double total = 0;
  for (std::size_t g = 0; g < weights.size(); ++g) {
    double group_sum = 0;
    for (std::size_t t = 0; t < terms[g].size(); ++t) {
      const auto [c, shift] = terms[g][t];
      double partial = 0;
      for (std::size_t j = 0; j < classes[c].size(); ++j) {
        Index<N> offset{};
        for (std::size_t d = 0; d + 1 < N; ++d) {
          offset[d] = lines[classes[c][j]][d];
        }
        offset[N - 1] = shift;
        partial = j == 0 ? value_at(offset) : partial + value_at(offset);
      }
      group_sum = t == 0 ? partial : group_sum + partial;
    }
    total = g == 0 ? weights[g] * group_sum : total + weights[g] * group_sum;
  }
  return total;
}

// The value of a cell in the summation order `summation` resolves to for the stencil.
template <std::size_t N, class Value>
double stencil_value(const dash::Stencil<N>& stencil, dash::StencilSummation summation, const Value& value_at) {
  const bool grouped =
      summation == dash::StencilSummation::grouped ||
      (summation == dash::StencilSummation::automatic &&
       4 * stencil.grouping().grouped_operations() <= 3 * stencil.listed_operations());
  return grouped ? grouped_value(stencil, value_at) : listed_value(stencil, value_at);
}

// The 2-D heat equation of Kowalewski 2021 §7.5 (Jacobi, 5-point, fixed boundary) and a 9-point periodic
// variant, against the same arithmetic done serially on the whole grid.
void check_iterations(const dash::TeamSpec<2>& grid, const dash::DistributionSpec<2>& distribution,
                      const dash::Stencil<2>& stencil, dash::HaloBoundary boundary, bool partial,
                      dash::StencilSummation summation, std::size_t block_rows = 5) {
  const std::size_t rows = extent_for(grid.extent(0), block_rows);
  const std::size_t cols = extent_for(grid.extent(1), 4);
  const auto initial = [](std::ptrdiff_t i, std::ptrdiff_t j) { return 0.001 * static_cast<double>((i * 37 + j * 11) % 101); };
  const auto edge = [&](const Index<2>& g) { return g[0] < 0 ? 1.0 : 0.25 * static_cast<double>(g[1] % 3); };
  const int iterations = 12;

  std::vector<double> serial(rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      serial[i * cols + j] = initial(static_cast<std::ptrdiff_t>(i), static_cast<std::ptrdiff_t>(j));
    }
  }
  std::vector<double> next(serial.size());
  const auto n0 = static_cast<std::ptrdiff_t>(rows);
  const auto n1 = static_cast<std::ptrdiff_t>(cols);
  for (int it = 0; it < iterations; ++it) {
    for (std::ptrdiff_t i = 0; i < n0; ++i) {
      for (std::ptrdiff_t j = 0; j < n1; ++j) {
        next[static_cast<std::size_t>(i * n1 + j)] = stencil_value(stencil, summation, [&](const Index<2>& offset) {
          std::ptrdiff_t a = i + offset[0];
          std::ptrdiff_t b = j + offset[1];
          if (boundary == dash::HaloBoundary::fixed && (a < 0 || a >= n0 || b < 0 || b >= n1)) {
            return edge({a, b});
          }
          a = (a % n0 + n0) % n0;
          b = (b % n1 + n1) % n1;
          return serial[static_cast<std::size_t>(a * n1 + b)];
        });
      }
    }
    serial.swap(next);
  }

  dash::Matrix<double, 2> u(dash::SizeSpec<2>(rows, cols), distribution, dash::Team::All(), grid);
  dash::Matrix<double, 2> v(dash::SizeSpec<2>(rows, cols), distribution, dash::Team::All(), grid);
  dash::HaloMatrix<double, 2> halo_u(u, stencil, boundary, edge);
  dash::HaloMatrix<double, 2> halo_v(v, stencil, boundary, edge);
  const auto& extents = halo_u.local_extents();
  const auto& origin = halo_u.local_origin();
  for (std::size_t i = 0; i < extents[0]; ++i) {
    for (std::size_t j = 0; j < extents[1]; ++j) {
      u.lbegin()[i * extents[1] + j] =
          initial(origin[0] + static_cast<std::ptrdiff_t>(i), origin[1] + static_cast<std::ptrdiff_t>(j));
    }
  }
  dash::StencilOptions options;
  options.partial = partial;
  options.summation = summation;
  for (int it = 0; it < iterations; ++it) {
    if (it % 2 == 0) {
      dash::apply_stencil(halo_u, v, options);
    } else {
      dash::apply_stencil(halo_v, u, options);
    }
  }
  const auto& result = iterations % 2 == 0 ? u : v;
  bool ok = true;
  for (std::size_t i = 0; i < extents[0]; ++i) {
    for (std::size_t j = 0; j < extents[1]; ++j) {
      const auto gi = static_cast<std::size_t>(origin[0]) + i;
      const auto gj = static_cast<std::size_t>(origin[1]) + j;
      ok = ok && result.lbegin()[i * extents[1] + j] == serial[gi * cols + gj];
    }
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  u.barrier();
}

TEST(Halo, HeatEquationEqualsTheSerialComputationBitForBit) {
  const std::size_t p = P();
  const std::vector<std::pair<dash::TeamSpec<2>, dash::DistributionSpec<2>>> layouts = {
      {balanced_grid<2>(), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED)},
      {dash::TeamSpec<2>(p, 1), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE)},
  };
  const dash::Stencil<2> jacobi({{{-1, 0}, 0.25}, {{1, 0}, 0.25}, {{0, -1}, 0.25}, {{0, 1}, 0.25}});
  // An upwind stencil whose lines reach only forward and whose weights repeat unevenly.
  const dash::Stencil<2> upwind(
      {{{0, 1}, 0.5}, {{0, 2}, 0.25}, {{1, 1}, 0.5}, {{1, 2}, 0.25}, {{1, 0}, -1.0}, {{2, 1}, 0.5}, {{2, 2}, 0.25}});
  for (const auto& [grid, distribution] : layouts) {
    for (const bool partial : {true, false}) {
      // automatic resolves to one of the two (checked in FinishCombinesTheSumWithOtherData).
      for (const auto summation : {dash::StencilSummation::as_listed, dash::StencilSummation::grouped}) {
        check_iterations(grid, distribution, jacobi, dash::HaloBoundary::fixed, partial, summation);
        check_iterations(grid, distribution, dash::Stencil<2>::box(1, 0.2, 0.1), dash::HaloBoundary::periodic, partial,
                         summation);
        check_iterations(grid, distribution, dash::Stencil<2>::star(2, 0.5, 0.0625), dash::HaloBoundary::fixed, partial,
                         summation);
        check_iterations(grid, distribution, upwind, dash::HaloBoundary::periodic, partial, summation);
        // 49 points: more than the unrolled row kernels take.
        check_iterations(grid, distribution, dash::Stencil<2>::box(3, 0.25, 0.015625), dash::HaloBoundary::periodic,
                         partial, summation);
        // Blocks taller than the lines apply_stencil hands to the kernel in one pass (32), and not a
        // multiple of them.
        check_iterations(grid, distribution, jacobi, dash::HaloBoundary::fixed, partial, summation, 70);
        check_iterations(grid, distribution, dash::Stencil<2>::box(3, 0.25, 0.015625), dash::HaloBoundary::periodic,
                         partial, summation, 70);
      }
    }
  }
}

// r = v - A u and then u += S r, as a multigrid residual and smoothing step (NPB MG's resid and
// psinv), on a periodic 3-D grid with a 27-point and a 19-point stencil.
void check_residual_and_smoothing(dash::StencilSummation summation) {
  const dash::TeamSpec<3> grid = balanced_grid<3>();
  const std::array<std::size_t, 3> n{extent_for(grid.extent(0), 3), extent_for(grid.extent(1), 3),
                                     extent_for(grid.extent(2), 4)};
  const dash::SizeSpec<3> sizes(n[0], n[1], n[2]);
  const dash::DistributionSpec<3> blocked(dash::BLOCKED, dash::BLOCKED, dash::BLOCKED);
  dash::Matrix<double, 3> u(sizes, blocked, dash::Team::All(), grid);
  dash::Matrix<double, 3> v(sizes, blocked, dash::Team::All(), grid);
  dash::Matrix<double, 3> r(sizes, blocked, dash::Team::All(), grid);
  const auto a = dash::Stencil<3>::box(1, -8.0 / 3.0, 1.0 / 12.0);
  std::vector<dash::StencilPoint<3>> smoothing_points;
  const auto cube = dash::Stencil<3>::box(1, 0, 0);
  for (const auto& point : cube.points()) {
    const int distance = std::abs(static_cast<int>(point.offset[0])) + std::abs(static_cast<int>(point.offset[1])) +
                         std::abs(static_cast<int>(point.offset[2]));
    if (distance < 3) {
      smoothing_points.push_back({point.offset, distance == 0 ? -3.0 / 8.0 : distance == 1 ? 1.0 / 32.0 : -1.0 / 64.0});
    }
  }
  const dash::Stencil<3> s(smoothing_points);
  dash::HaloMatrix<double, 3> halo_u(u, a);
  dash::HaloMatrix<double, 3> halo_r(r, s);
  const auto& extents = halo_u.local_extents();
  const auto& origin = halo_u.local_origin();
  const auto u_at = [](std::size_t i, std::size_t j, std::size_t k) { return 0.001 * static_cast<double>((i * 131 + j * 17 + k * 7) % 97); };
  const auto v_at = [](std::size_t i, std::size_t j, std::size_t k) { return (i + j + k) % 5 == 0 ? 1.0 : 0.0; };
  const auto local_cells = [&](auto&& f) {
    for (std::size_t i = 0; i < extents[0]; ++i) {
      for (std::size_t j = 0; j < extents[1]; ++j) {
        for (std::size_t k = 0; k < extents[2]; ++k) {
          f((i * extents[1] + j) * extents[2] + k, static_cast<std::size_t>(origin[0]) + i,
            static_cast<std::size_t>(origin[1]) + j, static_cast<std::size_t>(origin[2]) + k);
        }
      }
    }
  };
  local_cells([&](std::size_t at, std::size_t i, std::size_t j, std::size_t k) {
    u.lbegin()[at] = u_at(i, j, k);
    v.lbegin()[at] = v_at(i, j, k);
  });
  const double* v_local = v.lbegin();
  double* u_local = u.lbegin();
  dash::StencilOptions options;
  options.summation = summation;
  dash::apply_stencil(halo_u, r, [&](double sum, std::size_t at) { return v_local[at] - sum; }, options);
  dash::apply_stencil(halo_r, u, [&](double sum, std::size_t at) { return u_local[at] + sum; }, options);

  // The same two steps on the whole grid.
  const std::size_t total = n[0] * n[1] * n[2];
  const auto wrap = [&](std::size_t i, std::size_t j, std::size_t k, const std::array<std::ptrdiff_t, 3>& o) {
    const auto w = [](std::size_t x, std::ptrdiff_t d, std::size_t m) {
      return static_cast<std::size_t>((static_cast<std::ptrdiff_t>(x) + d + static_cast<std::ptrdiff_t>(m)) %
                                      static_cast<std::ptrdiff_t>(m));
    };
    return (w(i, o[0], n[0]) * n[1] + w(j, o[1], n[1])) * n[2] + w(k, o[2], n[2]);
  };
  std::vector<double> su(total);
  std::vector<double> sr(total);
  for (std::size_t i = 0; i < n[0]; ++i) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t k = 0; k < n[2]; ++k) {
        su[(i * n[1] + j) * n[2] + k] = u_at(i, j, k);
      }
    }
  }
  const auto sweep = [&](const dash::Stencil<3>& stencil, const std::vector<double>& in, auto&& store) {
    for (std::size_t i = 0; i < n[0]; ++i) {
      for (std::size_t j = 0; j < n[1]; ++j) {
        for (std::size_t k = 0; k < n[2]; ++k) {
          const double sum =
              stencil_value(stencil, summation, [&](const Index<3>& offset) { return in[wrap(i, j, k, offset)]; });
          store((i * n[1] + j) * n[2] + k, i, j, k, sum);
        }
      }
    }
  };
  sweep(a, su, [&](std::size_t at, std::size_t i, std::size_t j, std::size_t k, double sum) { sr[at] = v_at(i, j, k) - sum; });
  sweep(s, sr, [&](std::size_t at, std::size_t, std::size_t, std::size_t, double sum) { su[at] += sum; });

  bool ok = true;
  local_cells([&](std::size_t at, std::size_t i, std::size_t j, std::size_t k) {
    const std::size_t g = (i * n[1] + j) * n[2] + k;
    ok = ok && r.lbegin()[at] == sr[g] && u.lbegin()[at] == su[g];
  });
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  u.barrier();
}

TEST(Halo, FinishCombinesTheSumWithOtherData) {
  for (const auto summation :
       {dash::StencilSummation::automatic, dash::StencilSummation::as_listed, dash::StencilSummation::grouped}) {
    check_residual_and_smoothing(summation);
  }
}

TEST(Halo, RejectsLayoutsAndCallsItCannotServe) {
  const std::size_t p = P();
  const auto star = dash::Stencil<2>::star(1, 1, 1);
  {
    dash::Matrix<double, 2> cyclic(dash::SizeSpec<2>(4 * p, 4), dash::DistributionSpec<2>(dash::CYCLIC, dash::NONE),
                                   dash::Team::All(), dash::TeamSpec<2>(p, 1));
    EXPECT_THROW((dash::HaloMatrix<double, 2>(cyclic, star)), dash::InvalidArgument);
  }
  if (p > 1) {
    // p + 1 rows over p units in blocks of 2: the last units get fewer rows than radius 2 needs.
    dash::Matrix<double, 2> thin(dash::SizeSpec<2>(p + 1, 8), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                                 dash::Team::All(), dash::TeamSpec<2>(p, 1));
    EXPECT_THROW((dash::HaloMatrix<double, 2>(thin, dash::Stencil<2>::star(2, 1, 1))), dash::InvalidArgument);
  }
  {
    // Units that pass different stencils are told so, instead of exchanging mismatched faces.
    dash::Matrix<double, 2> m(dash::SizeSpec<2>(4 * p, 8), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                              dash::Team::All(), dash::TeamSpec<2>(p, 1));
    const auto mine = dash::myid() == 0 ? dash::Stencil<2>::star(1, 1, 1) : dash::Stencil<2>::box(1, 1, 1);
    if (p > 1) {
      EXPECT_THROW((dash::HaloMatrix<double, 2>(m, mine)), dash::InvalidArgument);
    }
    const auto periodic_first = dash::myid() == 0 ? dash::HaloBoundary::periodic : dash::HaloBoundary::fixed;
    if (p > 1) {
      EXPECT_THROW((dash::HaloMatrix<double, 2>(m, star, periodic_first)), dash::InvalidArgument);
    }
  }
  EXPECT_THROW(dash::Stencil<2>::star(0, 1, 1), dash::InvalidArgument);
  EXPECT_THROW(dash::Stencil<2>({}), dash::InvalidArgument);
  EXPECT_THROW(dash::Stencil<2>({{{0, 1}, 1.0}, {{0, 1}, 2.0}}), dash::InvalidArgument);

  dash::Matrix<double, 2> u(dash::SizeSpec<2>(3 * p, 6), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                            dash::Team::All(), dash::TeamSpec<2>(p, 1));
  dash::HaloMatrix<double, 2> halo(u, star);
  EXPECT_THROW(halo.value({-1, -1}), dash::OutOfRange);  // a corner: the star stencil never reads it
  EXPECT_THROW(halo.value({0, 7}), dash::OutOfRange);
  {
    auto update = halo.update_async();
    EXPECT_THROW(halo.update_async(), dash::InvalidState);
    update.wait();
  }
  EXPECT_THROW(dash::apply_stencil(halo, u), dash::InvalidArgument);
  dash::Matrix<double, 2> other_shape(dash::SizeSpec<2>(3 * p, 5), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                                      dash::Team::All(), dash::TeamSpec<2>(p, 1));
  EXPECT_THROW(dash::apply_stencil(halo, other_shape), dash::InvalidArgument);
}

}  // namespace
