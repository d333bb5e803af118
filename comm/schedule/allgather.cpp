#include <algorithm>
#include <bit>
#include <cstdint>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

namespace {

std::uint32_t to_u32(int value) { return static_cast<std::uint32_t>(value); }

// The contributions of `count` consecutive ranks from `first`, wrapping around after rank p - 1,
// in the output layout (rank i's contribution is blocks [i·S, (i+1)·S)).
BlockSet contributions(int first, int count, int p, std::uint32_t s) {
  return BlockSet{to_u32(first) * s, to_u32(count) * s, to_u32(count) * s, 0, to_u32(p) * s};
}

// The contributions of ranks first, first + step, ... (`count` of them, modulo p).
BlockSet contribution_progression(int first, int step, int count, int p, std::uint32_t s) {
  return BlockSet{to_u32(first) * s, to_u32(count) * s, s, std::int64_t{step} * s, to_u32(p) * s};
}

}  // namespace

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

Schedule allgather_recursive_doubling(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "recursive_doubling";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const BlockSet own = BlockSet::range(0, s);
  const int p2 = static_cast<int>(floor_pow2(to_u32(p)));
  const int extra = p - p2;  // r: ranks folded into their odd neighbour

  schedule.add_round().actions.push_back(
      Action::copy(Buffer::input, own, Buffer::output, contributions(rank, 1, p, s)));
  if (rank < 2 * extra && rank % 2 == 0) {
    // Folded out: hand the block over, then receive the other p - 1 in one wrapped range.
    schedule.rounds.back().actions.push_back(Action::send_to(rank + 1, Buffer::input, own));
    schedule.add_round().actions.push_back(
        Action::receive_from(rank + 1, Buffer::output, contributions(rank + 1, p - 1, p, s)));
    return schedule;
  }
  const bool folded_in = rank < 2 * extra;
  if (folded_in) {
    schedule.rounds.back().actions.push_back(
        Action::receive_from(rank - 1, Buffer::output, contributions(rank - 1, 1, p, s)));
  }
  // Virtual rank v of the p' exchanging ranks holds the contributions of ranks
  // [first_owner(v), first_owner(v + 1)): two for v < r, one otherwise. An aligned group of
  // virtual ranks therefore holds one contiguous range.
  const int virtual_rank = folded_in ? rank / 2 : rank - extra;
  auto first_owner = [extra](int v) { return v < extra ? 2 * v : v + extra; };
  auto real_rank = [extra](int v) { return v < extra ? 2 * v + 1 : v + extra; };
  auto group = [&](int v, int width) {
    const int base = v & ~(width - 1);
    return BlockSet::range(to_u32(first_owner(base)) * s,
                           to_u32(first_owner(base + width) - first_owner(base)) * s);
  };
  for (int width = 1; width < p2; width <<= 1) {
    const int partner = virtual_rank ^ width;
    // A rank holding only its own block sends it from the input, alongside the copy.
    const bool from_input = width == 1 && !folded_in;
    Round& exchange = from_input ? schedule.rounds.back() : schedule.add_round();
    exchange.actions.push_back(from_input ? Action::send_to(real_rank(partner), Buffer::input, own)
                                          : Action::send_to(real_rank(partner), Buffer::output,
                                                            group(virtual_rank, width)));
    exchange.actions.push_back(Action::receive_from(real_rank(partner), Buffer::output, group(partner, width)));
  }
  if (folded_in) {
    schedule.add_round().actions.push_back(
        Action::send_to(rank - 1, Buffer::output, contributions(rank, p - 1, p, s)));
  }
  return schedule;
}

namespace {

// Bruck's rounds over `buffer`, where position t (blocks [t·S, (t+1)·S)) holds the contribution
// of rank (rank + t) mod p: round j sends positions [0, n) to rank - 2^j and receives positions
// [2^j, 2^j + n) from rank + 2^j, n = min(2^j, p - 2^j). The first round sends from the input.
void add_bruck_rounds(Schedule& schedule, const CollectiveShape& shape, int rank, Buffer buffer) {
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const BlockSet own = BlockSet::range(0, s);
  schedule.add_round().actions.push_back(Action::copy(Buffer::input, own, buffer, own));
  for (int distance = 1; distance < p; distance <<= 1) {
    const int count = std::min(distance, p - distance);
    Round& round = distance == 1 ? schedule.rounds.back() : schedule.add_round();
    round.actions.push_back(Action::send_to(modulo(rank - distance, p), distance == 1 ? Buffer::input : buffer,
                                            BlockSet::range(0, to_u32(count) * s)));
    round.actions.push_back(Action::receive_from(modulo(rank + distance, p), buffer,
                                                 BlockSet::range(to_u32(distance) * s, to_u32(count) * s)));
  }
}

}  // namespace

Schedule allgather_bruck(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "bruck";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  if (p == 1) {
    schedule.add_round().actions.push_back(
        Action::copy(Buffer::input, BlockSet::range(0, s), Buffer::output, BlockSet::range(0, s)));
    return schedule;
  }
  schedule.scratch_blocks = to_u32(p) * s;
  add_bruck_rounds(schedule, shape, rank, Buffer::scratch);
  // Position t holds rank (rank + t)'s contribution: rotate it into place.
  schedule.add_round().actions.push_back(Action::copy(Buffer::scratch, BlockSet::range(0, to_u32(p) * s),
                                                      Buffer::output, contributions(rank, p, p, s)));
  return schedule;
}

Schedule allgather_bruck_noncanonical(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "bruck_noncanonical";
  add_bruck_rounds(schedule, shape, rank, Buffer::output);
  // Slot t holds rank (rank + t)'s contribution.
  const std::uint32_t s = shape.segments;
  const auto p = static_cast<std::uint32_t>(shape.size);
  schedule.placement.resize(std::size_t{p} * s);
  for (std::uint32_t t = 0; t < p; ++t) {
    for (std::uint32_t b = 0; b < s; ++b) {
      schedule.placement[t * s + b] = ((static_cast<std::uint32_t>(rank) + t) % p) * s + b;
    }
  }
  return schedule;
}

Schedule allgather_sparbit(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "sparbit";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  schedule.add_round().actions.push_back(
      Action::copy(Buffer::input, BlockSet::range(0, s), Buffer::output, contributions(rank, 1, p, s)));
  if (p == 1) {
    return schedule;
  }
  // Before the step at distance d, rank r holds ranks r - 2jd (mod p), j < held. A step sends
  // all of them but, on the ignore steps, the last one (its receiver is a leaf of that tree and
  // gets it elsewhere); bit k of `ignore_steps` marks the step at distance 2^k.
  const auto size = to_u32(p);
  const int lowest = std::countr_zero(size);
  const std::uint32_t ignore_steps = (~(size >> lowest) | 1u) << lowest;
  const std::uint32_t top = 1u << (ceil_log2(size) - 1);
  int held = 1;
  for (std::uint32_t distance = top; distance > 0; distance >>= 1) {
    const int ignore = (distance & ignore_steps) != 0 ? 1 : 0;
    const int count = held - ignore;
    const int d = static_cast<int>(distance);
    const bool first_step = distance == top;  // sends only the own block, from the input
    Round& step = first_step ? schedule.rounds.back() : schedule.add_round();
    step.actions.push_back(first_step ? Action::send_to(modulo(rank + d, p), Buffer::input, BlockSet::range(0, s))
                                      : Action::send_to(modulo(rank + d, p), Buffer::output,
                                                        contribution_progression(rank, -2 * d, count, p, s)));
    // The sender's list shifted by d: ranks r - (2j+1)d.
    step.actions.push_back(Action::receive_from(
        modulo(rank - d, p), Buffer::output, contribution_progression(modulo(rank - d, p), -2 * d, count, p, s)));
    held = 2 * held - ignore;
  }
  return schedule;
}

Schedule allgather_neighbor_exchange(const CollectiveShape& shape, int rank) {
  const int p = shape.size;
  if (p % 2 != 0) {
    throw dash::invalid_argument("dash::comm::schedule::allgather_neighbor_exchange", "size", p,
                                 "an even group size");
  }
  Schedule schedule;
  schedule.algorithm = "neighbor_exchange";
  const std::uint32_t s = shape.segments;
  const int pairs = p / 2;
  const bool even = rank % 2 == 0;
  // Pair k = ranks 2k and 2k + 1. Even ranks talk to rank + 1 in even rounds and to rank - 1 in
  // odd ones, odd ranks the other way round. From round 1 on, each rank forwards the pair it
  // received in the previous round, so pairs spread one step further each way per round.
  auto peer_in = [&](int round) { return modulo(rank + ((round % 2 == 0) == even ? 1 : -1), p); };
  const int sign = even ? -1 : 1;
  auto pair_received_in = [&](int round) {
    const int k = rank / 2;
    return modulo(round % 2 == 1 ? k + sign * (round + 1) / 2 : k - sign * round / 2, pairs);
  };
  auto pair_blocks = [&](int pair) { return contributions(2 * pair, 2, p, s); };

  Round& first = schedule.add_round();
  first.actions.push_back(
      Action::copy(Buffer::input, BlockSet::range(0, s), Buffer::output, contributions(rank, 1, p, s)));
  first.actions.push_back(Action::send_to(peer_in(0), Buffer::input, BlockSet::range(0, s)));
  first.actions.push_back(Action::receive_from(peer_in(0), Buffer::output, contributions(peer_in(0), 1, p, s)));
  for (int round = 1; round < pairs; ++round) {
    Round& exchange = schedule.add_round();
    const int peer = peer_in(round);
    exchange.actions.push_back(Action::send_to(peer, Buffer::output, pair_blocks(pair_received_in(round - 1))));
    exchange.actions.push_back(Action::receive_from(peer, Buffer::output, pair_blocks(pair_received_in(round))));
  }
  return schedule;
}

}  // namespace dash::comm::schedule
