#pragma once
// The machinery behind dash::HaloMatrix: the halo regions around a unit's block, where each one's
// data comes from, and the two ways it moves.
//
// A block has 3^N - 1 neighbouring regions, one per direction v in {-1, 0, 1}^N other than 0
// (region index: the digits v_d + 1 in base 3, dimension 0 most significant). Region v holds the
// cells of the unit at grid coordinates + v that border the block; its width is the stencil's
// reach in that direction. Only regions some cell's stencil reads are exchanged. A region comes
// - from a fixed-boundary function, once, when it lies outside a non-periodic domain edge;
// - through shared memory when the source unit is on this node (or is this unit): the reader
//   copies the source's face straight out of the source's block, run by run (no pack buffer);
//   a region of the unit's own block (a periodic edge with one unit along a dimension) is copied
//   as the update starts, so the cells that read it need not wait (without_exchange());
// - as one MPI message otherwise, sent from the source's block with a subarray datatype
//   (dash::comm::neighbor_alltoallw).
//
// Shared-memory copies synchronise through two counters per unit in a small global segment:
// `published`, the last update whose data the unit's block holds (stored with release when the
// update starts), and `consumed`, how many of its faces same-node readers copied (fetch_add with
// release after each copy). A reader copies region v of update e once the source published e
// (acquire); an update completes only when every same-node reader consumed this unit's faces for
// it, so the owner cannot overwrite a face that is still being read, and no reader can see a face
// of a later update: the owner cannot start update e + 1 before its update e completed.
//
// Map: HaloBoundary; in detail, halo_direction and HaloSource; HaloExchange: Region and
// BoundaryBox, the constructor (regions, their sources, the datatypes and shared counters), the
// accessors, one update (start, try_copy, readers_done), cell and holds, then the private helpers
// (neighbours, the regions a box reads, the boxes of a block, without_exchange, fixed regions).

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/comm/layout.hpp>
#include <dash/comm/neighbor_alltoallw.hpp>
#include <dash/containers/halo_box.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/containers/stencil.hpp>
#include <dash/core/global_segment.hpp>

namespace dash {

// What lies beyond the edge of the domain in one dimension.
enum class HaloBoundary {
  periodic,  // the opposite edge (a torus)
  fixed,     // values given by a function of the global coordinates (Dirichlet)
};

namespace detail {

constexpr std::size_t power_of_three(std::size_t n) noexcept { return n == 0 ? 1 : 3 * power_of_three(n - 1); }

template <std::size_t N>
std::array<int, N> halo_direction(std::size_t region) noexcept {
  std::array<int, N> direction{};
  for (std::size_t d = N; d-- > 0;) {
    direction[d] = static_cast<int>(region % 3) - 1;
    region /= 3;
  }
  return direction;
}

enum class HaloSource : std::uint8_t { unused, fixed, shared, remote };

template <class T, std::size_t N>
class HaloExchange {
  static_assert(N >= 1 && N <= 3, "dash::HaloMatrix supports 1, 2 and 3 dimensions");

public:
  using Coords = std::array<std::size_t, N>;
  using Index = std::array<std::ptrdiff_t, N>;
  using FixedValue = std::function<T(const Index&)>;
  static constexpr std::size_t regions = power_of_three(N);
  static constexpr std::size_t centre = regions / 2;

  struct Region {
    HaloSource source = HaloSource::unused;
    int unit = -1;
    bool own = false;  // shared, from this unit's own block: copied as the update starts
    Coords extents{};
    std::vector<T> cells;
    // Shared memory: the face in the source's block, and the source's counters.
    comm::Layout face;
    const std::byte* source_block = nullptr;
    std::uint64_t* source_published = nullptr;
    std::uint64_t* source_consumed = nullptr;
  };

  // A box of boundary cells and the regions (bit per region index) its stencil reads.
  struct BoundaryBox {
    HaloBox<N> box;
    std::uint32_t reads = 0;
  };

  HaloExchange(Matrix<T, N>& matrix, const Stencil<N>& stencil, const std::array<HaloBoundary, N>& boundaries,
               const FixedValue& fixed_value)
      : matrix_(&matrix), stencil_(stencil), flags_(matrix.team(), 2 * flag_stride) {
    constexpr const char* function = "dash::HaloMatrix";
    const auto& pattern = matrix.pattern();
    const auto& grid = pattern.team_spec();
    const std::size_t me = static_cast<std::size_t>(matrix.team().myid());
    for (std::size_t d = 0; d < N; ++d) {
      below_[d] = stencil.reach_below(d);
      above_[d] = stencil.reach_above(d);
      const auto kind = pattern.distribution(d).kind();
      if (kind != DistributionKind::blocked && kind != DistributionKind::none) {
        throw invalid_argument(function, "matrix distribution in dimension " + std::to_string(d),
                               pattern.distribution(d).name(), "BLOCKED or NONE (one block per unit)");
      }
      const std::size_t width = std::max(below_[d], above_[d]);
      for (std::size_t c = 0; c < grid.extent(d) && width > 0; ++c) {
        Coords unit_coords{};
        unit_coords[d] = c;
        const std::size_t extent = pattern.local_extents(grid.unit(unit_coords))[d];
        if (extent < width) {
          throw invalid_argument(function, "extent of the blocks of grid coordinate " + std::to_string(c) +
                                               " in dimension " + std::to_string(d),
                                 extent,
                                 "at least the stencil's reach " + std::to_string(width) +
                                     " (a halo comes from the adjacent unit only)");
        }
      }
    }
    unit_coords_ = grid.coords(me);
    extents_ = pattern.local_extents(me);
    for (std::size_t d = 0; d < N; ++d) {
      origin_[d] = static_cast<std::ptrdiff_t>(unit_coords_[d] * pattern.blocksize(d));
      strides_[d] = 1;
    }
    for (std::size_t d = N - 1; d-- > 0;) {
      strides_[d] = strides_[d + 1] * extents_[d + 1];
    }
    partition_boxes();

    auto& segment = matrix.segment();
    auto* own_flags = flags_.local().data();
    *reinterpret_cast<std::uint64_t*>(own_flags) = 0;
    *reinterpret_cast<std::uint64_t*>(own_flags + flag_stride) = 0;
    const std::uint32_t needed = regions_read(extents_);
    for (std::size_t r = 0; r < regions; ++r) {
      if (r == centre || (needed & (1U << r)) == 0) {
        continue;
      }
      Region& region = regions_[r];
      const auto direction = halo_direction<N>(r);
      std::size_t cells = 1;
      for (std::size_t d = 0; d < N; ++d) {
        region.extents[d] = direction[d] < 0 ? below_[d] : direction[d] > 0 ? above_[d] : extents_[d];
        cells *= region.extents[d];
      }
      region.cells.resize(cells);
      const auto source = neighbour(direction, +1, boundaries);
      if (!source) {
        region.source = HaloSource::fixed;
        fill_fixed(region, direction, fixed_value);
        continue;
      }
      region.unit = static_cast<int>(*source);
      const Coords source_extents = pattern.local_extents(*source);
      Coords first{};
      for (std::size_t d = 0; d < N; ++d) {
        first[d] = direction[d] < 0 ? source_extents[d] - below_[d] : 0;
      }
      std::byte* source_block = segment.direct(region.unit);
      std::byte* source_flags = flags_.direct(region.unit);
      if (source_block != nullptr && source_flags != nullptr) {
        region.source = HaloSource::shared;
        region.own = *source == me;
        region.face = comm::Layout::box(source_extents, first, region.extents, sizeof(T));
        region.source_block = source_block;
        region.source_published = reinterpret_cast<std::uint64_t*>(source_flags);
        region.source_consumed = reinterpret_cast<std::uint64_t*>(source_flags + flag_stride);
      } else {
        region.source = HaloSource::remote;
        remote_regions_.push_back(r);
        receives_.push_back(comm::ReceiveChannel{region.unit, region.cells.data(),
                                                 comm::Layout::contiguous(cells, sizeof(T))});
      }
    }
    // What this unit sends: for every direction v, its face towards the unit at coordinates - v,
    // which reads it as region v; listed in region order, as that unit lists its receives.
    for (std::size_t r = 0; r < regions; ++r) {
      if (r == centre) {
        continue;
      }
      const auto direction = halo_direction<N>(r);
      const auto reader = neighbour(direction, -1, boundaries);
      if (!reader || (regions_read(pattern.local_extents(*reader)) & (1U << r)) == 0) {
        continue;
      }
      if (segment.direct(static_cast<int>(*reader)) != nullptr &&
          flags_.direct(static_cast<int>(*reader)) != nullptr) {
        ++readers_on_node_;
        continue;
      }
      Coords first{};
      Coords sizes{};
      for (std::size_t d = 0; d < N; ++d) {
        first[d] = direction[d] < 0 ? extents_[d] - below_[d] : 0;
        sizes[d] = direction[d] < 0 ? below_[d] : direction[d] > 0 ? above_[d] : extents_[d];
      }
      sends_.push_back(comm::SendChannel{static_cast<int>(*reader), matrix.lbegin(),
                                         comm::Layout::box(extents_, first, sizes, sizeof(T))});
    }
    find_without_exchange();
    // No unit may read another's counters before their owner zeroed them.
    flags_.barrier();
  }

  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  Matrix<T, N>& matrix() const noexcept { return *matrix_; }
  const Stencil<N>& stencil() const noexcept { return stencil_; }
  const Coords& extents() const noexcept { return extents_; }
  const Coords& strides() const noexcept { return strides_; }
  const Index& origin() const noexcept { return origin_; }
  const Region& region(std::size_t index) const noexcept { return regions_[index]; }
  const HaloBox<N>& inner() const noexcept { return inner_; }
  const std::vector<BoundaryBox>& boundary() const noexcept { return boundary_; }
  const HaloBox<N>& without_exchange() const noexcept { return without_exchange_; }

  // Starts update number `epoch` of this unit's faces: publishes them to same-node readers and
  // posts the messages. Returns the request of the messages.
  comm::NeighborRequest start(std::uint64_t epoch) {
    std::atomic_ref<std::uint64_t>(own_counter(0)).store(epoch, std::memory_order_release);
    return comm::ineighbor_alltoallw(sends_, receives_, matrix_->team().group());
  }

  // The region a message of start()'s request fills.
  std::size_t remote_region(std::size_t receive_index) const noexcept { return remote_regions_[receive_index]; }

  // Copies shared region `index` for update `epoch` if its source has published it.
  bool try_copy(std::size_t index, std::uint64_t epoch) {
    Region& region = regions_[index];
    if (std::atomic_ref<std::uint64_t>(*region.source_published).load(std::memory_order_acquire) < epoch) {
      return false;
    }
    region.face.copy_to_contiguous(region.source_block, reinterpret_cast<std::byte*>(region.cells.data()));
    std::atomic_ref<std::uint64_t>(*region.source_consumed).fetch_add(1, std::memory_order_release);
    return true;
  }

  // True once every same-node reader copied this unit's faces of update `epoch`.
  bool readers_done(std::uint64_t epoch) const {
    return std::atomic_ref<std::uint64_t>(own_counter(flag_stride)).load(std::memory_order_acquire) >=
           epoch * readers_on_node_;
  }

  // The value at local index `local`, inside the block or in a region that is read; unchecked.
  T cell(const Index& local) const noexcept {
    std::size_t index = 0;
    std::size_t offset = 0;
    for (std::size_t d = 0; d < N; ++d) {
      std::ptrdiff_t within = local[d];
      std::size_t digit = 1;
      if (within < 0) {
        digit = 0;
        within += static_cast<std::ptrdiff_t>(below_[d]);
      } else if (within >= static_cast<std::ptrdiff_t>(extents_[d])) {
        digit = 2;
        within -= static_cast<std::ptrdiff_t>(extents_[d]);
      }
      index = index * 3 + digit;
      offset = offset * (digit == 1 ? extents_[d] : (digit == 0 ? below_[d] : above_[d])) +
               static_cast<std::size_t>(within);
    }
    return index == centre ? matrix_->lbegin()[offset] : regions_[index].cells[offset];
  }

  // Whether `local` lies in the block or in a halo region that is exchanged.
  bool holds(const Index& local) const noexcept {
    std::size_t index = 0;
    for (std::size_t d = 0; d < N; ++d) {
      const auto below = -static_cast<std::ptrdiff_t>(below_[d]);
      const auto above = static_cast<std::ptrdiff_t>(extents_[d] + above_[d]);
      if (local[d] < below || local[d] >= above) {
        return false;
      }
      index = index * 3 + (local[d] < 0 ? 0 : local[d] >= static_cast<std::ptrdiff_t>(extents_[d]) ? 2 : 1);
    }
    return index == centre || regions_[index].source != HaloSource::unused;
  }

  bool in_flight = false;  // an update was started and has not completed

private:
  static constexpr std::size_t flag_stride = 64;  // the two counters on separate cache lines

  std::uint64_t& own_counter(std::size_t offset) const noexcept {
    return *reinterpret_cast<std::uint64_t*>(flags_.local().data() + offset);
  }

  // The unit `sign` * direction away on the grid, or none past a fixed domain edge.
  std::optional<std::size_t> neighbour(const std::array<int, N>& direction, int sign,
                                       const std::array<HaloBoundary, N>& boundaries) const {
    const auto& grid = matrix_->pattern().team_spec();
    Coords coords{};
    for (std::size_t d = 0; d < N; ++d) {
      const auto units = static_cast<std::ptrdiff_t>(grid.extent(d));
      auto c = static_cast<std::ptrdiff_t>(unit_coords_[d]) + sign * direction[d];
      if (c < 0 || c >= units) {
        if (boundaries[d] != HaloBoundary::periodic) {
          return std::nullopt;
        }
        c = (c + units) % units;
      }
      coords[d] = static_cast<std::size_t>(c);
    }
    return grid.unit(coords);
  }

  // The regions the stencil reads from cells of `box` in a block of `extents` (bit per region).
  std::uint32_t regions_read(const HaloBox<N>& box, const Coords& extents) const {
    std::uint32_t reads = 0;
    if (box.empty()) {
      return reads;
    }
    for (const auto& point : stencil_.points()) {
      // Per dimension, which of below (0), inside (1) and above (2) the shifted box touches.
      std::array<std::array<bool, 3>, N> touches{};
      for (std::size_t d = 0; d < N; ++d) {
        const auto low = static_cast<std::ptrdiff_t>(box.first[d]) + point.offset[d];
        const auto high = static_cast<std::ptrdiff_t>(box.last[d]) - 1 + point.offset[d];
        const auto extent = static_cast<std::ptrdiff_t>(extents[d]);
        touches[d] = {low < 0, high >= 0 && low < extent, high >= extent};
      }
      for (std::size_t r = 0; r < regions; ++r) {
        std::size_t rest = r;
        bool touched = true;
        for (std::size_t d = N; d-- > 0;) {
          touched = touched && touches[d][rest % 3];
          rest /= 3;
        }
        if (touched && r != centre) {
          reads |= 1U << r;
        }
      }
    }
    return reads;
  }

  // The regions any cell of a block of `extents` reads.
  std::uint32_t regions_read(const Coords& extents) const {
    std::uint32_t reads = 0;
    for (const auto& box : boxes_of(extents)) {
      reads |= regions_read(box, extents);
    }
    return reads;
  }

  // The 3^N boxes (lower band, middle, upper band per dimension) of a block of `extents`, in
  // region order; the centre one holds the inner cells.
  std::array<HaloBox<N>, regions> boxes_of(const Coords& extents) const {
    std::array<std::array<std::size_t, 4>, N> cuts{};
    for (std::size_t d = 0; d < N; ++d) {
      const std::size_t lower_end = std::min(below_[d], extents[d]);
      const std::size_t upper_begin = std::max(lower_end, extents[d] > above_[d] ? extents[d] - above_[d] : 0);
      cuts[d] = {0, lower_end, upper_begin, extents[d]};
    }
    std::array<HaloBox<N>, regions> boxes{};
    for (std::size_t r = 0; r < regions; ++r) {
      std::size_t rest = r;
      for (std::size_t d = N; d-- > 0;) {
        boxes[r].first[d] = cuts[d][rest % 3];
        boxes[r].last[d] = cuts[d][rest % 3 + 1];
        rest /= 3;
      }
    }
    return boxes;
  }

  void partition_boxes() {
    const auto boxes = boxes_of(extents_);
    inner_ = boxes[centre];
    for (std::size_t r = 0; r < regions; ++r) {
      if (r != centre && !boxes[r].empty()) {
        boundary_.push_back(BoundaryBox{boxes[r], regions_read(boxes[r], extents_)});
      }
    }
  }

  // The largest box of the inner cells and whole boundary bands (lower and upper, per dimension)
  // that reads no exchanged region (fixed ones and the unit's own, copied as the update starts, do
  // not count): along fixed domain edges and periodic edges with one unit along the dimension it
  // takes the bands, so that a unit computes those cells in the same long rows as the inner ones
  // instead of in a column walk across its block after the inner ones. All
  // 4^N choices are tried: a band may be taken only together with one of another dimension (an
  // inner box empty in some dimension).
  void find_without_exchange() {
    std::uint32_t exchanged = 0;
    for (std::size_t r = 0; r < regions; ++r) {
      if ((regions_[r].source == HaloSource::shared && !regions_[r].own) || regions_[r].source == HaloSource::remote) {
        exchanged |= 1U << r;
      }
    }
    without_exchange_ = inner_;
    for (std::size_t bands = 1; bands < (std::size_t{1} << (2 * N)); ++bands) {
      HaloBox<N> box = inner_;
      for (std::size_t d = 0; d < N; ++d) {
        box.first[d] = (bands >> (2 * d)) & 1U ? 0 : box.first[d];
        box.last[d] = (bands >> (2 * d + 1)) & 1U ? extents_[d] : box.last[d];
      }
      if (box.size() > without_exchange_.size() && (regions_read(box, extents_) & exchanged) == 0) {
        without_exchange_ = box;
      }
    }
  }

  void fill_fixed(Region& region, const std::array<int, N>& direction, const FixedValue& fixed_value) {
    HaloBox<N> box;
    box.last = region.extents;
    std::size_t offset = 0;
    box.for_each([&](const Coords& within) {
      Index global{};
      for (std::size_t d = 0; d < N; ++d) {
        const auto w = static_cast<std::ptrdiff_t>(within[d]);
        global[d] = origin_[d] + (direction[d] < 0   ? w - static_cast<std::ptrdiff_t>(below_[d])
                                  : direction[d] > 0 ? static_cast<std::ptrdiff_t>(extents_[d]) + w
                                                     : w);
      }
      region.cells[offset++] = fixed_value ? fixed_value(global) : T{};
    });
  }

  Matrix<T, N>* matrix_;
  Stencil<N> stencil_;
  GlobalSegment flags_;
  Coords below_{};
  Coords above_{};
  Coords unit_coords_{};
  Coords extents_{};
  Coords strides_{};
  Index origin_{};
  std::array<Region, regions> regions_{};
  HaloBox<N> inner_{};
  std::vector<BoundaryBox> boundary_;
  HaloBox<N> without_exchange_{};
  std::vector<comm::SendChannel> sends_;
  std::vector<comm::ReceiveChannel> receives_;
  std::vector<std::size_t> remote_regions_;  // the region of each receive
  std::size_t readers_on_node_ = 0;
};

}  // namespace detail

}  // namespace dash
