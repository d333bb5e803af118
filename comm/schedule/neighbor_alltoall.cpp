#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/neighbor_alltoall.hpp>

namespace dash::comm::schedule {

namespace {

// The S blocks of a neighbour slot.
BlockSet slot_blocks(int slot, std::uint32_t s) { return BlockSet::range(static_cast<std::uint32_t>(slot) * s, s); }

}  // namespace

Schedule neighbor_alltoall_direct(const CollectiveShape& shape, int rank) {
  constexpr const char* function = "dash::comm::schedule::neighbor_alltoall_direct";
  if (!shape.grid) {
    throw InvalidArgument(std::string(function) + ": shape.grid is not set; neighbor_alltoall needs a grid");
  }
  const CartesianGrid& grid = *shape.grid;
  if (grid.size() != shape.size) {
    throw invalid_argument(function, "shape.size", shape.size,
                           "the number of ranks of shape.grid, " + std::to_string(grid.size()));
  }
  Schedule schedule;
  schedule.algorithm = "direct";
  const std::uint32_t s = shape.segments;
  Round round;
  for (int d = 0; d < grid.ndims(); ++d) {
    const int down = 2 * d;
    const int up = 2 * d + 1;
    const std::optional<int> below = grid.neighbor(rank, d, -1);
    const std::optional<int> above = grid.neighbor(rank, d, 1);
    if (below == rank) {
      // A periodic dimension of size 1: the rank is both its neighbours and keeps what it sends,
      // each slot in the opposite one.
      round.actions.push_back(Action::copy(Buffer::input, slot_blocks(down, s), Buffer::output, slot_blocks(up, s)));
      round.actions.push_back(Action::copy(Buffer::input, slot_blocks(up, s), Buffer::output, slot_blocks(down, s)));
      continue;
    }
    // Messages between two ranks match in schedule order. When both neighbours are one rank q (a
    // periodic dimension of size 2), q's first message, its slot `down`, belongs in our slot
    // `up`, so every rank sends down before up and receives from above before below.
    if (below) {
      round.actions.push_back(Action::send_to(*below, Buffer::input, slot_blocks(down, s)));
    }
    if (above) {
      round.actions.push_back(Action::send_to(*above, Buffer::input, slot_blocks(up, s)));
      round.actions.push_back(Action::receive_from(*above, Buffer::output, slot_blocks(up, s)));
    }
    if (below) {
      round.actions.push_back(Action::receive_from(*below, Buffer::output, slot_blocks(down, s)));
    }
  }
  if (!round.actions.empty()) {
    schedule.rounds.push_back(std::move(round));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
