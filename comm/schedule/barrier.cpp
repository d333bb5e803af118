#include <cstdint>

#include <dash/comm/schedule/barrier.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

Schedule barrier_dissemination(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "dissemination";
  const int p = shape.size;
  const BlockSet token = BlockSet::range(0, 1);
  schedule.add_round().actions.push_back(Action::copy(Buffer::input, token, Buffer::output, token));
  // A round may not send a block it also combines into, so each round after the first sends a
  // snapshot of the token taken in the round before; the first sends the input.
  for (std::int64_t distance = 1; distance < p; distance <<= 1) {
    const bool first = distance == 1;
    if (!first) {
      schedule.scratch_blocks = 1;
      schedule.add_round().actions.push_back(Action::copy(Buffer::output, token, Buffer::scratch, token));
    }
    Round& round = schedule.add_round();
    round.actions.push_back(
        Action::send_to(modulo(rank + distance, p), first ? Buffer::input : Buffer::scratch, token));
    round.actions.push_back(Action::receive_reduce_from(modulo(rank - distance, p), Buffer::output, token,
                                                        Operand::incoming_left));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
