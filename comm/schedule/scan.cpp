#include <cstdint>

#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/scan.hpp>

namespace dash::comm::schedule {

Schedule scan_recursive_doubling(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "recursive_doubling";
  const int p = shape.size;
  const BlockSet all = BlockSet::range(0, shape.segments);
  schedule.add_round().actions.push_back(Action::copy(Buffer::input, all, Buffer::output, all));
  if (rank > 0) {
    schedule.scratch_blocks = shape.segments;  // the incoming prefix, before it is combined
  }
  for (int distance = 1; distance < p; distance <<= 1) {
    const bool sends = rank + distance < p;
    const bool receives = rank >= distance;
    if (!sends && !receives) {
      break;  // then also for every larger distance
    }
    // The first round sends the input, as the copy into the output runs alongside.
    Round& round = distance == 1 ? schedule.rounds.back() : schedule.add_round();
    if (sends) {
      round.actions.push_back(
          Action::send_to(rank + distance, distance == 1 ? Buffer::input : Buffer::output, all));
    }
    if (receives) {
      round.actions.push_back(Action::receive_from(rank - distance, Buffer::scratch, all));
      // Combined in a round of its own: the next send reads the output.
      schedule.add_round().actions.push_back(
          Action::reduce(Buffer::scratch, all, Buffer::output, all, Operand::incoming_left));
    }
  }
  return schedule;
}

Schedule scan_linear(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "linear";
  const BlockSet all = BlockSet::range(0, shape.segments);
  Round& first = schedule.add_round();
  first.actions.push_back(Action::copy(Buffer::input, all, Buffer::output, all));
  const bool forwards = rank + 1 < shape.size;
  if (rank == 0) {
    if (forwards) {
      first.actions.push_back(Action::send_to(1, Buffer::input, all));
    }
    return schedule;
  }
  schedule.add_round().actions.push_back(
      Action::receive_reduce_from(rank - 1, Buffer::output, all, Operand::incoming_left));
  if (forwards) {
    schedule.add_round().actions.push_back(Action::send_to(rank + 1, Buffer::output, all));
  }
  return schedule;
}

Schedule exscan_recursive_doubling(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "recursive_doubling";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const BlockSet all = BlockSet::range(0, s);
  // The prefix a rank forwards includes its own input: rank 0 forwards the input itself, the
  // others keep it in scratch for as long as they still have to forward it. Prefixes received
  // after the first round land in scratch too and are combined from there.
  const bool keeps_prefix = rank > 0 && rank + 2 < p;
  const bool stages_incoming = rank >= 2;
  const BlockSet prefix = BlockSet::range(0, s);
  const BlockSet incoming = BlockSet::range(keeps_prefix ? s : 0, s);
  schedule.scratch_blocks = (keeps_prefix ? s : 0) + (stages_incoming ? s : 0);

  for (int distance = 1; distance < p; distance <<= 1) {
    const bool sends = rank + distance < p;
    const bool receives = rank >= distance;
    if (!sends && !receives) {
      break;  // then also for every larger distance
    }
    const bool keeps_after = rank + 2 * distance < p;  // forwards again in a later round
    Round& round = schedule.add_round();
    if (sends) {
      const bool from_input = rank == 0 || distance == 1;
      round.actions.push_back(Action::send_to(rank + distance, from_input ? Buffer::input : Buffer::scratch,
                                              from_input ? all : prefix));
    }
    if (!receives) {
      continue;
    }
    if (distance == 1) {
      // The first prefix is the output so far; the forwarded prefix adds the input to it.
      round.actions.push_back(Action::receive_from(rank - 1, Buffer::output, all));
      if (keeps_after) {
        round.actions.push_back(Action::copy(Buffer::input, all, Buffer::scratch, prefix));
        schedule.add_round().actions.push_back(
            Action::reduce(Buffer::output, all, Buffer::scratch, prefix, Operand::incoming_left));
      }
      continue;
    }
    round.actions.push_back(Action::receive_from(rank - distance, Buffer::scratch, incoming));
    Round& combine = schedule.add_round();
    combine.actions.push_back(
        Action::reduce(Buffer::scratch, incoming, Buffer::output, all, Operand::incoming_left));
    if (keeps_after) {
      combine.actions.push_back(
          Action::reduce(Buffer::scratch, incoming, Buffer::scratch, prefix, Operand::incoming_left));
    }
  }
  return schedule;
}

Schedule exscan_linear(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "linear";
  const BlockSet all = BlockSet::range(0, shape.segments);
  const bool forwards = rank + 1 < shape.size;
  if (rank == 0) {
    if (forwards) {
      schedule.add_round().actions.push_back(Action::send_to(1, Buffer::input, all));
    }
    return schedule;
  }
  Round& first = schedule.add_round();
  first.actions.push_back(Action::receive_from(rank - 1, Buffer::output, all));
  if (forwards) {
    schedule.scratch_blocks = shape.segments;
    first.actions.push_back(Action::copy(Buffer::input, all, Buffer::scratch, all));
    schedule.add_round().actions.push_back(
        Action::reduce(Buffer::output, all, Buffer::scratch, all, Operand::incoming_left));
    schedule.add_round().actions.push_back(Action::send_to(rank + 1, Buffer::scratch, all));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
