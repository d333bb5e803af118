#pragma once
// dash::TeamSpec<N>: the units of a team arranged as an N-dimensional process grid. Unit ids run
// row-major over the grid coordinates (the last dimension fastest).

#include <array>
#include <concepts>
#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/index_check.hpp>
#include <dash/core/distribution.hpp>
#include <dash/core/distribution_spec.hpp>
#include <dash/core/size_spec.hpp>

namespace dash {

template <std::size_t N>
class TeamSpec {
  static_assert(N >= 1, "dash::TeamSpec needs at least one dimension");

public:
  using Coords = std::array<std::size_t, N>;

  // A single unit.
  constexpr TeamSpec() noexcept { extents_.fill(1); }

  // All units in dimension 0: units x 1 x ... x 1.
  explicit TeamSpec(std::size_t units) {
    extents_.fill(1);
    extents_[0] = units;
    validate("dash::TeamSpec");
  }

  // All members of a team (anything with size(), e.g. dash::Team) in dimension 0, like DASH's
  // TeamSpec(team); pass a TeamSpec with explicit extents for another arrangement.
  template <class TeamLike>
    requires requires(const TeamLike& team) {
      { team.size() } -> std::convertible_to<std::size_t>;
      team.myid();
    }
  explicit TeamSpec(const TeamLike& team) : TeamSpec(static_cast<std::size_t>(team.size())) {}

  // The grid extents, dimension 0 first; every extent at least 1.
  template <std::convertible_to<std::size_t>... Extents>
    requires(N > 1 && sizeof...(Extents) == N)
  explicit TeamSpec(Extents... extents) : extents_{static_cast<std::size_t>(extents)...} {
    validate("dash::TeamSpec");
  }

  // The grid extents as an array.
  explicit TeamSpec(const Coords& extents) : extents_(extents) { validate("dash::TeamSpec"); }

  // A balanced grid of `units`: NONE dimensions get extent 1, the distributed dimensions share the
  // units as evenly as possible (the factorisation whose extents, sorted descending, are
  // lexicographically smallest), larger extents in lower dimensions; in 2-D with both dimensions
  // distributed this is the factor pair closest to square, the larger factor in dimension 0. The
  // extents do not enter the choice; the parameter keeps DASH's signature.
  TeamSpec(const SizeSpec<N>&, const DistributionSpec<N>& distributions, std::size_t units) {
    constexpr const char* function = "dash::TeamSpec";
    if (units == 0) {
      throw invalid_argument(function, "units", units, "at least 1");
    }
    extents_.fill(1);
    std::size_t distributed = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (distributions[dim].kind() != DistributionKind::none) {
        ++distributed;
      }
    }
    if (distributed == 0) {
      if (units != 1) {
        throw invalid_argument(function, "units", units, "1 when every dimension is NONE");
      }
      size_ = 1;
      return;
    }
    Coords factors{};
    balanced_factors(units, distributed, units, factors.data());  // succeeds: units x 1 x ... always fits
    std::size_t next_factor = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (distributions[dim].kind() != DistributionKind::none) {
        extents_[dim] = factors[next_factor++];
      }
    }
    size_ = units;
  }

  static constexpr std::size_t ndim() noexcept { return N; }

  std::size_t extent(std::size_t dim) const {
    detail::check_below("dash::TeamSpec::extent", "dim", dim, N);
    return extents_[dim];
  }

  constexpr const Coords& extents() const noexcept { return extents_; }

  // Number of units: the product of the extents.
  constexpr std::size_t size() const noexcept { return size_; }

  // Grid coordinates of a unit id.
  Coords coords(std::size_t unit) const {
    detail::check_below("dash::TeamSpec::coords", "unit", unit, size_);
    return coords_unchecked(unit);
  }

  // Unit id at grid coordinates.
  std::size_t unit(const Coords& coords) const {
    for (std::size_t dim = 0; dim < N; ++dim) {
      detail::check_below("dash::TeamSpec::unit", "coords[" + std::to_string(dim) + "]", coords[dim], extents_[dim]);
    }
    return unit_unchecked(coords);
  }

  // coords() and unit() without bounds checks, for index maths whose inputs are already valid.
  constexpr Coords coords_unchecked(std::size_t unit) const noexcept {
    Coords coords{};
    for (std::size_t dim = N; dim-- > 0;) {
      coords[dim] = unit % extents_[dim];
      unit /= extents_[dim];
    }
    return coords;
  }

  constexpr std::size_t unit_unchecked(const Coords& coords) const noexcept {
    std::size_t unit = 0;
    for (std::size_t dim = 0; dim < N; ++dim) {
      unit = unit * extents_[dim] + coords[dim];
    }
    return unit;
  }

  friend constexpr bool operator==(const TeamSpec&, const TeamSpec&) noexcept = default;

private:
  void validate(const char* function) {
    size_ = 1;
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (extents_[dim] == 0) {
        throw invalid_argument(function, "extent[" + std::to_string(dim) + "]", extents_[dim], "at least 1 unit");
      }
      size_ = detail::checked_extent_product(function, "extent", size_, extents_[dim]);
    }
  }

  // Writes `count` factors of `product`, each at most `cap`, descending, lexicographically smallest
  // among all such factorisations; returns false if there is none. Each leading factor is at least
  // the count-th root of the rest, so the search starts there and only divisors recurse.
  static bool balanced_factors(std::size_t product, std::size_t count, std::size_t cap, std::size_t* factors) {
    if (count == 1) {
      factors[0] = product;
      return product <= cap;
    }
    for (std::size_t factor = 1; factor <= cap && factor <= product; ++factor) {
      if (product % factor != 0 || !power_reaches(factor, count, product)) {
        continue;
      }
      if (balanced_factors(product / factor, count - 1, factor, factors + 1)) {
        factors[0] = factor;
        return true;
      }
    }
    return false;
  }

  // base^exponent >= target, without overflow.
  static constexpr bool power_reaches(std::size_t base, std::size_t exponent, std::size_t target) noexcept {
    std::size_t power = 1;
    for (std::size_t step = 0; step < exponent; ++step) {
      if (power >= target || power > target / base) {
        return true;
      }
      power *= base;
    }
    return power >= target;
  }

  Coords extents_{};
  std::size_t size_ = 1;
};

}  // namespace dash
