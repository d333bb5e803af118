#pragma once
// dash::DistributionSpec<N>: the Distribution of each dimension of an N-dimensional pattern.

#include <array>
#include <concepts>
#include <cstddef>

#include <dash/core/detail/index_check.hpp>
#include <dash/core/distribution.hpp>

namespace dash {

template <std::size_t N>
class DistributionSpec {
  static_assert(N >= 1, "dash::DistributionSpec needs at least one dimension");

public:
  // DASH's default: BLOCKED rows, every other dimension kept whole.
  constexpr DistributionSpec() noexcept {
    for (std::size_t dim = 1; dim < N; ++dim) {
      distributions_[dim] = NONE;
    }
  }

  // One Distribution per dimension, dimension 0 first.
  template <std::same_as<Distribution>... Distributions>
    requires(sizeof...(Distributions) == N)
  constexpr explicit DistributionSpec(Distributions... distributions) noexcept
      : distributions_{distributions...} {}

  static constexpr std::size_t ndim() noexcept { return N; }

  const Distribution& operator[](std::size_t dim) const {
    detail::check_below("dash::DistributionSpec::operator[]", "dim", dim, N);
    return distributions_[dim];
  }

  // True when some dimension is TILE: the pattern then stores local tiles contiguously.
  constexpr bool is_tiled() const noexcept {
    for (const Distribution& distribution : distributions_) {
      if (distribution.kind() == DistributionKind::tile) {
        return true;
      }
    }
    return false;
  }

  friend constexpr bool operator==(const DistributionSpec&, const DistributionSpec&) noexcept = default;

private:
  std::array<Distribution, N> distributions_{};
};

}  // namespace dash
