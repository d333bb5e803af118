#pragma once
// The shape of a Cartesian process grid: what MPI_Cart_create(comm, ndims, dims, periods,
// reorder = 0, ...) would build over a group, as a plain value. Ranks map to coordinates in
// row-major order (the last dimension varies fastest), as MPI_Cart_coords and MPI_Cart_rank do.
//
// Neighbourhood collectives (neighbor_alltoall.hpp) address neighbours by slot: slot 2d is the
// neighbour one step down dimension d (displacement -1), slot 2d + 1 the one a step up (+1), the
// order of MPI_Neighbor_alltoall on a Cartesian communicator. A periodic dimension wraps around;
// past the edge of a non-periodic one there is no neighbour (MPI_PROC_NULL in MPI).

#include <optional>
#include <span>
#include <vector>

namespace dash::comm {

class CartesianGrid {
public:
  // Throws dash::InvalidArgument when dims and periodic differ in length, a dimension is below 1
  // or the product of the dimensions exceeds INT_MAX. No dimensions: a grid of one rank.
  CartesianGrid(std::vector<int> dims, std::vector<bool> periodic);

  int ndims() const noexcept { return static_cast<int>(dims_.size()); }
  // The number of ranks: the product of the dimensions.
  int size() const noexcept { return size_; }
  const std::vector<int>& dims() const noexcept { return dims_; }
  const std::vector<bool>& periodic() const noexcept { return periodic_; }
  // 2 ndims: the blocks per neighbourhood exchange.
  int neighbor_slots() const noexcept { return 2 * ndims(); }

  // The coordinates of `rank` (dash::OutOfRange unless it is in [0, size())).
  std::vector<int> coordinates(int rank) const;
  // Coordinate `dimension` of `rank`.
  int coordinate(int rank, int dimension) const;
  // The rank at `coordinates` (ndims() of them, each within its dimension; else dash::InvalidArgument
  // or dash::OutOfRange).
  int rank_of(std::span<const int> coordinates) const;

  // The rank `displacement` steps from `rank` along `dimension`, as MPI_Cart_shift gives it:
  // wrapped around a periodic dimension, none beyond the edge of a non-periodic one.
  std::optional<int> neighbor(int rank, int dimension, int displacement) const;
  // The neighbour of `rank` in `slot` (0 <= slot < neighbor_slots()): dimension slot / 2,
  // displacement -1 for even slots and +1 for odd ones.
  std::optional<int> neighbor_in_slot(int rank, int slot) const;

  friend bool operator==(const CartesianGrid&, const CartesianGrid&) = default;

private:
  void check_rank(const char* function, int rank) const;
  void check_dimension(const char* function, int dimension) const;

  std::vector<int> dims_;
  std::vector<bool> periodic_;
  std::vector<int> strides_;  // rank distance of one step along each dimension
  int size_ = 1;
};

}  // namespace dash::comm
