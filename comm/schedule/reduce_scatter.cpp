#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>

namespace dash::comm::schedule {

namespace detail {

int Halving::real(int survivor) const noexcept {
  if (survivor >= extra) {
    return first + survivor + extra;
  }
  return first + 2 * survivor + (survivor == odd_survivor_pair ? 1 : 0);
}

Halving append_recursive_halving(Schedule& schedule, int first, int size, int rank, Buffer work,
                                 const std::vector<std::uint32_t>& bounds, int odd_survivor_pair) {
  Halving halving;
  halving.first = first;
  halving.p2 = static_cast<int>(floor_pow2(static_cast<std::uint32_t>(size)));
  halving.extra = size - halving.p2;
  halving.odd_survivor_pair = odd_survivor_pair;
  const auto parts = static_cast<std::uint32_t>(halving.p2);
  auto blocks = [&](std::uint32_t lo, std::uint32_t hi) {
    return BlockSet::range(bounds[lo], bounds[hi] - bounds[lo]);
  };
  const int local = rank - first;

  if (local < 2 * halving.extra) {
    // Pre-step: the even rank reduces the first half, the odd one the second; the one that is
    // folded away then hands its reduced half to the survivor.
    const int pair = local / 2;
    const bool odd = local % 2 == 1;
    const int partner = first + (local ^ 1);
    const BlockSet first_half = blocks(0, parts / 2);
    const BlockSet second_half = blocks(parts / 2, parts);
    Round& exchange = schedule.add_round();
    add_send(exchange, partner, work, odd ? first_half : second_half);
    add_receive_reduce(exchange, partner, work, odd ? second_half : first_half,
                       odd ? Operand::incoming_left : Operand::incoming_right);
    const bool swapped = pair == odd_survivor_pair;
    const BlockSet handed_over = swapped ? first_half : second_half;
    Round& hand_over = schedule.add_round();
    if (odd != swapped) {
      add_send(hand_over, partner, work, handed_over);
      return halving;
    }
    add_receive(hand_over, partner, work, handed_over);
    halving.new_rank = pair;
  } else {
    halving.new_rank = local - halving.extra;
  }

  halving.lo = 0;
  halving.hi = parts;
  for (int mask = 1; mask < halving.p2; mask <<= 1) {
    // Distance doubling: the lower survivor keeps the lower half; partial sums always cover an
    // aligned run of survivors, i.e. a contiguous run of ranks.
    const int partner = halving.real(halving.new_rank ^ mask);
    const std::uint32_t mid = (halving.lo + halving.hi) / 2;
    const bool lower = (halving.new_rank & mask) == 0;
    Round& step = schedule.add_round();
    add_send(step, partner, work, lower ? blocks(mid, halving.hi) : blocks(halving.lo, mid));
    add_receive_reduce(step, partner, work, lower ? blocks(halving.lo, mid) : blocks(mid, halving.hi),
                       lower ? Operand::incoming_right : Operand::incoming_left);
    (lower ? halving.hi : halving.lo) = mid;
  }
  return halving;
}

void append_pairwise_reduce_scatter(Schedule& schedule, int p, int rank,
                                    const std::function<BlockSet(int)>& chunk, BlockSet result,
                                    BlockSet spare) {
  // Lower ranks arrive r - 1, r - 2, ..., 0: result = incoming ⊕ result. Higher ranks arrive
  // p - 1, p - 2, ..., r + 1 and collect in `spare` the same way.
  for (int i = 1; i < p; ++i) {
    const int to = modulo(rank + i, p);
    const int from = modulo(rank - i, p);
    Round& round = schedule.add_round();
    add_send(round, to, Buffer::input, chunk(to));
    if (from < rank) {
      add_receive_reduce(round, from, Buffer::output, result, Operand::incoming_left);
    } else if (from == p - 1) {
      add_receive(round, from, Buffer::scratch, spare);
    } else {
      add_receive_reduce(round, from, Buffer::scratch, spare, Operand::incoming_left);
    }
  }
  if (rank < p - 1 && !result.empty()) {
    schedule.add_round().actions.push_back(
        Action::reduce(Buffer::scratch, spare, Buffer::output, result, Operand::incoming_right));
  }
}

std::vector<std::uint32_t> even_bounds(std::uint32_t n, std::uint32_t k) {
  std::vector<std::uint32_t> bounds(k + 1);
  for (std::uint32_t q = 0; q <= k; ++q) {
    bounds[q] = static_cast<std::uint32_t>(std::uint64_t{q} * n / k);
  }
  return bounds;
}

std::uint32_t bit_reverse(std::uint32_t x, int bits) noexcept {
  std::uint32_t result = 0;
  for (int b = 0; b < bits; ++b) {
    result = result << 1 | (x >> b & 1u);
  }
  return result;
}

void add_send(Round& round, int peer, Buffer buffer, BlockSet blocks) {
  if (!blocks.empty()) {
    round.actions.push_back(Action::send_to(peer, buffer, blocks));
  }
}

void add_receive(Round& round, int peer, Buffer buffer, BlockSet blocks) {
  if (!blocks.empty()) {
    round.actions.push_back(Action::receive_from(peer, buffer, blocks));
  }
}

void add_receive_reduce(Round& round, int peer, Buffer buffer, BlockSet blocks, Operand side) {
  if (!blocks.empty()) {
    round.actions.push_back(Action::receive_reduce_from(peer, buffer, blocks, side));
  }
}

void add_copy(Round& round, Buffer from, BlockSet from_blocks, Buffer into, BlockSet into_blocks) {
  if (!into_blocks.empty()) {
    round.actions.push_back(Action::copy(from, from_blocks, into, into_blocks));
  }
}

Schedule without_empty_rounds(Schedule schedule) {
  // A dropped round's fence moves to the next round kept: its barrier still has to hold there.
  bool pending_fence = false;
  for (Round& round : schedule.rounds) {
    if (round.actions.empty()) {
      pending_fence = pending_fence || round.fence;
    } else {
      round.fence = round.fence || pending_fence;
      pending_fence = false;
    }
  }
  std::erase_if(schedule.rounds, [](const Round& round) { return round.actions.empty(); });
  return schedule;
}

}  // namespace detail

using namespace detail;

Schedule reduce_scatter_ring(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "ring";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  auto chunk = [&](int q) { return BlockSet::range(static_cast<std::uint32_t>(modulo(q, p)) * s, s); };
  const BlockSet own = BlockSet::range(0, s);
  Round& setup = schedule.add_round();
  add_copy(setup, Buffer::input, chunk(rank), Buffer::output, own);
  if (p == 1) {
    return without_empty_rounds(std::move(schedule));
  }
  // Round k combines chunk rank - k - 2 into D(k): one of three scratch slots (sent in round
  // k + 1, refilled from the input in round k + 2 for round k + 3), the output in the last round.
  const int last = p - 2;
  auto destination = [&](int k) {
    return k == last ? own : BlockSet::range(static_cast<std::uint32_t>(k % 3) * s, s);
  };
  auto buffer_of = [&](int k) { return k == last ? Buffer::output : Buffer::scratch; };
  schedule.scratch_blocks = static_cast<std::uint32_t>(std::min(3, p - 2)) * s;
  if (last > 0) {
    add_copy(setup, Buffer::input, chunk(rank - 2), Buffer::scratch, destination(0));
  }
  for (int k = 0; k <= last; ++k) {
    Round& round = schedule.add_round();
    if (k == 0) {
      add_send(round, modulo(rank + 1, p), Buffer::input, chunk(rank - 1));
    } else {
      add_send(round, modulo(rank + 1, p), buffer_of(k - 1), destination(k - 1));
    }
    add_receive_reduce(round, modulo(rank - 1, p), buffer_of(k), destination(k), Operand::incoming_left);
    if (k + 1 < last) {
      add_copy(round, Buffer::input, chunk(rank - k - 3), Buffer::scratch, destination(k + 1));
    }
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_scatter_pairwise(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "pairwise";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  auto chunk = [&](int q) { return BlockSet::range(static_cast<std::uint32_t>(q) * s, s); };
  const BlockSet own = BlockSet::range(0, s);
  add_copy(schedule.add_round(), Buffer::input, chunk(rank), Buffer::output, own);
  append_pairwise_reduce_scatter(schedule, p, rank, chunk, own, own);
  schedule.scratch_blocks = rank < p - 1 ? s : 0;
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_scatter_recursive_halving(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "recursive_halving";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const int p2 = static_cast<int>(floor_pow2(static_cast<std::uint32_t>(p)));
  const int extra = p - p2;
  const int bits = floor_log2(static_cast<std::uint32_t>(p2));
  // Survivor j stands for chunks first_chunk(j) .. + chunks(j) - 1; part q of the scratch vector
  // holds those of survivor bitrev(q), the part that survivor ends with.
  auto first_chunk = [&](int j) { return static_cast<std::uint32_t>(j < extra ? 2 * j : j + extra); };
  auto chunks = [&](int j) { return j < extra ? 2u : 1u; };
  std::vector<std::uint32_t> bounds(static_cast<std::size_t>(p2) + 1, 0);
  for (std::uint32_t q = 0; q < static_cast<std::uint32_t>(p2); ++q) {
    bounds[q + 1] = bounds[q] + chunks(static_cast<int>(bit_reverse(q, bits))) * s;
  }
  Round& layout = schedule.add_round();
  for (int j = 0; j < p2; ++j) {
    const std::uint32_t q = bit_reverse(static_cast<std::uint32_t>(j), bits);
    add_copy(layout, Buffer::input, BlockSet::range(first_chunk(j) * s, chunks(j) * s), Buffer::scratch,
             BlockSet::range(bounds[q], chunks(j) * s));
  }
  schedule.scratch_blocks = static_cast<std::uint32_t>(p) * s;

  const Halving halving = append_recursive_halving(schedule, 0, p, rank, Buffer::scratch, bounds);
  const BlockSet own = BlockSet::range(0, s);
  Round& last = schedule.add_round();
  if (halving.folded_away()) {
    add_receive(last, rank - 1, Buffer::output, own);
    return without_empty_rounds(std::move(schedule));
  }
  const std::uint32_t held = bounds[halving.lo];
  add_copy(last, Buffer::scratch, BlockSet::range(held, s), Buffer::output, own);
  if (rank < 2 * extra) {
    add_send(last, rank + 1, Buffer::scratch, BlockSet::range(held + s, s));
  }
  return without_empty_rounds(std::move(schedule));
}

}  // namespace dash::comm::schedule
