#pragma once
// dash::Pattern<N>: where each element of an N-dimensional global index space lives: which unit
// owns it and at which offset of that unit's local memory. Pure index maths, no communication.
//
// In each dimension d with team extent T and block size b (Distribution::block_size), global
// coordinate g lies in block g / b, owned by unit coordinate (g / b) % T, at local coordinate
// (g / b / T) * b + g % b. The unit id is row-major over the unit coordinates (TeamSpec). A unit
// stores its elements row-major over its local extents, unless the pattern is tiled (some dimension
// is TILE): then every local tile is contiguous, tiles in row-major order of the unit's tile grid,
// elements row-major inside a tile, and tiles cut by the global extent keep their cut extents.
// Global linear indices are row-major over the global extents. docs/patterns.md has examples.
//
// Map: Pattern's constructors (and their checks); the queries: extents and distributions, index
// conversions, local sizes and extents, owners (unit_at, local, is_local, global), blocks (nblocks,
// block, block_at, the local blocks), for_each_run; then the private index maths (per-dimension
// coordinates, unchecked conversions, local_offset for tiled and untiled layouts).

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/index_check.hpp>
#include <dash/core/distribution.hpp>
#include <dash/core/distribution_spec.hpp>
#include <dash/core/local_index.hpp>
#include <dash/core/run.hpp>
#include <dash/core/size_spec.hpp>
#include <dash/core/team_spec.hpp>
#include <dash/core/view_spec.hpp>

namespace dash {

template <std::size_t N = 1>
class Pattern {
  static_assert(N >= 1, "dash::Pattern needs at least one dimension");

public:
  using Coords = std::array<std::size_t, N>;
  using LocalIndex = dash::LocalIndex;
  using Run = dash::Run;

  // No elements, one unit: what an unallocated container holds.
  Pattern() : Pattern(SizeSpec<N>(), DistributionSpec<N>(), TeamSpec<N>()) {}

  // Throws dash::InvalidArgument if a NONE dimension has more than one unit, or if TILE dimensions
  // are mixed with distributed dimensions that are not TILE (TILE + NONE is fine).
  Pattern(const SizeSpec<N>& sizes, const DistributionSpec<N>& distributions, const TeamSpec<N>& team_spec)
      : sizes_(sizes), distributions_(distributions), team_spec_(team_spec), tiled_(distributions.is_tiled()) {
    constexpr const char* function = "dash::Pattern";
    for (std::size_t dim = 0; dim < N; ++dim) {
      const Distribution& distribution = distributions_[dim];
      const std::size_t units = team_spec_.extents()[dim];
      if (distribution.kind() == DistributionKind::none && units != 1) {
        throw invalid_argument(function, "team_spec.extent(" + std::to_string(dim) + ")", units,
                               "1, since dimension " + std::to_string(dim) + " is NONE");
      }
      if (tiled_ && distribution.kind() != DistributionKind::tile && distribution.kind() != DistributionKind::none) {
        throw invalid_argument(function, "distributions[" + std::to_string(dim) + "]", distribution.name(),
                               "TILE or NONE, since another dimension is TILE");
      }
      block_[dim] = distribution.block_size(sizes_.extents()[dim], units);
      nblocks_[dim] = sizes_.extents()[dim] == 0 ? 0 : (sizes_.extents()[dim] - 1) / block_[dim] + 1;
      total_blocks_ *= nblocks_[dim];
    }
    // Unit 0 has the most blocks in every dimension, and a cut last block never leaves it below another unit.
    local_capacity_ = local_size_unchecked(0);
  }

  // 1-D shorthand: n elements over `units` units.
  Pattern(std::size_t n, Distribution distribution, std::size_t units)
    requires(N == 1)
      : Pattern(SizeSpec<1>(n), DistributionSpec<1>(distribution), units_team_spec(units)) {}

  // --- the index space ---

  constexpr std::size_t size() const noexcept { return sizes_.size(); }
  std::size_t extent(std::size_t dim) const {
    detail::check_below("dash::Pattern::extent", "dim", dim, N);
    return sizes_.extents()[dim];
  }
  constexpr const Coords& extents() const noexcept { return sizes_.extents(); }
  constexpr const SizeSpec<N>& size_spec() const noexcept { return sizes_; }
  constexpr const DistributionSpec<N>& distribution_spec() const noexcept { return distributions_; }
  const Distribution& distribution(std::size_t dim) const {
    detail::check_below("dash::Pattern::distribution", "dim", dim, N);
    return distributions_[dim];
  }
  constexpr const TeamSpec<N>& team_spec() const noexcept { return team_spec_; }
  constexpr std::size_t num_units() const noexcept { return team_spec_.size(); }
  // Elements per block in a dimension (the last block of a dimension may be cut).
  std::size_t blocksize(std::size_t dim) const {
    detail::check_below("dash::Pattern::blocksize", "dim", dim, N);
    return block_[dim];
  }
  // True if local memory is laid out tile by tile.
  constexpr bool is_tiled() const noexcept { return tiled_; }

  // Coordinates of a global linear index, and back.
  Coords coords(std::size_t global_linear) const {
    detail::check_below("dash::Pattern::coords", "global_linear", global_linear, size());
    return coords_unchecked(global_linear);
  }
  std::size_t linear(const Coords& coords) const {
    check_coords("dash::Pattern::linear", coords);
    return linear_unchecked(coords);
  }

  // --- local sizes ---

  std::size_t local_size(std::size_t unit) const {
    detail::check_below("dash::Pattern::local_size", "unit", unit, num_units());
    return local_size_unchecked(unit);
  }
  Coords local_extents(std::size_t unit) const {
    detail::check_below("dash::Pattern::local_extents", "unit", unit, num_units());
    return local_extents_of(team_spec_.coords_unchecked(unit));
  }
  // The largest local_size over all units: what each unit allocates for a symmetric allocation.
  constexpr std::size_t local_capacity() const noexcept { return local_capacity_; }

  // --- global to local ---

  std::size_t unit_at(const Coords& coords) const {
    check_coords("dash::Pattern::unit_at", coords);
    return unit_at_unchecked(coords);
  }
  std::size_t unit_at(std::size_t global_linear) const {
    detail::check_below("dash::Pattern::unit_at", "global_linear", global_linear, size());
    return unit_at_unchecked(coords_unchecked(global_linear));
  }
  LocalIndex local(const Coords& coords) const {
    check_coords("dash::Pattern::local", coords);
    return local_unchecked(coords);
  }
  LocalIndex local(std::size_t global_linear) const {
    detail::check_below("dash::Pattern::local", "global_linear", global_linear, size());
    return local_unchecked(coords_unchecked(global_linear));
  }
  bool is_local(std::size_t global_linear, std::size_t unit) const {
    detail::check_below("dash::Pattern::is_local", "global_linear", global_linear, size());
    detail::check_below("dash::Pattern::is_local", "unit", unit, num_units());
    return unit_at_unchecked(coords_unchecked(global_linear)) == unit;
  }

  // --- local to global ---

  Coords global(std::size_t unit, std::size_t local_index) const {
    check_local("dash::Pattern::global", unit, local_index);
    return global_unchecked(unit, local_index);
  }
  std::size_t global_index(std::size_t unit, std::size_t local_index) const {
    check_local("dash::Pattern::global_index", unit, local_index);
    return linear_unchecked(global_unchecked(unit, local_index));
  }

  // --- blocks (row-major over the block grid; blocks at the upper edge are cut) ---

  constexpr std::size_t nblocks() const noexcept { return total_blocks_; }
  std::size_t nblocks(std::size_t dim) const {
    detail::check_below("dash::Pattern::nblocks", "dim", dim, N);
    return nblocks_[dim];
  }
  ViewSpec<N> block(std::size_t global_block) const {
    detail::check_below("dash::Pattern::block", "global_block", global_block, total_blocks_);
    Coords block_coords{};
    for (std::size_t dim = N; dim-- > 0;) {
      block_coords[dim] = global_block % nblocks_[dim];
      global_block /= nblocks_[dim];
    }
    return block_view(block_coords);
  }
  // Index of the block that holds an element.
  std::size_t block_at(const Coords& coords) const {
    check_coords("dash::Pattern::block_at", coords);
    std::size_t global_block = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      global_block = global_block * nblocks_[dim] + coords[dim] / block_[dim];
    }
    return global_block;
  }
  std::size_t local_nblocks(std::size_t unit) const {
    detail::check_below("dash::Pattern::local_nblocks", "unit", unit, num_units());
    const Coords unit_coords = team_spec_.coords_unchecked(unit);
    std::size_t blocks = 1;
    for (std::size_t dim = 0; dim < N; ++dim) {
      blocks *= local_blocks(dim, unit_coords[dim]);
    }
    return blocks;
  }
  // The unit's blocks in row-major order of its local block grid, in global coordinates.
  ViewSpec<N> local_block(std::size_t unit, std::size_t local_block_index) const {
    detail::check_below("dash::Pattern::local_block", "unit", unit, num_units());
    detail::check_below("dash::Pattern::local_block", "local_block_index", local_block_index, local_nblocks(unit));
    const Coords unit_coords = team_spec_.coords_unchecked(unit);
    Coords block_coords{};
    for (std::size_t dim = N; dim-- > 0;) {
      const std::size_t blocks = local_blocks(dim, unit_coords[dim]);
      block_coords[dim] = (local_block_index % blocks) * team_spec_.extents()[dim] + unit_coords[dim];
      local_block_index /= blocks;
    }
    return block_view(block_coords);
  }

  // --- runs ---

  // Calls f(Run) for each maximal run of consecutive global linear indices in [gbegin, gend) that one
  // unit stores at consecutive local offsets, in increasing global order. O(N) per piece of a row
  // inside one block of the last dimension (per row when the last dimension has one unit and the
  // pattern is not tiled); no allocation.
  template <class F>
  void for_each_run(std::size_t gbegin, std::size_t gend, F f) const {
    if (gend > size()) {
      throw out_of_range("dash::Pattern::for_each_run", "gend", gend, "[0, " + std::to_string(size()) + "]");
    }
    if (gbegin > gend) {
      throw out_of_range("dash::Pattern::for_each_run", "gbegin", gbegin, "[0, gend = " + std::to_string(gend) + "]");
    }
    if (gbegin == gend) {
      return;
    }
    constexpr std::size_t last = N - 1;
    const std::size_t row_extent = sizes_.extents()[last];
    const bool whole_rows_contiguous = !tiled_ && team_spec_.extents()[last] == 1;
    Coords coords = coords_unchecked(gbegin);
    Run pending{};
    for (std::size_t position = gbegin; position < gend;) {
      const std::size_t piece_end =
          whole_rows_contiguous ? row_extent : std::min((coords[last] / block_[last] + 1) * block_[last], row_extent);
      const std::size_t length = std::min(piece_end - coords[last], gend - position);
      const LocalIndex start = local_unchecked(coords);
      if (pending.length != 0 && start.unit == pending.unit && start.index == pending.local_begin + pending.length) {
        pending.length += length;
      } else {
        if (pending.length != 0) {
          f(pending);
        }
        pending = Run{start.unit, position, start.index, length};
      }
      position += length;
      coords[last] += length;
      for (std::size_t dim = last; dim > 0 && coords[dim] == sizes_.extents()[dim]; --dim) {
        coords[dim] = 0;
        ++coords[dim - 1];
      }
    }
    f(pending);
  }

  // 1-D only: how many of the unit's elements have a global index below global_linear. The unit's
  // elements of a global range [f, l) are the local range [local_count_before(u, f), local_count_before(u, l)).
  std::size_t local_count_before(std::size_t unit, std::size_t global_linear) const
    requires(N == 1)
  {
    detail::check_below("dash::Pattern::local_count_before", "unit", unit, num_units());
    if (global_linear > size()) {
      throw out_of_range("dash::Pattern::local_count_before", "global_linear", global_linear,
                         "[0, " + std::to_string(size()) + "]");
    }
    const std::size_t block_size = block_[0];
    const std::size_t units = team_spec_.extents()[0];
    const std::size_t blocks_before = global_linear / block_size;
    // Every block before the one holding global_linear is full.
    const std::size_t own_blocks_before = blocks_before / units + (unit < blocks_before % units ? 1 : 0);
    const std::size_t own_in_block = blocks_before % units == unit ? global_linear % block_size : 0;
    return own_blocks_before * block_size + own_in_block;
  }

  friend bool operator==(const Pattern&, const Pattern&) = default;

private:
  static TeamSpec<1> units_team_spec(std::size_t units) {
    if (units == 0) {
      throw invalid_argument("dash::Pattern", "units", units, "at least 1");
    }
    return TeamSpec<1>(units);
  }

  void check_coords(const char* function, const Coords& coords) const {
    for (std::size_t dim = 0; dim < N; ++dim) {
      detail::check_below(function, "coords[" + std::to_string(dim) + "]", coords[dim], sizes_.extents()[dim]);
    }
  }

  void check_local(const char* function, std::size_t unit, std::size_t local_index) const {
    detail::check_below(function, "unit", unit, num_units());
    detail::check_below(function, "local_index", local_index, local_size_unchecked(unit));
  }

  // --- one dimension ---

  std::size_t unit_coord(std::size_t dim, std::size_t global_coord) const noexcept {
    return (global_coord / block_[dim]) % team_spec_.extents()[dim];
  }

  std::size_t local_coord(std::size_t dim, std::size_t global_coord) const noexcept {
    return global_coord / block_[dim] / team_spec_.extents()[dim] * block_[dim] + global_coord % block_[dim];
  }

  std::size_t global_coord(std::size_t dim, std::size_t unit_coord, std::size_t local_coord) const noexcept {
    const std::size_t block_index = local_coord / block_[dim] * team_spec_.extents()[dim] + unit_coord;
    return block_index * block_[dim] + local_coord % block_[dim];
  }

  // Blocks of the dimension dealt to a unit coordinate: the first nblocks % T coordinates get one more.
  std::size_t local_blocks(std::size_t dim, std::size_t unit_coord) const noexcept {
    const std::size_t units = team_spec_.extents()[dim];
    return nblocks_[dim] / units + (unit_coord < nblocks_[dim] % units ? 1 : 0);
  }

  std::size_t local_extent(std::size_t dim, std::size_t unit_coord) const noexcept {
    std::size_t extent = local_blocks(dim, unit_coord) * block_[dim];
    // Only the last block of a dimension can be cut; it belongs to unit coordinate (nblocks - 1) % T.
    const std::size_t cut = nblocks_[dim] * block_[dim] - sizes_.extents()[dim];
    if (cut != 0 && (nblocks_[dim] - 1) % team_spec_.extents()[dim] == unit_coord) {
      extent -= cut;
    }
    return extent;
  }

  // --- whole index space ---

  Coords coords_unchecked(std::size_t global_linear) const noexcept {
    Coords coords{};
    for (std::size_t dim = N; dim-- > 0;) {
      coords[dim] = global_linear % sizes_.extents()[dim];
      global_linear /= sizes_.extents()[dim];
    }
    return coords;
  }

  std::size_t linear_unchecked(const Coords& coords) const noexcept {
    std::size_t global_linear = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      global_linear = global_linear * sizes_.extents()[dim] + coords[dim];
    }
    return global_linear;
  }

  Coords local_extents_of(const Coords& unit_coords) const noexcept {
    Coords extents{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      extents[dim] = local_extent(dim, unit_coords[dim]);
    }
    return extents;
  }

  std::size_t local_size_unchecked(std::size_t unit) const noexcept {
    const Coords extents = local_extents_of(team_spec_.coords_unchecked(unit));
    std::size_t elements = 1;
    for (std::size_t extent : extents) {
      elements *= extent;
    }
    return elements;
  }

  std::size_t unit_at_unchecked(const Coords& coords) const noexcept {
    Coords unit_coords{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      unit_coords[dim] = unit_coord(dim, coords[dim]);
    }
    return team_spec_.unit_unchecked(unit_coords);
  }

  ViewSpec<N> block_view(const Coords& block_coords) const noexcept {
    ViewSpec<N> view;
    for (std::size_t dim = 0; dim < N; ++dim) {
      view.offsets[dim] = block_coords[dim] * block_[dim];
      view.extents[dim] = std::min(block_[dim], sizes_.extents()[dim] - view.offsets[dim]);
    }
    return view;
  }

  // Products of the local extents of the dimensions after each dimension.
  static Coords trailing_products(const Coords& local_extents) noexcept {
    Coords products{};
    products[N - 1] = 1;
    for (std::size_t dim = N - 1; dim > 0; --dim) {
      products[dim - 1] = products[dim] * local_extents[dim];
    }
    return products;
  }

  LocalIndex local_unchecked(const Coords& coords) const noexcept {
    Coords unit_coords{};
    Coords local_coords{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      unit_coords[dim] = unit_coord(dim, coords[dim]);
      local_coords[dim] = local_coord(dim, coords[dim]);
    }
    const Coords local_extents = local_extents_of(unit_coords);
    return LocalIndex{team_spec_.unit_unchecked(unit_coords), local_offset(local_coords, local_extents)};
  }

  // Offset in local memory of local coordinates. Tiled: the tiles before the element's tile in
  // row-major tile order, counted dimension by dimension (tiles before it in dimension d are full in
  // d, so they span local_coord - local_coord % b there), plus the row-major offset inside the tile.
  std::size_t local_offset(const Coords& local_coords, const Coords& local_extents) const noexcept {
    std::size_t offset = 0;
    if (!tiled_) {
      for (std::size_t dim = 0; dim < N; ++dim) {
        offset = offset * local_extents[dim] + local_coords[dim];
      }
      return offset;
    }
    const Coords after = trailing_products(local_extents);
    std::size_t tile_cross_section = 1;  // product of the element's tile extents in the dimensions before
    std::size_t in_tile = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      const std::size_t tile_begin = local_coords[dim] - local_coords[dim] % block_[dim];
      const std::size_t tile_extent = std::min(block_[dim], local_extents[dim] - tile_begin);
      offset += tile_cross_section * tile_begin * after[dim];
      tile_cross_section *= tile_extent;
      in_tile = in_tile * tile_extent + local_coords[dim] % block_[dim];
    }
    return offset + in_tile;
  }

  // Inverse of local_offset followed by global_coord.
  Coords global_unchecked(std::size_t unit, std::size_t local_index) const noexcept {
    const Coords unit_coords = team_spec_.coords_unchecked(unit);
    const Coords local_extents = local_extents_of(unit_coords);
    Coords local_coords{};
    if (!tiled_) {
      for (std::size_t dim = N; dim-- > 0;) {
        local_coords[dim] = local_index % local_extents[dim];
        local_index /= local_extents[dim];
      }
    } else {
      const Coords after = trailing_products(local_extents);
      Coords tile_extents{};
      std::size_t tile_cross_section = 1;
      for (std::size_t dim = 0; dim < N; ++dim) {
        // All tiles before the element's one in this dimension are full, the last one may be shorter.
        const std::size_t tile_step = tile_cross_section * block_[dim] * after[dim];
        const std::size_t tile = local_index / tile_step;
        local_index -= tile * tile_step;
        local_coords[dim] = tile * block_[dim];
        tile_extents[dim] = std::min(block_[dim], local_extents[dim] - local_coords[dim]);
        tile_cross_section *= tile_extents[dim];
      }
      for (std::size_t dim = N; dim-- > 0;) {
        local_coords[dim] += local_index % tile_extents[dim];
        local_index /= tile_extents[dim];
      }
    }
    Coords coords{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      coords[dim] = global_coord(dim, unit_coords[dim], local_coords[dim]);
    }
    return coords;
  }

  SizeSpec<N> sizes_;
  DistributionSpec<N> distributions_;
  TeamSpec<N> team_spec_;
  bool tiled_ = false;
  Coords block_{};
  Coords nblocks_{};
  std::size_t total_blocks_ = 1;
  std::size_t local_capacity_ = 0;
};

}  // namespace dash
