#pragma once
// dash::SizeSpec<N>: the global extents of an N-dimensional index space.

#include <array>
#include <concepts>
#include <cstddef>

#include <dash/core/detail/index_check.hpp>

namespace dash {

template <std::size_t N>
class SizeSpec {
  static_assert(N >= 1, "dash::SizeSpec needs at least one dimension");

public:
  // An empty index space (every extent 0).
  constexpr SizeSpec() noexcept = default;

  // One extent per dimension, dimension 0 first (slowest in row-major order).
  template <std::convertible_to<std::size_t>... Extents>
    requires(sizeof...(Extents) == N)
  explicit SizeSpec(Extents... extents) : SizeSpec(std::array<std::size_t, N>{static_cast<std::size_t>(extents)...}) {}

  explicit SizeSpec(const std::array<std::size_t, N>& extents) : extents_(extents), size_(1) {
    for (std::size_t extent : extents_) {
      size_ = detail::checked_extent_product("dash::SizeSpec", "extent", size_, extent);
    }
  }

  static constexpr std::size_t ndim() noexcept { return N; }

  std::size_t extent(std::size_t dim) const {
    detail::check_below("dash::SizeSpec::extent", "dim", dim, N);
    return extents_[dim];
  }

  constexpr const std::array<std::size_t, N>& extents() const noexcept { return extents_; }

  // Number of elements: the product of the extents.
  constexpr std::size_t size() const noexcept { return size_; }

  friend constexpr bool operator==(const SizeSpec&, const SizeSpec&) noexcept = default;

private:
  std::array<std::size_t, N> extents_{};
  std::size_t size_ = 0;
};

}  // namespace dash
