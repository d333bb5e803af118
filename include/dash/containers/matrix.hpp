#pragma once
// dash::Matrix<T, N>: an N-dimensional array distributed over a team by a Pattern<N>
// (docs/design.md §3):
//
//   dash::Matrix<double, 2> m(dash::SizeSpec<2>(rows, cols),
//                             dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE), team,
//                             dash::TeamSpec<2>(team));
//   m(i, j) = 1.0;  double x = m[i][j];    // dash::GlobRef: may communicate
//   m.local(i, j) *= 2;                    // the caller's block, local coordinates, plain memory
//   dash::fill(m.row(i).begin(), m.row(i).end(), 0.0);   // rows are contiguous global ranges
//
// Global iteration (begin/end) is row-major over the global extents. Construction, allocate(),
// deallocate() and destruction are collective over the team; element access is one-sided; use
// barrier() to order one unit's writes before another's reads.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/containers/detail/distributed_storage.hpp>
#include <dash/containers/global_range.hpp>
#include <dash/containers/local_matrix.hpp>
#include <dash/containers/matrix_view.hpp>
#include <dash/core/distribution_spec.hpp>
#include <dash/core/glob_iter.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/size_spec.hpp>
#include <dash/core/team.hpp>
#include <dash/core/team_spec.hpp>

namespace dash {

template <class T, std::size_t N>
class Matrix;

// m[i] of an N-d matrix with N > 1: the sub-matrix with the first index fixed (a proxy; m[i][j]
// reaches the element).
template <class T, std::size_t N, std::size_t Fixed>
class MatrixRef {
public:
  MatrixRef(Matrix<T, N>* matrix, std::array<std::size_t, N> coords) : matrix_(matrix), coords_(coords) {}
  auto operator[](std::size_t index) const {
    std::array<std::size_t, N> coords = coords_;
    coords[Fixed] = index;
    if constexpr (Fixed + 1 == N) {
      return matrix_->at_coords(coords);
    } else {
      return MatrixRef<T, N, Fixed + 1>(matrix_, coords);
    }
  }

private:
  Matrix<T, N>* matrix_;
  std::array<std::size_t, N> coords_;
};

template <class T, std::size_t N = 2>
class Matrix {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::Matrix<T>: T must be trivially copyable, because elements are moved between processes as "
                "bytes (no constructors, destructors or pointers into one process's memory)");
  static_assert(N >= 1, "dash::Matrix needs at least one dimension");

public:
  using value_type = T;
  using size_type = std::size_t;
  using Coords = std::array<std::size_t, N>;
  using pattern_type = Pattern<N>;
  using iterator = GlobIter<T, pattern_type>;
  using const_iterator = GlobIter<const T, pattern_type>;
  using reference = GlobRef<T>;

  // The caller's block (plain memory, local coordinates); empty while not allocated.
  LocalMatrix<T, N> local;

  Matrix() = default;
  // Collective over `team`. Without a TeamSpec the team is arranged as a balanced grid over the
  // distributed dimensions.
  explicit Matrix(const SizeSpec<N>& sizes, const DistributionSpec<N>& distributions = DistributionSpec<N>(),
                  Team& team = Team::All()) {
    allocate(sizes, distributions, team, TeamSpec<N>(sizes, distributions, team.size()));
  }
  Matrix(const SizeSpec<N>& sizes, const DistributionSpec<N>& distributions, Team& team, const TeamSpec<N>& team_spec) {
    allocate(sizes, distributions, team, team_spec);
  }
  ~Matrix() = default;
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  Matrix(Matrix&& other) noexcept : local(std::exchange(other.local, {})), storage_(std::move(other.storage_)) {}
  Matrix& operator=(Matrix&& other) noexcept {
    local = std::exchange(other.local, {});
    storage_ = std::move(other.storage_);
    return *this;
  }

  // Collective over `team`: every member passes the same sizes, distributions and team grid
  // (checked). The grid must have team.size() units.
  void allocate(const SizeSpec<N>& sizes, const DistributionSpec<N>& distributions, Team& team,
                const TeamSpec<N>& team_spec) {
    if (storage_.allocated()) {
      throw InvalidState("dash::Matrix::allocate: the matrix is allocated already (deallocate() it first)");
    }
    Storage::require_member(team, "dash::Matrix::allocate");
    if (team_spec.size() != team.size()) {
      throw InvalidArgument("dash::Matrix::allocate: the team grid has " + std::to_string(team_spec.size()) +
                            " units but the team has " + std::to_string(team.size()) + " members");
    }
    std::array<std::uint64_t, 3 * N> shape{};
    for (std::size_t dim = 0; dim < N; ++dim) {
      shape[3 * dim] = sizes.extent(dim);
      shape[3 * dim + 1] = static_cast<std::uint64_t>(distributions[dim].kind()) << 32U | team_spec.extent(dim);
      shape[3 * dim + 2] = distributions[dim].fixed_block_size();
    }
    comm::check_uniform(shape, "dash::Matrix::allocate", "sizes, distributions and team grid", team.mpi_comm());
    storage_.allocate(pattern_type(sizes, distributions, team_spec), team);
    local = LocalMatrix<T, N>(storage_.local_data(), storage_.pattern_ptr(),
                              static_cast<std::size_t>(team.myid()));
  }
  // Collective: frees the memory (no-op when not allocated).
  void deallocate() {
    local = {};
    storage_.reset();
  }
  bool is_allocated() const noexcept { return storage_.allocated(); }

  size_type size() const noexcept { return storage_.allocated() ? storage_.pattern_ptr()->size() : 0; }
  size_type extent(std::size_t dim) const { return storage_.pattern("dash::Matrix::extent").extent(dim); }
  const Coords& extents() const { return storage_.pattern("dash::Matrix::extents").extents(); }

  iterator begin() { return iterator(segment_ptr(), pattern_ptr(), 0); }
  iterator end() { return iterator(segment_ptr(), pattern_ptr(), size()); }
  const_iterator begin() const { return const_iterator(segment_ptr(), pattern_ptr(), 0); }
  const_iterator end() const { return const_iterator(segment_ptr(), pattern_ptr(), size()); }
  T* lbegin() const noexcept { return local.begin(); }
  T* lend() const noexcept { return local.end(); }

  // m(i, j, ...): the element, unchecked apart from the pattern's own bounds checks.
  template <std::convertible_to<std::size_t>... Indices>
    requires(sizeof...(Indices) == N)
  reference operator()(Indices... indices) {
    return at_coords(Coords{static_cast<std::size_t>(indices)...});
  }
  // m.at(i, j, ...): throws dash::OutOfRange naming the dimension, the index and the extent.
  template <std::convertible_to<std::size_t>... Indices>
    requires(sizeof...(Indices) == N)
  reference at(Indices... indices) {
    const Coords coords{static_cast<std::size_t>(indices)...};
    for (std::size_t dim = 0; dim < N; ++dim) {
      if (coords[dim] >= extent(dim)) {
        throw OutOfRange("dash::Matrix::at: index " + std::to_string(coords[dim]) + " of dimension " +
                         std::to_string(dim) + " is outside [0, " + std::to_string(extent(dim)) + ")");
      }
    }
    return at_coords(coords);
  }
  // m[i][j]...: row i, then element j of it.
  auto operator[](std::size_t index) {
    if constexpr (N == 1) {
      return at_coords(Coords{index});
    } else {
      Coords coords{};
      coords[0] = index;
      return MatrixRef<T, N, 1>(this, coords);
    }
  }
  reference at_coords(const Coords& coords) {
    const LocalIndex where = storage_.pattern("dash::Matrix::operator()").local(coords);
    return reference(GlobPtr<T>(*storage_.segment_ptr(), static_cast<int>(where.unit), where.index));
  }

  // Row i of a 2-d matrix (or the (N-1)-d slice at first index i): a contiguous global range.
  GlobalRange<iterator> row(std::size_t index) {
    const std::size_t rows = extent(0);
    if (index >= rows) {
      throw OutOfRange("dash::Matrix::row: row " + std::to_string(index) + " is outside [0, " + std::to_string(rows) +
                       ")");
    }
    const auto width = static_cast<std::ptrdiff_t>(size() / rows);
    return {begin() + static_cast<std::ptrdiff_t>(index) * width, begin() + static_cast<std::ptrdiff_t>(index + 1) * width};
  }
  // Rows [first, last): a sub-matrix that is a contiguous global range.
  GlobalRange<iterator> rows(std::size_t first, std::size_t last) {
    const std::size_t count = extent(0);
    if (first > last || last > count) {
      throw OutOfRange("dash::Matrix::rows: [" + std::to_string(first) + ", " + std::to_string(last) +
                       ") is not a range of rows within [0, " + std::to_string(count) + "]");
    }
    const auto width = static_cast<std::ptrdiff_t>(count == 0 ? 0 : size() / count);
    return {begin() + static_cast<std::ptrdiff_t>(first) * width, begin() + static_cast<std::ptrdiff_t>(last) * width};
  }

  // Column j of a 2-d matrix, as a view (not contiguous in global order).
  MatrixView<T, N> col(std::size_t index) const
    requires(N == 2)
  {
    const pattern_type& layout = storage_.pattern("dash::Matrix::col");
    return MatrixView<T, N>(*storage_.segment_ptr(), layout, ViewSpec<N>{{0, index}, {layout.extent(0), 1}});
  }
  // Block b of the pattern (row-major over the block grid), as a view.
  MatrixView<T, N> block(std::size_t global_block) const {
    const pattern_type& layout = storage_.pattern("dash::Matrix::block");
    return MatrixView<T, N>(*storage_.segment_ptr(), layout, layout.block(global_block));
  }
  // Any rectangular region.
  MatrixView<T, N> sub(const ViewSpec<N>& region) const {
    const pattern_type& layout = storage_.pattern("dash::Matrix::sub");
    return MatrixView<T, N>(*storage_.segment_ptr(), layout, region);
  }

  const pattern_type& pattern() const { return storage_.pattern("dash::Matrix::pattern"); }
  Team& team() const { return storage_.segment("dash::Matrix::team").team(); }
  const GlobalSegment& segment() const { return storage_.segment("dash::Matrix::segment"); }
  // Collective: every member's earlier writes are visible to every member afterwards.
  void barrier() const { storage_.segment("dash::Matrix::barrier").barrier(); }

private:
  using Storage = detail::DistributedStorage<T, pattern_type>;

  const GlobalSegment* segment_ptr() const noexcept { return storage_.segment_ptr(); }
  const pattern_type* pattern_ptr() const noexcept { return storage_.pattern_ptr(); }

  Storage storage_;
};

}  // namespace dash
