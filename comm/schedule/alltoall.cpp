#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/alltoall.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

namespace {

// The S blocks exchanged with rank q, in the input (going to q) or the output (coming from q).
BlockSet blocks_of(int q, std::uint32_t s) { return BlockSet::range(static_cast<std::uint32_t>(q) * s, s); }

// Pairwise exchanges: in round t the rank sends its blocks for send_to(t) and receives those of
// receive_from(t); a round whose peer is the rank itself (one-factor idle round) copies its own
// blocks instead, and without such a round the copy joins the first one.
template <class SendTo, class ReceiveFrom>
Schedule direct_exchange(std::string algorithm, const CollectiveShape& shape, int rank, int rounds,
                         SendTo send_to, ReceiveFrom receive_from) {
  Schedule schedule;
  schedule.algorithm = std::move(algorithm);
  const std::uint32_t s = shape.segments;
  const Action own = Action::copy(Buffer::input, blocks_of(rank, s), Buffer::output, blocks_of(rank, s));
  bool copied = false;
  for (int t = 0; t < rounds; ++t) {
    Round& round = schedule.add_round();
    const int to = send_to(t);
    const int from = receive_from(t);
    if (to == rank) {
      round.actions.push_back(own);
      copied = true;
      continue;
    }
    round.actions.push_back(Action::send_to(to, Buffer::input, blocks_of(to, s)));
    round.actions.push_back(Action::receive_from(from, Buffer::output, blocks_of(from, s)));
  }
  if (!copied) {
    (schedule.rounds.empty() ? schedule.add_round() : schedule.rounds.front()).actions.push_back(own);
  }
  return schedule;
}

// Slots first, first + step, ... (`count` of them, modulo p), S blocks each, in a buffer of p
// slots; step = -1 walks downwards. Built by hand: no factory makes runs that wrap around.
BlockSet slots_modulo(int first, int step, std::uint32_t count, int p, std::uint32_t s) {
  const auto p_blocks = static_cast<std::uint32_t>(p) * s;
  return BlockSet{static_cast<std::uint32_t>(modulo(first, p)) * s, count * s, s,
                  static_cast<std::int64_t>(step) * s, p_blocks};
}

// Slots k < p with bit j of k equal to `bit`, as runs of 2^j slots (S blocks each).
BlockSet slots_with_bit(int j, bool bit, std::uint32_t p, std::uint32_t s) {
  const std::uint32_t run = 1u << j;
  // Slots below p with bit j set: full periods of 2^(j+1) slots contribute 2^j each.
  const std::uint32_t set = (p >> (j + 1)) * run + (p % (2 * run) > run ? p % (2 * run) - run : 0);
  const std::uint32_t count = bit ? set : p - set;
  return BlockSet::strided_runs(bit ? run * s : 0, run * s, std::int64_t{2} * run * s, count * s);
}

// Bruck with message combining. Slot k of a p-slot working buffer holds, before round j, the
// block that travels distance k and has covered the low j bits of k; it ends at rank r holding the
// block of rank r - k. Rounds alternate between the output and a scratch buffer so that a round
// never reads the slots it receives into: it sends the bit-j slots from one and receives them
// into the other while copying the remaining slots across.
Schedule bruck(std::string algorithm, const CollectiveShape& shape, int rank, bool canonical) {
  Schedule schedule;
  schedule.algorithm = std::move(algorithm);
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const auto slots = static_cast<std::uint32_t>(p);
  const BlockSet all = BlockSet::range(0, slots * s);
  if (p == 1) {
    schedule.add_round().actions.push_back(Action::copy(Buffer::input, all, Buffer::output, all));
    return schedule;
  }
  schedule.scratch_blocks = slots * s;
  const int steps = ceil_log2(slots);
  // The buffer rounds leave their result in: the canonical variant ends in scratch (to reorder
  // into the output), the non-canonical one in the output itself.
  const Buffer last = canonical ? Buffer::scratch : Buffer::output;
  const Buffer other = canonical ? Buffer::output : Buffer::scratch;
  auto buffer_after = [&](int j) { return (steps - j) % 2 == 0 ? last : other; };  // after j rounds

  // Slot k = block for rank r + k.
  schedule.add_round().actions.push_back(
      Action::copy(Buffer::input, slots_modulo(rank, 1, slots, p, s), buffer_after(0), all));
  for (int j = 0; j < steps; ++j) {
    const Buffer from = buffer_after(j);
    const Buffer into = buffer_after(j + 1);
    const int distance = 1 << j;
    const BlockSet moving = slots_with_bit(j, true, slots, s);
    const BlockSet staying = slots_with_bit(j, false, slots, s);
    Round& round = schedule.add_round();
    round.actions.push_back(Action::send_to(modulo(rank + distance, p), from, moving));
    round.actions.push_back(Action::receive_from(modulo(rank - distance, p), into, moving));
    round.actions.push_back(Action::copy(from, staying, into, staying));
  }
  if (canonical) {
    schedule.add_round().actions.push_back(
        Action::copy(Buffer::scratch, all, Buffer::output, slots_modulo(rank, -1, slots, p, s)));
  }
  return schedule;
}

}  // namespace

Schedule alltoall_pairwise(const CollectiveShape& shape, int rank) {
  const int p = shape.size;
  return direct_exchange(
      "pairwise", shape, rank, p - 1, [&](int t) { return modulo(rank + t + 1, p); },
      [&](int t) { return modulo(rank - t - 1, p); });
}

Schedule alltoall_linear(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "linear";
  const std::uint32_t s = shape.segments;
  Round& round = schedule.add_round();
  round.actions.push_back(
      Action::copy(Buffer::input, blocks_of(rank, s), Buffer::output, blocks_of(rank, s)));
  for (int q = 0; q < shape.size; ++q) {
    if (q != rank) {
      round.actions.push_back(Action::send_to(q, Buffer::input, blocks_of(q, s)));
      round.actions.push_back(Action::receive_from(q, Buffer::output, blocks_of(q, s)));
    }
  }
  return schedule;
}

Schedule alltoall_hypercube_xor(const CollectiveShape& shape, int rank) {
  const int p = shape.size;
  if (!std::has_single_bit(static_cast<std::uint32_t>(p))) {
    throw invalid_argument("dash::comm::schedule::alltoall_hypercube_xor", "shape.size", p,
                           "a power of two");
  }
  auto partner = [&](int t) { return rank ^ (t + 1); };
  return direct_exchange("hypercube_xor", shape, rank, p - 1, partner, partner);
}

int one_factor_rounds(int p) noexcept { return p % 2 == 1 ? p : p - 1; }

int one_factor_partner(int p, int round, int rank) noexcept {
  if (p % 2 == 1) {
    return modulo(round - rank, p);
  }
  const int odd = p - 1;
  const int idle = modulo(std::int64_t{p / 2} * round, odd);
  if (rank == odd) {
    return idle;
  }
  return rank == idle ? odd : modulo(round - rank, odd);
}

Schedule alltoall_one_factor(const CollectiveShape& shape, int rank) {
  const int p = shape.size;
  auto partner = [&](int t) { return one_factor_partner(p, t, rank); };
  return direct_exchange("one_factor", shape, rank, one_factor_rounds(p), partner, partner);
}

Schedule alltoall_bruck(const CollectiveShape& shape, int rank) {
  return bruck("bruck", shape, rank, true);
}

Schedule alltoall_bruck_noncanonical(const CollectiveShape& shape, int rank) {
  Schedule schedule = bruck("bruck_noncanonical", shape, rank, false);
  // Slot k holds the block of rank (rank - k).
  const std::uint32_t s = shape.segments;
  const int p = shape.size;
  schedule.placement.resize(static_cast<std::size_t>(p) * s);
  for (int k = 0; k < p; ++k) {
    for (std::uint32_t b = 0; b < s; ++b) {
      schedule.placement[static_cast<std::uint32_t>(k) * s + b] = static_cast<std::uint32_t>(modulo(rank - k, p)) * s + b;
    }
  }
  return schedule;
}

}  // namespace dash::comm::schedule
