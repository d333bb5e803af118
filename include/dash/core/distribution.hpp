#pragma once
// dash::Distribution: how one dimension of a pattern is cut into blocks and dealt to the units of
// that dimension (DASH's BLOCKED, CYCLIC, BLOCKCYCLIC(k), TILE(k), NONE).
//
// Blocks of a dimension are dealt round-robin to its units; the kinds differ only in the block
// size. TILE(k) cuts like BLOCKCYCLIC(k) but makes the pattern store each local tile contiguously
// (see pattern.hpp and docs/patterns.md).

#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>

namespace dash {

enum class DistributionKind { blocked, cyclic, block_cyclic, tile, none };

class Distribution;

namespace detail {
constexpr Distribution make_distribution(DistributionKind kind, std::size_t fixed_block_size) noexcept;
}

class Distribution {
public:
  using Kind = DistributionKind;

  // BLOCKED, DASH's default.
  constexpr Distribution() noexcept = default;

  constexpr Kind kind() const noexcept { return kind_; }

  // k of BLOCKCYCLIC(k) and TILE(k), 1 for CYCLIC; 0 for BLOCKED and NONE, whose block size depends on
  // the extent.
  constexpr std::size_t fixed_block_size() const noexcept { return fixed_block_size_; }

  // Elements per block in a dimension of `extent` elements over `units` units. BLOCKED gives each unit
  // one block of ceil(extent / units); NONE keeps the dimension whole (one unit only). Both are at
  // least 1 so that an empty dimension still has a valid block size.
  std::size_t block_size(std::size_t extent, std::size_t units) const {
    if (units == 0) {
      throw invalid_argument("dash::Distribution::block_size", "units", units, "at least 1");
    }
    switch (kind_) {
      case Kind::blocked:
        return extent == 0 ? 1 : (extent - 1) / units + 1;  // ceil without overflow at the largest extents
      case Kind::none:
        if (units != 1) {
          throw invalid_argument("dash::Distribution::block_size", "units", units, "1 for a NONE dimension");
        }
        return extent == 0 ? 1 : extent;
      case Kind::cyclic:
      case Kind::block_cyclic:
      case Kind::tile:
        break;
    }
    return fixed_block_size_;
  }

  // "BLOCKED", "CYCLIC", "BLOCKCYCLIC(k)", "TILE(k)" or "NONE", for messages.
  std::string name() const {
    switch (kind_) {
      case Kind::blocked:
        return "BLOCKED";
      case Kind::cyclic:
        return "CYCLIC";
      case Kind::block_cyclic:
        return "BLOCKCYCLIC(" + std::to_string(fixed_block_size_) + ")";
      case Kind::tile:
        return "TILE(" + std::to_string(fixed_block_size_) + ")";
      case Kind::none:
        break;
    }
    return "NONE";
  }

  friend constexpr bool operator==(const Distribution&, const Distribution&) noexcept = default;

private:
  friend constexpr Distribution detail::make_distribution(DistributionKind kind, std::size_t fixed_block_size) noexcept;

  constexpr Distribution(Kind kind, std::size_t fixed_block_size) noexcept
      : kind_(kind), fixed_block_size_(fixed_block_size) {}

  Kind kind_ = Kind::blocked;
  std::size_t fixed_block_size_ = 0;
};

namespace detail {
constexpr Distribution make_distribution(DistributionKind kind, std::size_t fixed_block_size) noexcept {
  return Distribution(kind, fixed_block_size);
}
}  // namespace detail

inline constexpr Distribution BLOCKED = detail::make_distribution(DistributionKind::blocked, 0);
inline constexpr Distribution CYCLIC = detail::make_distribution(DistributionKind::cyclic, 1);
inline constexpr Distribution NONE = detail::make_distribution(DistributionKind::none, 0);

// Blocks of k elements dealt round-robin; k >= 1.
constexpr Distribution BLOCKCYCLIC(std::size_t k) {
  if (k == 0) {
    throw invalid_argument("dash::BLOCKCYCLIC", "k", k, "a block size of at least 1");
  }
  return detail::make_distribution(DistributionKind::block_cyclic, k);
}

// Tiles of k elements per dimension, dealt round-robin and stored tile by tile; k >= 1.
constexpr Distribution TILE(std::size_t k) {
  if (k == 0) {
    throw invalid_argument("dash::TILE", "k", k, "a tile extent of at least 1");
  }
  return detail::make_distribution(DistributionKind::tile, k);
}

}  // namespace dash
