#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/exception.hpp>

namespace dash::comm {

namespace {

constexpr const char* constructor = "dash::comm::CartesianGrid";

}  // namespace

CartesianGrid::CartesianGrid(std::vector<int> dims, std::vector<bool> periodic)
    : dims_(std::move(dims)), periodic_(std::move(periodic)), strides_(dims_.size(), 1) {
  if (periodic_.size() != dims_.size()) {
    throw invalid_argument(constructor, "periodic.size()", periodic_.size(),
                           std::to_string(dims_.size()) + " (one flag per dimension, as dims.size())");
  }
  std::int64_t product = 1;
  for (std::size_t d = dims_.size(); d-- > 0;) {
    if (dims_[d] < 1) {
      throw invalid_argument(constructor, "dims[" + std::to_string(d) + "]", dims_[d], "at least 1");
    }
    strides_[d] = static_cast<int>(product);
    product *= dims_[d];
    if (product > INT_MAX) {
      throw InvalidArgument(std::string(constructor) + ": invalid argument 'dims' describes more than " +
                            std::to_string(INT_MAX) + " ranks; expected a product of dimensions of at most " +
                            std::to_string(INT_MAX));
    }
  }
  size_ = static_cast<int>(product);
}

void CartesianGrid::check_rank(const char* function, int rank) const {
  if (rank < 0 || rank >= size_) {
    throw out_of_range(function, "rank", rank, "a rank in [0, " + std::to_string(size_) + ")");
  }
}

void CartesianGrid::check_dimension(const char* function, int dimension) const {
  if (dimension < 0 || dimension >= ndims()) {
    throw out_of_range(function, "dimension", dimension, "a dimension in [0, " + std::to_string(ndims()) + ")");
  }
}

std::vector<int> CartesianGrid::coordinates(int rank) const {
  check_rank("dash::comm::CartesianGrid::coordinates", rank);
  std::vector<int> result(dims_.size());
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    result[d] = rank / strides_[d] % dims_[d];
  }
  return result;
}

int CartesianGrid::coordinate(int rank, int dimension) const {
  check_rank("dash::comm::CartesianGrid::coordinate", rank);
  check_dimension("dash::comm::CartesianGrid::coordinate", dimension);
  const auto d = static_cast<std::size_t>(dimension);
  return rank / strides_[d] % dims_[d];
}

int CartesianGrid::rank_of(std::span<const int> coordinates) const {
  constexpr const char* function = "dash::comm::CartesianGrid::rank_of";
  if (coordinates.size() != dims_.size()) {
    throw invalid_argument(function, "coordinates.size()", coordinates.size(),
                           std::to_string(dims_.size()) + " (the number of dimensions)");
  }
  int rank = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (coordinates[d] < 0 || coordinates[d] >= dims_[d]) {
      throw out_of_range(function, "coordinates[" + std::to_string(d) + "]", coordinates[d],
                         "a coordinate in [0, " + std::to_string(dims_[d]) + ")");
    }
    rank += coordinates[d] * strides_[d];
  }
  return rank;
}

std::optional<int> CartesianGrid::neighbor(int rank, int dimension, int displacement) const {
  check_rank("dash::comm::CartesianGrid::neighbor", rank);
  check_dimension("dash::comm::CartesianGrid::neighbor", dimension);
  const auto d = static_cast<std::size_t>(dimension);
  const std::int64_t extent = dims_[d];
  const std::int64_t from = rank / strides_[d] % dims_[d];
  std::int64_t to = from + displacement;
  if (periodic_[d]) {
    to = (to % extent + extent) % extent;
  } else if (to < 0 || to >= extent) {
    return std::nullopt;
  }
  return static_cast<int>(rank + (to - from) * strides_[d]);
}

std::optional<int> CartesianGrid::neighbor_in_slot(int rank, int slot) const {
  if (slot < 0 || slot >= neighbor_slots()) {
    throw out_of_range("dash::comm::CartesianGrid::neighbor_in_slot", "slot", slot,
                       "a slot in [0, " + std::to_string(neighbor_slots()) + ")");
  }
  return neighbor(rank, slot / 2, slot % 2 == 0 ? -1 : 1);
}

}  // namespace dash::comm
