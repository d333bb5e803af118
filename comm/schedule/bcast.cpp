#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

Schedule bcast_binomial(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binomial";
  const int p = shape.size;
  const int relative = modulo(rank - shape.root, p);
  const BlockSet all = BlockSet::range(0, shape.segments);
  auto absolute = [&](int relative_rank) { return modulo(relative_rank + shape.root, p); };

  // The parent is the relative rank without its lowest set bit; the root has none.
  std::uint32_t mask = 1;
  while (mask < static_cast<std::uint32_t>(p) && (relative & static_cast<int>(mask)) == 0) {
    mask <<= 1;
  }
  if (relative != 0) {
    schedule.add_round().actions.push_back(
        Action::receive_from(absolute(relative - static_cast<int>(mask)), Buffer::output, all));
  }
  // Children: relative + m for m = mask/2, mask/4, ..., 1, largest subtree first.
  for (std::uint32_t child = mask >> 1; child > 0; child >>= 1) {
    if (relative + static_cast<int>(child) < p) {
      schedule.add_round().actions.push_back(
          Action::send_to(absolute(relative + static_cast<int>(child)), Buffer::output, all));
    }
  }
  return schedule;
}

}  // namespace dash::comm::schedule
