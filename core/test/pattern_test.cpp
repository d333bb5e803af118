// dash::Pattern index maths without MPI: every mapping checked against a brute-force oracle that
// deals the blocks of each dimension round-robin, ranks each unit's elements by enumeration and
// sorts them into local memory order, for 1-D, 2-D and 3-D patterns of every distribution kind.
//
// Map: printers and index helpers; Oracle (the semantics by enumeration); check_runs and
// check_pattern (every query against the oracle); the distribution lists; then Distribution,
// SizeSpec, DistributionSpec, TeamSpec; Pattern1D, Pattern2D, Pattern3D against the oracle and by
// hand; Pattern's default, its largest sizes and its errors.

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <ostream>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <dash/comm/exception.hpp>
#include <dash/core/distribution.hpp>
#include <dash/core/distribution_spec.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/size_spec.hpp>
#include <dash/core/team_spec.hpp>

namespace dash {

// Readable values in failure messages.
void PrintTo(const LocalIndex& where, std::ostream* out) {
  *out << "{unit " << where.unit << ", index " << where.index << "}";
}
void PrintTo(const Run& run, std::ostream* out) {
  *out << "{unit " << run.unit << ", global " << run.global_begin << ", local " << run.local_begin << ", length "
       << run.length << "}";
}

}  // namespace dash

namespace {

using dash::BLOCKCYCLIC;
using dash::BLOCKED;
using dash::CYCLIC;
using dash::Distribution;
using dash::DistributionKind;
using dash::DistributionSpec;
using dash::LocalIndex;
using dash::NONE;
using dash::Pattern;
using dash::SizeSpec;
using dash::TeamSpec;
using dash::TILE;

template <std::size_t N>
using Coords = std::array<std::size_t, N>;

template <std::size_t N>
std::string describe(const Coords<N>& extents, const DistributionSpec<N>& distributions, const Coords<N>& team) {
  std::string text = "extents";
  for (std::size_t extent : extents) {
    text += " " + std::to_string(extent);
  }
  text += ", distributions";
  for (std::size_t dim = 0; dim < N; ++dim) {
    text += " " + distributions[dim].name();
  }
  text += ", team";
  for (std::size_t units : team) {
    text += " " + std::to_string(units);
  }
  return text;
}

template <std::size_t N>
std::size_t product(const Coords<N>& extents) {
  return std::accumulate(extents.begin(), extents.end(), std::size_t{1}, std::multiplies<>());
}

template <std::size_t N>
Coords<N> row_major_coords(std::size_t linear, const Coords<N>& extents) {
  Coords<N> coords{};
  for (std::size_t dim = N; dim-- > 0;) {
    coords[dim] = linear % extents[dim];
    linear /= extents[dim];
  }
  return coords;
}

// What the semantics say, found by enumeration rather than by the pattern's formulas.
template <std::size_t N>
struct Oracle {
  Coords<N> block_sizes{};
  Coords<N> nblocks{};
  // Per dimension and global coordinate: unit coordinate, rank among that unit coordinate's
  // coordinates, rank of its block among that unit coordinate's blocks, position in the block.
  std::array<std::vector<std::size_t>, N> owner, local_coord, local_block, in_block;
  std::array<std::vector<std::size_t>, N> local_extent;  // per dimension and unit coordinate
  std::vector<LocalIndex> where;                         // per global linear index
  std::vector<std::vector<std::size_t>> elements_of;     // per unit: global linear index by local index

  Oracle(const Coords<N>& extents, const DistributionSpec<N>& distributions, const Coords<N>& team, bool tiled) {
    for (std::size_t dim = 0; dim < N; ++dim) {
      const std::size_t n = extents[dim];
      const std::size_t units = team[dim];
      std::size_t block = distributions[dim].fixed_block_size();
      if (distributions[dim].kind() == DistributionKind::blocked) {
        block = std::max<std::size_t>(1, (n + units - 1) / units);
      } else if (distributions[dim].kind() == DistributionKind::none) {
        block = std::max<std::size_t>(1, n);
      }
      block_sizes[dim] = block;
      std::vector<std::size_t> seen(units, 0);
      std::vector<std::size_t> blocks_seen(units, 0);
      std::size_t unit = 0;
      std::size_t left_in_block = 0;
      std::size_t offset_in_block = 0;
      for (std::size_t g = 0; g < n; ++g) {
        if (left_in_block == 0) {  // deal the next block
          unit = nblocks[dim]++ % units;
          ++blocks_seen[unit];
          left_in_block = block;
          offset_in_block = 0;
        }
        owner[dim].push_back(unit);
        local_coord[dim].push_back(seen[unit]++);
        local_block[dim].push_back(blocks_seen[unit] - 1);
        in_block[dim].push_back(offset_in_block++);
        --left_in_block;
      }
      local_extent[dim] = seen;
    }

    const std::size_t size = product<N>(extents);
    const std::size_t num_units = product<N>(team);
    using Key = std::pair<std::vector<std::size_t>, std::size_t>;  // (local memory order key, global)
    std::vector<std::vector<Key>> keyed(num_units);
    for (std::size_t global = 0; global < size; ++global) {
      const Coords<N> coords = row_major_coords<N>(global, extents);
      std::size_t unit = 0;
      std::vector<std::size_t> key;
      for (std::size_t dim = 0; dim < N; ++dim) {
        unit = unit * team[dim] + owner[dim][coords[dim]];
        key.push_back(tiled ? local_block[dim][coords[dim]] : local_coord[dim][coords[dim]]);
      }
      for (std::size_t dim = 0; tiled && dim < N; ++dim) {
        key.push_back(in_block[dim][coords[dim]]);
      }
      keyed[unit].emplace_back(key, global);
    }
    where.resize(size);
    elements_of.resize(num_units);
    for (std::size_t unit = 0; unit < num_units; ++unit) {
      std::sort(keyed[unit].begin(), keyed[unit].end());
      for (const Key& entry : keyed[unit]) {
        where[entry.second] = LocalIndex{unit, elements_of[unit].size()};
        elements_of[unit].push_back(entry.second);
      }
    }
  }
};

// Boundaries of the ranges whose runs are checked: all pairs for small patterns, else a sample.
std::vector<std::size_t> range_points(std::size_t size, std::size_t block) {
  std::vector<std::size_t> points;
  if (size <= 16) {
    points.resize(size + 1);
    std::iota(points.begin(), points.end(), std::size_t{0});
    return points;
  }
  for (std::size_t point : {std::size_t{0}, std::size_t{1}, block - 1, block, block + 1, size / 3, size / 2,
                            size - 1, size}) {
    if (point <= size) {
      points.push_back(point);
    }
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

template <std::size_t N>
void check_runs(const Pattern<N>& pattern, const Oracle<N>& oracle, std::size_t gbegin, std::size_t gend) {
  SCOPED_TRACE("runs of [" + std::to_string(gbegin) + ", " + std::to_string(gend) + ")");
  std::vector<dash::Run> runs;
  pattern.for_each_run(gbegin, gend, [&](const dash::Run& run) { runs.push_back(run); });
  std::size_t expected_runs = 0;
  for (std::size_t global = gbegin; global < gend; ++global) {
    const LocalIndex here = oracle.where[global];
    const bool continues = global > gbegin && oracle.where[global - 1].unit == here.unit &&
                           oracle.where[global - 1].index + 1 == here.index;
    expected_runs += continues ? std::size_t{0} : std::size_t{1};
  }
  ASSERT_EQ(runs.size(), expected_runs);
  std::size_t next = gbegin;
  for (const dash::Run& run : runs) {
    ASSERT_EQ(run.global_begin, next);
    ASSERT_GT(run.length, 0U);
    for (std::size_t step = 0; step < run.length; ++step) {
      ASSERT_EQ(oracle.where[run.global_begin + step], (LocalIndex{run.unit, run.local_begin + step}));
    }
    next += run.length;
  }
  EXPECT_EQ(next, gend);
}

// Every query of the pattern against the oracle.
template <std::size_t N>
void check_pattern(const Coords<N>& extents, const DistributionSpec<N>& distributions, const Coords<N>& team) {
  SCOPED_TRACE(describe<N>(extents, distributions, team));
  const Pattern<N> pattern(SizeSpec<N>(extents), distributions, TeamSpec<N>(team));
  const Oracle<N> oracle(extents, distributions, team, pattern.is_tiled());
  const std::size_t size = product<N>(extents);
  const std::size_t num_units = product<N>(team);

  ASSERT_EQ(pattern.size(), size);
  ASSERT_EQ(pattern.num_units(), num_units);
  ASSERT_EQ(pattern.extents(), extents);
  for (std::size_t dim = 0; dim < N; ++dim) {
    ASSERT_EQ(pattern.blocksize(dim), oracle.block_sizes[dim]) << "dim " << dim;
    ASSERT_EQ(pattern.nblocks(dim), oracle.nblocks[dim]) << "dim " << dim;
  }

  // Global to local: each global index has exactly the owner and offset the oracle found.
  for (std::size_t global = 0; global < size; ++global) {
    const Coords<N> coords = row_major_coords<N>(global, extents);
    const LocalIndex expected = oracle.where[global];
    ASSERT_EQ(pattern.coords(global), coords);
    ASSERT_EQ(pattern.linear(coords), global);
    ASSERT_EQ(pattern.local(global), expected) << "global " << global;
    ASSERT_EQ(pattern.local(coords), expected) << "global " << global;
    ASSERT_EQ(pattern.unit_at(global), expected.unit);
    ASSERT_EQ(pattern.unit_at(coords), expected.unit);
    ASSERT_TRUE(pattern.is_local(global, expected.unit));
    ASSERT_FALSE(pattern.is_local(global, (expected.unit + 1) % num_units) && num_units > 1);
  }

  // Local to global: the local indices of a unit are exactly 0 .. local_size - 1 and map back.
  std::size_t capacity = 0;
  for (std::size_t unit = 0; unit < num_units; ++unit) {
    const std::vector<std::size_t>& elements = oracle.elements_of[unit];
    ASSERT_EQ(pattern.local_size(unit), elements.size()) << "unit " << unit;
    const Coords<N> local_extents = pattern.local_extents(unit);
    const Coords<N> unit_coords = pattern.team_spec().coords(unit);
    for (std::size_t dim = 0; dim < N; ++dim) {
      ASSERT_EQ(local_extents[dim], oracle.local_extent[dim][unit_coords[dim]]) << "unit " << unit << " dim " << dim;
    }
    ASSERT_EQ(product<N>(local_extents), elements.size());
    for (std::size_t index = 0; index < elements.size(); ++index) {
      ASSERT_EQ(pattern.global_index(unit, index), elements[index]) << "unit " << unit << " local " << index;
      ASSERT_EQ(pattern.global(unit, index), row_major_coords<N>(elements[index], extents));
    }
    capacity = std::max(capacity, elements.size());
  }
  ASSERT_EQ(pattern.local_capacity(), capacity);

  // Blocks cover the index space once, each inside one unit, and each unit's local blocks are its own.
  ASSERT_EQ(pattern.nblocks(), product<N>(oracle.nblocks));
  std::vector<std::size_t> covered(size, 0);
  for (std::size_t block = 0; block < pattern.nblocks(); ++block) {
    const dash::ViewSpec<N> view = pattern.block(block);
    ASSERT_GT(view.size(), 0U);
    const std::size_t owner = pattern.unit_at(view.offsets);
    for (std::size_t element = 0; element < view.size(); ++element) {
      Coords<N> coords = row_major_coords<N>(element, view.extents);
      for (std::size_t dim = 0; dim < N; ++dim) {
        coords[dim] += view.offsets[dim];
      }
      ASSERT_EQ(pattern.block_at(coords), block);
      ASSERT_EQ(pattern.unit_at(coords), owner);
      ++covered[pattern.linear(coords)];
    }
  }
  ASSERT_TRUE(std::all_of(covered.begin(), covered.end(), [](std::size_t count) { return count == 1; }));
  std::vector<std::size_t> block_owner(pattern.nblocks(), num_units);
  for (std::size_t unit = 0; unit < num_units; ++unit) {
    std::size_t block_elements = 0;
    for (std::size_t index = 0; index < pattern.local_nblocks(unit); ++index) {
      const dash::ViewSpec<N> view = pattern.local_block(unit, index);
      const std::size_t block = pattern.block_at(view.offsets);
      ASSERT_EQ(view, pattern.block(block));
      ASSERT_EQ(pattern.unit_at(view.offsets), unit);
      ASSERT_EQ(block_owner[block], num_units) << "block " << block << " listed twice";
      block_owner[block] = unit;
      if (pattern.is_tiled()) {  // tiles are contiguous, in local block order
        ASSERT_EQ(pattern.local(view.offsets).index, block_elements) << "unit " << unit << " tile " << index;
      }
      block_elements += view.size();
    }
    ASSERT_EQ(block_elements, pattern.local_size(unit)) << "unit " << unit;
  }
  ASSERT_EQ(std::count(block_owner.begin(), block_owner.end(), num_units), 0);

  const std::vector<std::size_t> points = range_points(size, oracle.block_sizes[N - 1]);
  for (std::size_t first = 0; first < points.size(); ++first) {
    for (std::size_t last = first; last < points.size(); ++last) {
      check_runs<N>(pattern, oracle, points[first], points[last]);
    }
  }

  if constexpr (N == 1) {
    for (std::size_t unit = 0; unit < num_units; ++unit) {
      std::size_t before = 0;
      for (std::size_t global = 0; global <= size; ++global) {
        ASSERT_EQ(pattern.local_count_before(unit, global), before) << "unit " << unit << " global " << global;
        before += global < size && oracle.where[global].unit == unit ? std::size_t{1} : std::size_t{0};
      }
    }
  }
}

std::vector<Distribution> all_distributions(std::size_t k) {
  return {BLOCKED, CYCLIC, BLOCKCYCLIC(k), TILE(k), NONE};
}

bool valid_combination(const std::vector<Distribution>& distributions, const std::vector<std::size_t>& team) {
  bool tiled = false;
  bool other_distributed = false;
  for (std::size_t dim = 0; dim < distributions.size(); ++dim) {
    const DistributionKind kind = distributions[dim].kind();
    if (kind == DistributionKind::none && team[dim] != 1) {
      return false;
    }
    tiled = tiled || kind == DistributionKind::tile;
    other_distributed = other_distributed || (kind != DistributionKind::tile && kind != DistributionKind::none);
  }
  return !(tiled && other_distributed);
}

TEST(Distribution, BlockSizesNamesAndEquality) {
  EXPECT_EQ(BLOCKED.block_size(10, 4), 3U);
  EXPECT_EQ(BLOCKED.block_size(12, 4), 3U);
  EXPECT_EQ(BLOCKED.block_size(3, 8), 1U);
  EXPECT_EQ(BLOCKED.block_size(0, 4), 1U);
  EXPECT_EQ(CYCLIC.block_size(100, 7), 1U);
  EXPECT_EQ(BLOCKCYCLIC(3).block_size(100, 7), 3U);
  EXPECT_EQ(TILE(5).block_size(2, 7), 5U);
  EXPECT_EQ(NONE.block_size(9, 1), 9U);
  EXPECT_EQ(NONE.block_size(0, 1), 1U);

  EXPECT_EQ(BLOCKED.name(), "BLOCKED");
  EXPECT_EQ(CYCLIC.name(), "CYCLIC");
  EXPECT_EQ(BLOCKCYCLIC(4).name(), "BLOCKCYCLIC(4)");
  EXPECT_EQ(TILE(2).name(), "TILE(2)");
  EXPECT_EQ(NONE.name(), "NONE");

  static_assert(BLOCKCYCLIC(3).fixed_block_size() == 3);
  static_assert(TILE(2).kind() == DistributionKind::tile);
  static_assert(Distribution() == BLOCKED);
  EXPECT_EQ(BLOCKCYCLIC(2), BLOCKCYCLIC(2));
  EXPECT_NE(BLOCKCYCLIC(2), TILE(2));
  EXPECT_NE(BLOCKCYCLIC(2), BLOCKCYCLIC(3));
  EXPECT_NE(BLOCKCYCLIC(1), CYCLIC);
}

TEST(Distribution, BlockedBlockSizesDoNotOverflowAtTheLargestExtent) {
  constexpr std::size_t largest = std::numeric_limits<std::size_t>::max();
  EXPECT_EQ(BLOCKED.block_size(largest, 1), largest);
  EXPECT_EQ(BLOCKED.block_size(largest, 2), largest / 2 + 1);
  EXPECT_EQ(BLOCKED.block_size(largest, 3), largest / 3);  // 2^64 - 1 is a multiple of 3
}

TEST(Distribution, RejectsBadArguments) {
  try {
    (void)BLOCKCYCLIC(0);
    FAIL() << "BLOCKCYCLIC(0) did not throw";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "dash::BLOCKCYCLIC: invalid argument 'k' = 0; expected a block size of at least 1");
  }
  EXPECT_THROW((void)TILE(0), dash::InvalidArgument);
  EXPECT_THROW((void)BLOCKED.block_size(10, 0), dash::InvalidArgument);
  EXPECT_THROW((void)NONE.block_size(10, 2), dash::InvalidArgument);
}

TEST(SizeSpec, ExtentsAndSize) {
  const SizeSpec<3> sizes(2, 3, 4);
  EXPECT_EQ(sizes.size(), 24U);
  EXPECT_EQ(sizes.extent(2), 4U);
  EXPECT_EQ(sizes.extents(), (Coords<3>{2, 3, 4}));
  EXPECT_EQ(SizeSpec<2>(5, 0).size(), 0U);
  EXPECT_EQ(SizeSpec<2>().size(), 0U);
  EXPECT_THROW((void)sizes.extent(3), dash::OutOfRange);
  const std::size_t huge = std::size_t{1} << (sizeof(std::size_t) * 4);
  EXPECT_THROW(SizeSpec<3>(huge, huge, 2), dash::InvalidArgument);
}

TEST(DistributionSpec, DefaultsToBlockedRows) {
  const DistributionSpec<3> defaults;
  EXPECT_EQ(defaults[0], BLOCKED);
  EXPECT_EQ(defaults[1], NONE);
  EXPECT_EQ(defaults[2], NONE);
  EXPECT_FALSE(defaults.is_tiled());
  const DistributionSpec<2> tiles(TILE(2), NONE);
  EXPECT_EQ(tiles[0], TILE(2));
  EXPECT_TRUE(tiles.is_tiled());
  EXPECT_THROW((void)tiles[2], dash::OutOfRange);
}

TEST(TeamSpec, ExplicitGridsAreRowMajor) {
  const TeamSpec<1> line(5);
  EXPECT_EQ(line.size(), 5U);
  const TeamSpec<3> column(6);
  EXPECT_EQ(column.extents(), (Coords<3>{6, 1, 1}));
  const TeamSpec<2> grid(2, 3);
  EXPECT_EQ(grid.size(), 6U);
  for (std::size_t unit = 0; unit < grid.size(); ++unit) {
    const Coords<2> coords = grid.coords(unit);
    EXPECT_EQ(coords, (Coords<2>{unit / 3, unit % 3}));
    EXPECT_EQ(grid.unit(coords), unit);
  }
  EXPECT_THROW((void)grid.coords(6), dash::OutOfRange);
  EXPECT_THROW((void)grid.unit({0, 3}), dash::OutOfRange);
  EXPECT_THROW(TeamSpec<1>(0), dash::InvalidArgument);
  EXPECT_THROW(TeamSpec<2>(2, 0), dash::InvalidArgument);
}

// The balanced grid against a search over all factorisations.
TEST(TeamSpec, BalancedGridsAreTheMostEvenFactorisations) {
  for (std::size_t units = 1; units <= 256; ++units) {
    SCOPED_TRACE("units " + std::to_string(units));
    std::size_t square_like = units;  // smallest larger factor of a pair
    for (std::size_t factor = 1; factor <= units; ++factor) {
      if (units % factor == 0 && factor >= units / factor) {
        square_like = std::min(square_like, factor);
      }
    }
    const TeamSpec<2> both(SizeSpec<2>(100, 100), DistributionSpec<2>(BLOCKED, CYCLIC), units);
    EXPECT_EQ(both.extents(), (Coords<2>{square_like, units / square_like}));
    EXPECT_EQ(TeamSpec<2>(SizeSpec<2>(100, 100), DistributionSpec<2>(BLOCKED, NONE), units).extents(),
              (Coords<2>{units, 1}));
    EXPECT_EQ(TeamSpec<2>(SizeSpec<2>(100, 100), DistributionSpec<2>(NONE, TILE(4)), units).extents(),
              (Coords<2>{1, units}));

    std::array<std::size_t, 3> best{units + 1, 0, 0};
    for (std::size_t a = 1; a <= units; ++a) {
      for (std::size_t b = 1; b <= a && a * b <= units; ++b) {
        const std::size_t c = units / (a * b);
        if (c <= b && a * b * c == units) {
          best = std::min(best, std::array<std::size_t, 3>{a, b, c});
        }
      }
    }
    const TeamSpec<3> cube(SizeSpec<3>(8, 8, 8), DistributionSpec<3>(TILE(2), TILE(2), TILE(2)), units);
    EXPECT_EQ(cube.extents(), best);
    const TeamSpec<3> slab(SizeSpec<3>(8, 8, 8), DistributionSpec<3>(BLOCKED, NONE, CYCLIC), units);
    EXPECT_EQ(slab.extents(), (Coords<3>{square_like, 1, units / square_like}));
    EXPECT_NO_THROW(Pattern<3>(SizeSpec<3>(8, 8, 8), DistributionSpec<3>(BLOCKED, NONE, CYCLIC), slab));
  }
  EXPECT_EQ(TeamSpec<2>(SizeSpec<2>(4, 4), DistributionSpec<2>(NONE, NONE), 1).size(), 1U);
  EXPECT_THROW(TeamSpec<2>(SizeSpec<2>(4, 4), DistributionSpec<2>(NONE, NONE), 2), dash::InvalidArgument);
  EXPECT_THROW(TeamSpec<2>(SizeSpec<2>(4, 4), DistributionSpec<2>(BLOCKED, NONE), 0), dash::InvalidArgument);
}

TEST(Pattern1D, BlockedMatchesDash) {
  const Pattern<1> pattern(10, BLOCKED, 4);
  EXPECT_EQ(pattern.blocksize(0), 3U);
  EXPECT_EQ(pattern.local_size(0), 3U);
  EXPECT_EQ(pattern.local_size(1), 3U);
  EXPECT_EQ(pattern.local_size(2), 3U);
  EXPECT_EQ(pattern.local_size(3), 1U);
  EXPECT_EQ(pattern.local_capacity(), 3U);
  EXPECT_EQ(pattern.local(9), (LocalIndex{3, 0}));
  EXPECT_EQ(pattern.local(5), (LocalIndex{1, 2}));
  EXPECT_EQ(pattern.global_index(2, 1), 7U);
  EXPECT_EQ(pattern.nblocks(), 4U);

  const Pattern<1> more_units(3, BLOCKED, 5);  // units 3 and 4 hold nothing
  EXPECT_EQ(more_units.local_size(2), 1U);
  EXPECT_EQ(more_units.local_size(4), 0U);
  EXPECT_EQ(more_units.local_count_before(4, 3), 0U);
}

TEST(Pattern1D, CyclicAndBlockCyclicByHand) {
  const Pattern<1> cyclic(10, CYCLIC, 3);
  EXPECT_EQ(cyclic.local_size(0), 4U);
  EXPECT_EQ(cyclic.local_size(2), 3U);
  EXPECT_EQ(cyclic.local(7), (LocalIndex{1, 2}));
  EXPECT_EQ(cyclic.local_count_before(1, 8), 3U);

  // Blocks [0,1] [2,3] [4,5] [6,7] [8,9] to units 0 1 2 0 1.
  const Pattern<1> block_cyclic(10, BLOCKCYCLIC(2), 3);
  EXPECT_EQ(block_cyclic.local_size(0), 4U);
  EXPECT_EQ(block_cyclic.local_size(1), 4U);
  EXPECT_EQ(block_cyclic.local_size(2), 2U);
  EXPECT_EQ(block_cyclic.local(7), (LocalIndex{0, 3}));
  EXPECT_EQ(block_cyclic.local_block(1, 1), (dash::ViewSpec<1>{{8}, {2}}));
  std::vector<dash::Run> runs;
  block_cyclic.for_each_run(1, 9, [&](const dash::Run& run) { runs.push_back(run); });
  EXPECT_EQ(runs, (std::vector<dash::Run>{{0, 1, 1, 1}, {1, 2, 0, 2}, {2, 4, 0, 2}, {0, 6, 2, 2}, {1, 8, 2, 1}}));
}

TEST(Pattern1D, MatchesOracleForEveryDistribution) {
  for (std::size_t k : std::vector<std::size_t>{1, 2, 3, 7}) {
    for (std::size_t n : std::vector<std::size_t>{0, 1, 2, 3, 5, 7, 8, 13, 31, 64, 97, 100}) {
      for (std::size_t units = 1; units <= 9; ++units) {
        for (const Distribution& distribution : all_distributions(k)) {
          if (distribution.kind() == DistributionKind::none && units != 1) {
            continue;
          }
          check_pattern<1>({n}, DistributionSpec<1>(distribution), {units});
          const Pattern<1> shorthand(n, distribution, units);
          ASSERT_EQ(shorthand, Pattern<1>(SizeSpec<1>(n), DistributionSpec<1>(distribution), TeamSpec<1>(units)));
        }
      }
    }
  }
}

// 4 x 5 elements in 2 x 2 tiles over a 1 x 2 grid. Column tiles {0,1} {2,3} {4} go to units 0 1 0, so
// unit 0 holds columns 0, 1, 4 of every row in four tiles, two of them cut to one column.
TEST(Pattern2D, TilesAreContiguousInLocalMemory) {
  const Pattern<2> pattern(SizeSpec<2>(4, 5), DistributionSpec<2>(TILE(2), TILE(2)), TeamSpec<2>(1, 2));
  ASSERT_TRUE(pattern.is_tiled());
  EXPECT_EQ(pattern.local_extents(0), (Coords<2>{4, 3}));
  EXPECT_EQ(pattern.local_extents(1), (Coords<2>{4, 2}));
  const std::vector<Coords<2>> unit0 = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 4}, {1, 4},
                                        {2, 0}, {2, 1}, {3, 0}, {3, 1}, {2, 4}, {3, 4}};
  const std::vector<Coords<2>> unit1 = {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 2}, {2, 3}, {3, 2}, {3, 3}};
  for (std::size_t index = 0; index < unit0.size(); ++index) {
    EXPECT_EQ(pattern.global(0, index), unit0[index]) << "local " << index;
    EXPECT_EQ(pattern.local(unit0[index]), (LocalIndex{0, index}));
  }
  for (std::size_t index = 0; index < unit1.size(); ++index) {
    EXPECT_EQ(pattern.global(1, index), unit1[index]) << "local " << index;
  }
  EXPECT_EQ(pattern.local_nblocks(0), 4U);
  EXPECT_EQ(pattern.local_block(0, 1), (dash::ViewSpec<2>{{0, 4}, {2, 1}}));
  EXPECT_EQ(pattern.local_block(0, 2), (dash::ViewSpec<2>{{2, 0}, {2, 2}}));

  // The same cut as BLOCKCYCLIC(2) stores unit 0 row by row instead.
  const Pattern<2> rows(SizeSpec<2>(4, 5), DistributionSpec<2>(BLOCKCYCLIC(2), BLOCKCYCLIC(2)), TeamSpec<2>(1, 2));
  EXPECT_EQ(rows.local(Coords<2>{0, 4}), (LocalIndex{0, 2}));
  EXPECT_EQ(pattern.local(Coords<2>{0, 4}), (LocalIndex{0, 4}));
}

TEST(Pattern2D, MatchesOracleForEveryDistributionPair) {
  std::vector<Distribution> kinds;
  for (std::size_t k : std::vector<std::size_t>{1, 2, 3}) {
    for (const Distribution& distribution : all_distributions(k)) {
      if (std::find(kinds.begin(), kinds.end(), distribution) == kinds.end()) {
        kinds.push_back(distribution);
      }
    }
  }
  const std::vector<Coords<2>> extents = {{0, 0}, {0, 5}, {4, 0}, {1, 1}, {1, 7}, {6, 1}, {4, 6}, {7, 5}, {9, 10}};
  const std::vector<Coords<2>> teams = {{1, 1}, {1, 4}, {4, 1}, {2, 3}, {3, 2}, {2, 2}, {1, 11}, {5, 1}};
  std::size_t checked = 0;
  for (const Distribution& rows : kinds) {
    for (const Distribution& columns : kinds) {
      for (const Coords<2>& team : teams) {
        const DistributionSpec<2> distributions(rows, columns);
        if (!valid_combination({rows, columns}, {team[0], team[1]})) {
          EXPECT_THROW(Pattern<2>(SizeSpec<2>(4, 4), distributions, TeamSpec<2>(team[0], team[1])),
                       dash::InvalidArgument)
              << describe<2>({4, 4}, distributions, team);
          continue;
        }
        for (const Coords<2>& extent : extents) {
          check_pattern<2>(extent, distributions, team);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 1000U);
}

TEST(Pattern3D, MatchesOracleForEveryDistributionTriple) {
  const std::vector<Distribution> kinds = all_distributions(2);
  const std::vector<Coords<3>> extents = {{3, 4, 5}, {2, 0, 3}, {5, 5, 5}, {1, 7, 2}};
  const std::vector<Coords<3>> teams = {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 3}, {2, 2, 2}, {2, 3, 1}, {3, 1, 2}};
  std::size_t checked = 0;
  for (const Distribution& first : kinds) {
    for (const Distribution& second : kinds) {
      for (const Distribution& third : kinds) {
        const DistributionSpec<3> distributions(first, second, third);
        for (const Coords<3>& team : teams) {
          if (!valid_combination({first, second, third}, {team[0], team[1], team[2]})) {
            continue;
          }
          for (const Coords<3>& extent : extents) {
            check_pattern<3>(extent, distributions, team);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 500U);
}

TEST(Pattern, DefaultIsEmptyOverOneUnit) {
  const Pattern<2> pattern;
  EXPECT_EQ(pattern.size(), 0U);
  EXPECT_EQ(pattern.num_units(), 1U);
  EXPECT_EQ(pattern.local_size(0), 0U);
  EXPECT_EQ(pattern.nblocks(), 0U);
  int calls = 0;
  pattern.for_each_run(0, 0, [&](const dash::Run&) { ++calls; });
  EXPECT_EQ(calls, 0);
}

// Extents and block sizes near the largest size_t: each element still lies on exactly one unit.
TEST(Pattern, ExtentsAndBlocksAtTheLargestSizesKeepEveryElementOnOneUnit) {
  constexpr std::size_t largest = std::numeric_limits<std::size_t>::max();
  const Pattern<1> one_huge_block(10, BLOCKCYCLIC(largest), 3);
  EXPECT_EQ(one_huge_block.nblocks(0), 1U);
  EXPECT_EQ(one_huge_block.local_size(0), 10U);
  EXPECT_EQ(one_huge_block.local_size(1), 0U);
  EXPECT_EQ(one_huge_block.unit_at(std::size_t{9}), 0U);
  EXPECT_EQ(one_huge_block.local_capacity(), 10U);

  const Pattern<1> halves(largest, BLOCKED, 2);
  EXPECT_EQ(halves.local_size(0), largest / 2 + 1);
  EXPECT_EQ(halves.local_size(1), largest / 2);
  EXPECT_EQ(halves.unit_at(largest - 1), 1U);
  EXPECT_EQ(halves.local(largest - 1).index, largest / 2 - 1);

  const Pattern<1> quarters(largest, BLOCKCYCLIC(4), 1);  // the last block holds 3 elements
  EXPECT_EQ(quarters.nblocks(0), largest / 4 + 1);
  EXPECT_EQ(quarters.local_size(0), largest);
}

TEST(Pattern, RejectsInconsistentSpecs) {
  EXPECT_THROW(Pattern<1>(10, BLOCKED, 0), dash::InvalidArgument);
  EXPECT_THROW(Pattern<1>(10, NONE, 2), dash::InvalidArgument);
  try {
    (void)Pattern<2>(SizeSpec<2>(4, 4), DistributionSpec<2>(BLOCKED, NONE), TeamSpec<2>(2, 2));
    FAIL() << "a NONE dimension over two units did not throw";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Pattern: invalid argument 'team_spec.extent(1)' = 2; expected 1, since dimension 1 is NONE");
  }
  try {
    (void)Pattern<2>(SizeSpec<2>(4, 4), DistributionSpec<2>(TILE(2), BLOCKED), TeamSpec<2>(2, 2));
    FAIL() << "TILE mixed with BLOCKED did not throw";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "dash::Pattern: invalid argument 'distributions[1]' = 'BLOCKED'; expected TILE or "
                               "NONE, since another dimension is TILE");
  }
  EXPECT_NO_THROW(Pattern<3>(SizeSpec<3>(4, 4, 4), DistributionSpec<3>(TILE(2), NONE, TILE(3)), TeamSpec<3>(2, 1, 2)));
}

TEST(Pattern, RejectsOutOfRangeArguments) {
  const Pattern<1> line(10, CYCLIC, 3);
  try {
    (void)line.local(std::size_t{10});
    FAIL() << "local(10) did not throw";
  } catch (const dash::OutOfRange& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Pattern::local: argument 'global_linear' = 10 is out of range; expected [0, 10)");
  }
  EXPECT_THROW((void)line.unit_at(std::size_t{10}), dash::OutOfRange);
  EXPECT_THROW((void)line.is_local(0, 3), dash::OutOfRange);
  EXPECT_THROW((void)line.local_size(3), dash::OutOfRange);
  EXPECT_THROW((void)line.local_extents(3), dash::OutOfRange);
  EXPECT_THROW((void)line.global(3, 0), dash::OutOfRange);
  EXPECT_THROW((void)line.global(2, 3), dash::OutOfRange);  // unit 2 holds 3 elements
  EXPECT_THROW((void)line.global_index(0, 4), dash::OutOfRange);
  EXPECT_THROW((void)line.block(10), dash::OutOfRange);
  EXPECT_THROW((void)line.local_block(0, 4), dash::OutOfRange);
  EXPECT_THROW((void)line.local_nblocks(3), dash::OutOfRange);
  EXPECT_THROW((void)line.extent(1), dash::OutOfRange);
  EXPECT_THROW((void)line.blocksize(1), dash::OutOfRange);
  EXPECT_THROW((void)line.nblocks(1), dash::OutOfRange);
  EXPECT_THROW((void)line.distribution(1), dash::OutOfRange);
  EXPECT_THROW((void)line.local_count_before(0, 11), dash::OutOfRange);
  EXPECT_THROW((void)line.local_count_before(3, 0), dash::OutOfRange);
  const auto ignore = [](const dash::Run&) {};
  EXPECT_THROW(line.for_each_run(0, 11, ignore), dash::OutOfRange);
  EXPECT_THROW(line.for_each_run(5, 4, ignore), dash::OutOfRange);

  const Pattern<2> grid(SizeSpec<2>(4, 6), DistributionSpec<2>(BLOCKED, CYCLIC), TeamSpec<2>(2, 3));
  try {
    (void)grid.local(Coords<2>{3, 6});
    FAIL() << "local({3, 6}) did not throw";
  } catch (const dash::OutOfRange& error) {
    EXPECT_STREQ(error.what(), "dash::Pattern::local: argument 'coords[1]' = 6 is out of range; expected [0, 6)");
  }
  EXPECT_THROW((void)grid.unit_at(Coords<2>{4, 0}), dash::OutOfRange);
  EXPECT_THROW((void)grid.block_at(Coords<2>{4, 0}), dash::OutOfRange);
  EXPECT_THROW((void)grid.linear(Coords<2>{0, 6}), dash::OutOfRange);
  EXPECT_THROW((void)grid.coords(24), dash::OutOfRange);
}

}  // namespace
