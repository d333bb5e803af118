#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>

namespace dash::comm::schedule {

using namespace detail;

namespace {

// Recursive vector doubling with distance halving (Rabenseifner 2004 §3.5 step 2a) after
// append_recursive_halving: survivors trade what they hold with partners at distance p'/2, ...,
// 1 until each holds all p' parts.
void append_halving_allgather(Schedule& schedule, const Halving& halving, Buffer work,
                              const std::vector<std::uint32_t>& bounds) {
  auto blocks = [&](std::uint32_t lo, std::uint32_t hi) {
    return BlockSet::range(bounds[lo], bounds[hi] - bounds[lo]);
  };
  std::uint32_t lo = halving.lo;
  std::uint32_t hi = halving.hi;
  for (int mask = halving.p2 / 2; mask >= 1; mask >>= 1) {
    const int partner = halving.real(halving.new_rank ^ mask);
    const std::uint32_t size = hi - lo;
    const bool lower = (halving.new_rank & mask) == 0;
    const std::uint32_t partner_lo = lower ? hi : lo - size;
    Round& step = schedule.add_round();
    add_send(step, partner, work, blocks(lo, hi));
    add_receive(step, partner, work, blocks(partner_lo, partner_lo + size));
    lo = std::min(lo, partner_lo);
    hi = std::max(hi, partner_lo + size);
  }
}

}  // namespace

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
    // The first exchange of a rank that folded nothing in sends its input, which the output still
    // equals: the message leaves while the copy runs instead of after it.
    const bool send_input = mask == 1 && rank >= 2 * extra;
    Round& exchange = send_input ? schedule.rounds.front() : schedule.add_round();
    exchange.actions.push_back(Action::send_to(partner, send_input ? Buffer::input : Buffer::output, all));
    exchange.actions.push_back(Action::receive_from(partner, Buffer::scratch, all));
    schedule.add_round().actions.push_back(
        Action::reduce(Buffer::scratch, all, Buffer::output, all, side(partner)));
  }
  if (rank < 2 * extra) {
    schedule.add_round().actions.push_back(Action::send_to(rank - 1, Buffer::output, all));
  }
  return schedule;
}

Schedule allreduce_rabenseifner(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "rabenseifner";
  const BlockSet all = BlockSet::range(0, shape.segments);
  add_copy(schedule.add_round(), Buffer::input, all, Buffer::output, all);
  const int p2 = static_cast<int>(floor_pow2(static_cast<std::uint32_t>(shape.size)));
  const std::vector<std::uint32_t> bounds = even_bounds(shape.segments, static_cast<std::uint32_t>(p2));
  const Halving halving = append_recursive_halving(schedule, 0, shape.size, rank, Buffer::output, bounds);
  if (halving.folded_away()) {
    add_receive(schedule.add_round(), rank - 1, Buffer::output, all);
    return without_empty_rounds(std::move(schedule));
  }
  append_halving_allgather(schedule, halving, Buffer::output, bounds);
  if (rank < 2 * halving.extra) {
    add_send(schedule.add_round(), rank + 1, Buffer::output, all);
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule allreduce_binary_blocks(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binary_blocks";
  const auto p = static_cast<std::uint32_t>(shape.size);
  std::vector<int> exponents;  // e_1 > e_2 > ... > e_m
  std::vector<int> offsets;
  int offset = 0;
  for (int e = floor_log2(p); e >= 0; --e) {
    if ((p >> e & 1u) != 0) {
      exponents.push_back(e);
      offsets.push_back(offset);
      offset += 1 << e;
    }
  }
  const auto block_count = exponents.size();
  // The block holding `rank`: the last one starting at or before it (offsets[0] = 0).
  const auto k = static_cast<std::size_t>(std::upper_bound(offsets.begin(), offsets.end(), rank) - offsets.begin()) - 1;
  const int e = exponents[k];
  const int local = rank - offsets[k];
  // Fine parts: 2^{e_1} near-equal parts of the vector; a block of 2^e ranks works on coarse
  // parts of 2^{e_1 - e} fine ones, and its local rank i ends its halving with part bitrev_e(i).
  const int top = exponents.front();
  const std::vector<std::uint32_t> fine = even_bounds(shape.segments, 1u << top);
  auto coarse_bounds = [&](int level) {
    std::vector<std::uint32_t> bounds((std::size_t{1} << level) + 1);
    for (std::size_t q = 0; q < bounds.size(); ++q) {
      bounds[q] = fine[q << (top - level)];
    }
    return bounds;
  };
  auto piece = [&](int level, int owner) {  // the coarse part of level `level` held by local rank `owner`
    const std::uint32_t q = bit_reverse(static_cast<std::uint32_t>(owner), level);
    const std::uint32_t lo = fine[q << (top - level)];
    return BlockSet::range(lo, fine[(q + 1) << (top - level)] - lo);
  };

  const BlockSet all = BlockSet::range(0, shape.segments);
  add_copy(schedule.add_round(), Buffer::input, all, Buffer::output, all);
  const std::vector<std::uint32_t> bounds = coarse_bounds(e);
  const Halving halving =
      append_recursive_halving(schedule, offsets[k], 1 << e, rank, Buffer::output, bounds);

  // Cascade, smallest block to largest: the next smaller block's rank local mod 2^{e_{k+1}}
  // sends this rank its piece, which holds higher ranks.
  const bool has_smaller = k + 1 < block_count;
  if (has_smaller) {
    const int smaller = offsets[k + 1] + local % (1 << exponents[k + 1]);
    add_receive_reduce(schedule.add_round(), smaller, Buffer::output, piece(e, local),
                       Operand::incoming_right);
  }
  const int larger_e = k > 0 ? exponents[k - 1] : 0;
  const int ratio = k > 0 ? 1 << (larger_e - e) : 0;
  for (int t = 0; t < ratio; ++t) {
    const int target = local + t * (1 << e);
    add_send(schedule.add_round(), offsets[k - 1] + target, Buffer::output, piece(larger_e, target));
  }
  // Mirror cascade, largest block to smallest, with the fully reduced pieces.
  for (int t = 0; t < ratio; ++t) {
    const int source = local + t * (1 << e);
    add_receive(schedule.add_round(), offsets[k - 1] + source, Buffer::output, piece(larger_e, source));
  }
  if (has_smaller) {
    const int smaller = offsets[k + 1] + local % (1 << exponents[k + 1]);
    add_send(schedule.add_round(), smaller, Buffer::output, piece(e, local));
  }
  append_halving_allgather(schedule, halving, Buffer::output, bounds);
  return without_empty_rounds(std::move(schedule));
}

Schedule allreduce_ring(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "ring";
  const int p = shape.size;
  const std::vector<std::uint32_t> bounds = even_bounds(shape.segments, static_cast<std::uint32_t>(p));
  auto part = [&](int q) {
    const auto index = static_cast<std::size_t>(modulo(q, p));
    return BlockSet::range(bounds[index], bounds[index + 1] - bounds[index]);
  };
  const BlockSet all = BlockSet::range(0, shape.segments);
  add_copy(schedule.add_round(), Buffer::input, all, Buffer::output, all);
  const int right = modulo(rank + 1, p);
  const int left = modulo(rank - 1, p);
  // Round k: part rank - k - 1 leaves carrying ranks rank - k .. rank; after p - 1 rounds part
  // rank is complete here.
  for (int k = 0; k + 1 < p; ++k) {
    Round& round = schedule.add_round();
    add_send(round, right, Buffer::output, part(rank - k - 1));
    add_receive_reduce(round, left, Buffer::output, part(rank - k - 2), Operand::incoming_left);
  }
  for (int k = 0; k + 1 < p; ++k) {
    Round& round = schedule.add_round();
    add_send(round, right, Buffer::output, part(rank - k));
    add_receive(round, left, Buffer::output, part(rank - k - 1));
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule allreduce_pairwise_ring(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "pairwise_ring";
  const int p = shape.size;
  const std::vector<std::uint32_t> bounds = even_bounds(shape.segments, static_cast<std::uint32_t>(p));
  auto part = [&](int q) {
    const auto index = static_cast<std::size_t>(modulo(q, p));
    return BlockSet::range(bounds[index], bounds[index + 1] - bounds[index]);
  };
  add_copy(schedule.add_round(), Buffer::input, part(rank), Buffer::output, part(rank));
  append_pairwise_reduce_scatter(schedule, p, rank, part, part(rank), part(rank));
  if (rank < p - 1) {
    schedule.scratch_blocks = bounds[static_cast<std::size_t>(rank) + 1];
  }
  const int right = modulo(rank + 1, p);
  const int left = modulo(rank - 1, p);
  for (int k = 0; k + 1 < p; ++k) {
    Round& round = schedule.add_round();
    add_send(round, right, Buffer::output, part(rank - k));
    add_receive(round, left, Buffer::output, part(rank - k - 1));
  }
  return without_empty_rounds(std::move(schedule));
}

}  // namespace dash::comm::schedule
