#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

Schedule allreduce_recursive_doubling(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "recursive_doubling";
  const int p = shape.size;
  const BlockSet all = BlockSet::range(0, shape.segments);
  const int p2 = static_cast<int>(floor_pow2(static_cast<std::uint32_t>(p)));
  const int extra = p - p2;  // r: ranks folded into a neighbour before the exchanges
  auto side = [rank](int peer) { return peer < rank ? Operand::incoming_left : Operand::incoming_right; };

  schedule.add_round().actions.push_back(Action::copy(Buffer::input, all, Buffer::output, all));
  if (rank < 2 * extra && rank % 2 == 0) {
    // Folded out: hand the vector over and wait for the result.
    schedule.rounds.back().actions.push_back(Action::send_to(rank + 1, Buffer::input, all));
    schedule.add_round().actions.push_back(Action::receive_from(rank + 1, Buffer::output, all));
    return schedule;
  }
  if (rank < 2 * extra) {
    schedule.add_round().actions.push_back(
        Action::receive_reduce_from(rank - 1, Buffer::output, all, Operand::incoming_left));
  }
  const int new_rank = rank < 2 * extra ? rank / 2 : rank - extra;
  auto real_rank = [extra](int virtual_rank) {
    return virtual_rank < extra ? 2 * virtual_rank + 1 : virtual_rank + extra;
  };
  if (p2 > 1) {
    schedule.scratch_blocks = shape.segments;
  }
  for (int mask = 1; mask < p2; mask <<= 1) {
    const int partner = real_rank(new_rank ^ mask);
    Round& exchange = schedule.add_round();
    exchange.actions.push_back(Action::send_to(partner, Buffer::output, all));
    exchange.actions.push_back(Action::receive_from(partner, Buffer::scratch, all));
    schedule.add_round().actions.push_back(
        Action::reduce(Buffer::scratch, all, Buffer::output, all, side(partner)));
  }
  if (rank < 2 * extra) {
    schedule.add_round().actions.push_back(Action::send_to(rank - 1, Buffer::output, all));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
