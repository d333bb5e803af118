// CartesianGrid: rank <-> coordinates in row-major order and neighbours as MPI_Cart_create
// (reorder = 0), MPI_Cart_coords, MPI_Cart_rank and MPI_Cart_shift define them, without MPI.

#include <climits>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/exception.hpp>

#include "grid_names.hpp"

namespace {

using dash::testing::describe;

using dash::comm::CartesianGrid;

// Visits every point of the grid in row-major order (last coordinate fastest), counting ranks.
template <class Visit>
void for_each_point(const CartesianGrid& grid, Visit visit) {
  std::vector<int> point(static_cast<std::size_t>(grid.ndims()), 0);
  for (int rank = 0; rank < grid.size(); ++rank) {
    visit(rank, point);
    for (int d = grid.ndims() - 1; d >= 0; --d) {
      auto& c = point[static_cast<std::size_t>(d)];
      if (++c < grid.dims()[static_cast<std::size_t>(d)]) {
        break;
      }
      c = 0;
    }
  }
}

const std::vector<CartesianGrid>& sample_grids() {
  static const std::vector<CartesianGrid> grids = {
      CartesianGrid({}, {}),
      CartesianGrid({1}, {false}),
      CartesianGrid({1}, {true}),
      CartesianGrid({2}, {true}),
      CartesianGrid({7}, {false}),
      CartesianGrid({7}, {true}),
      CartesianGrid({2, 3, 4}, {false, true, false}),
      CartesianGrid({3, 1, 2}, {true, true, true}),
      CartesianGrid({4, 5}, {true, false}),
      CartesianGrid({1, 6, 1, 2}, {false, true, true, false}),
      CartesianGrid({2, 2, 2, 2, 2}, {true, false, true, false, true}),
  };
  return grids;
}

TEST(CartesianGrid, RanksFollowRowMajorOrder) {
  for (const CartesianGrid& grid : sample_grids()) {
    SCOPED_TRACE(describe(grid));
    int product = 1;
    for (const int extent : grid.dims()) {
      product *= extent;
    }
    EXPECT_EQ(grid.size(), product);
    EXPECT_EQ(grid.neighbor_slots(), 2 * grid.ndims());
    for_each_point(grid, [&](int rank, const std::vector<int>& point) {
      EXPECT_EQ(grid.coordinates(rank), point) << "rank " << rank;
      EXPECT_EQ(grid.rank_of(point), rank) << "rank " << rank;
      for (int d = 0; d < grid.ndims(); ++d) {
        EXPECT_EQ(grid.coordinate(rank, d), point[static_cast<std::size_t>(d)]) << "rank " << rank;
      }
    });
  }
}

TEST(CartesianGrid, ExampleCoordinates) {
  const CartesianGrid grid({2, 3, 4}, {false, false, false});
  EXPECT_EQ(grid.coordinates(0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(grid.coordinates(1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(grid.coordinates(4), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(grid.coordinates(13), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(grid.coordinates(23), (std::vector<int>{1, 2, 3}));
}

// MPI_Cart_shift by coordinates: add the displacement, wrap in a periodic dimension, none
// outside a non-periodic one.
std::optional<int> shifted_by_coordinates(const CartesianGrid& grid, std::vector<int> point, int dimension,
                                          int displacement) {
  const auto d = static_cast<std::size_t>(dimension);
  const int extent = grid.dims()[d];
  int c = point[d] + displacement;
  if (grid.periodic()[d]) {
    c = ((c % extent) + extent) % extent;
  } else if (c < 0 || c >= extent) {
    return std::nullopt;
  }
  point[d] = c;
  return grid.rank_of(point);
}

TEST(CartesianGrid, NeighboursWrapInPeriodicDimensionsOnly) {
  for (const CartesianGrid& grid : sample_grids()) {
    SCOPED_TRACE(describe(grid));
    for_each_point(grid, [&](int rank, const std::vector<int>& point) {
      for (int d = 0; d < grid.ndims(); ++d) {
        for (const int displacement : {-1, 1, -3, 2, 5, 0}) {
          EXPECT_EQ(grid.neighbor(rank, d, displacement), shifted_by_coordinates(grid, point, d, displacement))
              << "rank " << rank << " dimension " << d << " displacement " << displacement;
        }
        EXPECT_EQ(grid.neighbor_in_slot(rank, 2 * d), grid.neighbor(rank, d, -1));
        EXPECT_EQ(grid.neighbor_in_slot(rank, 2 * d + 1), grid.neighbor(rank, d, 1));
      }
    });
  }
}

TEST(CartesianGrid, SmallPeriodicDimensions) {
  // Size 1: the rank is its own neighbour on both sides; size 2: both neighbours are the other one.
  const CartesianGrid grid({1, 2, 3}, {true, true, false});
  for (int rank = 0; rank < grid.size(); ++rank) {
    EXPECT_EQ(grid.neighbor(rank, 0, -1), rank);
    EXPECT_EQ(grid.neighbor(rank, 0, 1), rank);
    const int other = rank < 3 ? rank + 3 : rank - 3;
    EXPECT_EQ(grid.neighbor(rank, 1, -1), other);
    EXPECT_EQ(grid.neighbor(rank, 1, 1), other);
  }
  EXPECT_EQ(grid.neighbor(0, 2, -1), std::nullopt);
  EXPECT_EQ(grid.neighbor(0, 2, 1), 1);
  EXPECT_EQ(grid.neighbor(2, 2, 1), std::nullopt);
  const CartesianGrid single({1}, {false});
  EXPECT_EQ(single.neighbor(0, 0, -1), std::nullopt);
  EXPECT_EQ(single.neighbor(0, 0, 1), std::nullopt);
}

TEST(CartesianGrid, ZeroDimensionsHoldOneRank) {
  const CartesianGrid grid({}, {});
  EXPECT_EQ(grid.size(), 1);
  EXPECT_EQ(grid.ndims(), 0);
  EXPECT_EQ(grid.neighbor_slots(), 0);
  EXPECT_TRUE(grid.coordinates(0).empty());
  EXPECT_EQ(grid.rank_of(std::vector<int>{}), 0);
}

TEST(CartesianGrid, ComparesByValue) {
  EXPECT_EQ(CartesianGrid({2, 3}, {true, false}), CartesianGrid({2, 3}, {true, false}));
  EXPECT_NE(CartesianGrid({2, 3}, {true, false}), CartesianGrid({2, 3}, {false, false}));
  EXPECT_NE(CartesianGrid({2, 3}, {true, false}), CartesianGrid({3, 2}, {true, false}));
  EXPECT_NE(CartesianGrid({6}, {true}), CartesianGrid({6, 1}, {true, true}));
}

template <class Exception, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const Exception& error) {
    return error.what();
  }
  return "no exception";
}

TEST(CartesianGrid, RejectsBadShapes) {
  using dash::InvalidArgument;
  EXPECT_EQ(message_of<InvalidArgument>([] { CartesianGrid({2, 3}, {true}); }),
            "dash::comm::CartesianGrid: invalid argument 'periodic.size()' = 1; expected 2 (one flag per "
            "dimension, as dims.size())");
  EXPECT_EQ(message_of<InvalidArgument>([] { CartesianGrid({2, 0, 3}, {true, true, true}); }),
            "dash::comm::CartesianGrid: invalid argument 'dims[1]' = 0; expected at least 1");
  EXPECT_EQ(message_of<InvalidArgument>([] { CartesianGrid({-4}, {false}); }),
            "dash::comm::CartesianGrid: invalid argument 'dims[0]' = -4; expected at least 1");
  EXPECT_NE(message_of<InvalidArgument>([] { CartesianGrid({65536, 32768}, {false, false}); })
                .find("expected a product of dimensions of at most " + std::to_string(INT_MAX)),
            std::string::npos);
  EXPECT_EQ(CartesianGrid({65535, 32768}, {false, false}).size(), 65535 * 32768);
}

TEST(CartesianGrid, RejectsBadRanksDimensionsAndSlots) {
  using dash::InvalidArgument;
  using dash::OutOfRange;
  const CartesianGrid grid({2, 3}, {true, false});
  EXPECT_EQ(message_of<OutOfRange>([&] { (void)grid.coordinates(6); }),
            "dash::comm::CartesianGrid::coordinates: argument 'rank' = 6 is out of range; expected a rank in [0, 6)");
  EXPECT_EQ(message_of<OutOfRange>([&] { (void)grid.neighbor(-1, 0, 1); }),
            "dash::comm::CartesianGrid::neighbor: argument 'rank' = -1 is out of range; expected a rank in [0, 6)");
  EXPECT_EQ(message_of<OutOfRange>([&] { (void)grid.coordinate(0, 2); }),
            "dash::comm::CartesianGrid::coordinate: argument 'dimension' = 2 is out of range; expected a "
            "dimension in [0, 2)");
  EXPECT_EQ(message_of<OutOfRange>([&] { (void)grid.neighbor_in_slot(0, 4); }),
            "dash::comm::CartesianGrid::neighbor_in_slot: argument 'slot' = 4 is out of range; expected a slot in "
            "[0, 4)");
  EXPECT_EQ(message_of<InvalidArgument>([&] { (void)grid.rank_of(std::vector<int>{1}); }),
            "dash::comm::CartesianGrid::rank_of: invalid argument 'coordinates.size()' = 1; expected 2 (the number "
            "of dimensions)");
  EXPECT_EQ(message_of<OutOfRange>([&] { (void)grid.rank_of(std::vector<int>{1, 3}); }),
            "dash::comm::CartesianGrid::rank_of: argument 'coordinates[1]' = 3 is out of range; expected a "
            "coordinate in [0, 3)");
}

}  // namespace
