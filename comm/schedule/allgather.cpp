#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

Schedule allgather_ring(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "ring";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  auto blocks_of = [&](int owner) { return BlockSet::range(static_cast<std::uint32_t>(owner) * s, s); };
  const int right = modulo(rank + 1, p);
  const int left = modulo(rank - 1, p);

  Round& first = schedule.add_round();
  first.actions.push_back(Action::copy(Buffer::input, BlockSet::range(0, s), Buffer::output, blocks_of(rank)));
  if (p == 1) {
    return schedule;
  }
  // Round 0 sends straight from the input, so it need not wait for the copy.
  first.actions.push_back(Action::send_to(right, Buffer::input, BlockSet::range(0, s)));
  first.actions.push_back(Action::receive_from(left, Buffer::output, blocks_of(left)));
  for (int k = 1; k < p - 1; ++k) {
    Round& round = schedule.add_round();
    round.actions.push_back(Action::send_to(right, Buffer::output, blocks_of(modulo(rank - k, p))));
    round.actions.push_back(Action::receive_from(left, Buffer::output, blocks_of(modulo(rank - k - 1, p))));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
