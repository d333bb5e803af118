// The closed forms of comm/selection/algorithm_costs.hpp. Where a schedule header or
// comm/test/schedule_*_test.cpp states a form, it is the same one; the others were derived from
// the generators and are proven against the verifier by comm/test/cost_model_test.cpp.
//
// Map: Group and the helpers (segments, parts, scratch predicates, heap_tree_startups); the terms of
// each operation's algorithms in the order of docs/collectives.md's table: allreduce, allgather,
// reduce-scatter, alltoall, broadcast, reduce/gather/scatter, scan/exscan/barrier/neighbourhood
// exchange, then the shared-memory algorithms; at the end the AlgorithmCost records that
// algorithm_costs.hpp declares.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <dash/comm/schedule/rank_math.hpp>

#include "selection/algorithm_costs.hpp"

namespace dash::comm::detail {

namespace {

struct Group {
  explicit Group(int size)
      : p(size),
        p2(static_cast<int>(schedule::floor_pow2(static_cast<std::uint32_t>(size)))),
        r(size - p2),
        lg(schedule::floor_log2(static_cast<std::uint32_t>(size))),
        ceil_lg(schedule::ceil_log2(static_cast<std::uint32_t>(size))) {}
  bool power_of_two() const noexcept { return r == 0; }

  double p;
  double p2;  // p'
  double r;
  double lg;  // lg p'
  double ceil_lg;
};

double segments(const CostShape& shape) { return shape.segments; }

// S rounded up to a multiple of `parts`.
double whole_parts(const CostShape& shape, std::uint32_t parts) {
  return static_cast<double>((std::uint64_t{shape.segments} + parts - 1) / parts * parts);
}

std::uint32_t one_part(int) { return 1; }
std::uint32_t p_parts(int size) { return static_cast<std::uint32_t>(size); }
std::uint32_t p2_parts(int size) { return schedule::floor_pow2(static_cast<std::uint32_t>(size)); }

bool never(const CostShape&) { return false; }
bool always(const CostShape&) { return true; }
bool from_two_ranks(const CostShape& shape) { return shape.size >= 2; }
bool from_three_ranks(const CostShape& shape) { return shape.size >= 3; }
bool from_four_ranks(const CostShape& shape) { return shape.size >= 4; }

// T_k(p): the critical path of a k-ary heap tree whose nodes serve their children one after the
// other, the largest sum of child positions on a root-to-node path (Kowalewski 2021 Eq. 4.1). Level
// d is complete up to the level of rank p - 1, where only the first nodes exist.
double heap_tree_startups(int p, int k) {
  if (p <= 1) {
    return 0;
  }
  std::int64_t first = 0;  // the first relative rank of level `depth`
  std::int64_t width = 1;
  int depth = 0;
  while (first + width <= p - 1) {
    first += width;
    width *= k;
    ++depth;
  }
  // The complete level above: k children positions all the way down.
  int best = k * (depth - 1);
  // On the last level a node's positions are the base-k digits of its index, plus one each; the
  // largest digit sum up to index `last` keeps a prefix of its digits, lowers the next one and
  // fills the rest with k - 1.
  const std::int64_t last = p - 1 - first;
  int prefix = 0;
  std::int64_t place = width / k;  // k^(depth - 1): the most significant digit's
  for (int i = 0; i < depth; ++i, place /= k) {
    const auto digit = static_cast<int>(last / place % k);
    if (digit > 0) {
      best = std::max(best, depth + prefix + digit - 1 + (k - 1) * (depth - 1 - i));
    }
    prefix += digit;
  }
  return std::max(best, depth + prefix);
}

// ---------------------------------------------------------------------------------------------
// Allreduce (allreduce.hpp; Rabenseifner 2004)

CostTerms allreduce_recursive_doubling_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  const double fold = g.power_of_two() ? 0 : 1;
  return {g.lg + 2 * fold, (g.lg + 2 * fold) * s, (g.lg + fold) * s, s};
}

CostTerms allreduce_rabenseifner_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double n = whole_parts(shape, p2_parts(shape.size));
  const double s = segments(shape);
  if (g.power_of_two()) {
    return {2 * g.lg, 2 * (1 - 1 / g.p) * n, (1 - 1 / g.p) * n, s};
  }
  return {2 * g.lg + 3, (4 - 2 / g.p2) * n, (1.5 - 1 / g.p2) * n, s};
}

// Binary blocks (Rabenseifner 2004 §3.6): every block of 2^e ranks halves on its own, then pieces
// cascade from the smallest block up and back down, one message per round, each message starting
// when both its sender and its receiver reach it (the verifier's rule); the cascade makes ranks of
// one block finish at different times, so their clocks are followed one by one (O(p)). Every block
// then doubles back on its own from its latest rank.
CostTerms allreduce_binary_blocks_terms(const CostShape& shape) {
  struct Clock {
    double startups = 0;
    double blocks = 0;
    double reduced = 0;
  };
  auto later = [](const Clock& a, const Clock& b) {
    return Clock{std::max(a.startups, b.startups), std::max(a.blocks, b.blocks), std::max(a.reduced, b.reduced)};
  };
  const int p = shape.size;
  const double n = whole_parts(shape, p2_parts(p));
  std::vector<int> exponents;  // largest block first
  std::vector<int> offsets;
  for (int e = schedule::floor_log2(static_cast<std::uint32_t>(p)), offset = 0; e >= 0; --e) {
    if ((p >> e & 1) != 0) {
      exponents.push_back(e);
      offsets.push_back(offset);
      offset += 1 << e;
    }
  }
  auto halved = [&](int e) { return n * (1 - std::ldexp(1.0, -e)); };
  std::vector<Clock> clock(static_cast<std::size_t>(p));
  auto at = [&](int rank) -> Clock& { return clock[static_cast<std::size_t>(rank)]; };
  for (std::size_t k = 0; k < exponents.size(); ++k) {
    const int e = exponents[k];
    for (int i = 0; i < 1 << e; ++i) {
      at(offsets[k] + i) = Clock{static_cast<double>(e), halved(e), halved(e)};
    }
  }
  // Block k + 1's rank j exchanges with block k's ranks j + t 2^{e_{k+1}}, t < 2^{e_k - e_{k+1}},
  // in order of t, pieces of n / 2^{e_k} blocks.
  auto exchange = [&](std::size_t k, bool upwards) {
    const int e = exponents[k];
    const int smaller = exponents[k + 1];
    const double piece = std::ldexp(n, -e);
    for (int j = 0; j < 1 << smaller; ++j) {
      for (int t = 0; t < 1 << (e - smaller); ++t) {
        const int small_rank = offsets[k + 1] + j;
        const int large_rank = offsets[k] + j + (t << smaller);
        Clock arrival = later(at(small_rank), at(large_rank));
        arrival.startups += 1;
        arrival.blocks += piece;
        // Upwards the larger block's rank combines the piece into its own.
        at(small_rank) = arrival;
        at(large_rank) = upwards ? Clock{arrival.startups, arrival.blocks, arrival.reduced + piece} : arrival;
      }
    }
  };
  for (std::size_t k = exponents.size() - 1; k-- > 0;) {
    exchange(k, true);
  }
  for (std::size_t k = 0; k + 1 < exponents.size(); ++k) {
    exchange(k, false);
  }
  Clock end;
  for (std::size_t k = 0; k < exponents.size(); ++k) {
    const int e = exponents[k];
    Clock latest;
    for (int i = 0; i < 1 << e; ++i) {
      latest = later(latest, at(offsets[k] + i));
    }
    end = later(end, Clock{latest.startups + e, latest.blocks + halved(e), latest.reduced});
  }
  return {end.startups, end.blocks, end.reduced, segments(shape)};
}

// The largest of the p parts travels once round the ring combining and once more collecting:
// exact for every S.
CostTerms allreduce_ring_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double part = std::ceil(segments(shape) / g.p);
  return {2 * (g.p - 1), 2 * (g.p - 1) * part, (g.p - 1) * part, segments(shape)};
}

CostTerms allreduce_pairwise_ring_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double n = whole_parts(shape, p_parts(shape.size));
  // The higher ranks' partial sum is appended by one more combination of a part from p = 3 on.
  const double reduced = g.p >= 3 ? n : (g.p - 1) * n / g.p;
  return {2 * (g.p - 1), 2 * (g.p - 1) * n / g.p, reduced, std::ceil(segments(shape) / g.p)};
}

bool allreduce_pairwise_ring_uses_scratch(const CostShape& shape) {
  // Ranks below p - 1 hold the higher ranks' sum of parts 0 .. rank in scratch.
  return std::uint64_t{shape.segments} * static_cast<std::uint64_t>(shape.size - 1) >=
         static_cast<std::uint64_t>(shape.size);
}

// ---------------------------------------------------------------------------------------------
// Allgather (allgather.hpp): p - 1 contributions reach every rank.

CostTerms allgather_sparbit_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.ceil_lg, (g.p - 1) * s, 0, s};
}

CostTerms allgather_ring_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.p - 1, (g.p - 1) * s, 0, s};
}

CostTerms allgather_recursive_doubling_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  if (g.power_of_two()) {
    return {g.lg, (g.p - 1) * s, 0, s};
  }
  // An odd rank below 2r: its neighbour's block, the exchanges (virtual groups of w ranks hold
  // w + min(w, r) contributions), then p - 1 contributions back to the neighbour.
  double exchanged = 0;
  for (double width = 1; width < g.p2; width *= 2) {
    exchanged += width + std::min(width, g.r);
  }
  return {g.lg + 2, (1 + exchanged + g.p - 1) * s, 0, s};
}

CostTerms allgather_bruck_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  // Staged in scratch and rotated into place: p S more copied.
  return {g.ceil_lg, (g.p - 1) * s, 0, g.p > 1 ? (g.p + 1) * s : s};
}

CostTerms allgather_bruck_noncanonical_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.ceil_lg, (g.p - 1) * s, 0, s};
}

CostTerms allgather_neighbor_exchange_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {std::floor(g.p / 2), (g.p - 1) * s, 0, s};
}

// ---------------------------------------------------------------------------------------------
// Reduce-scatter (reduce_scatter.hpp): n = S blocks per rank's result.

CostTerms reduce_scatter_recursive_halving_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  // p chunks laid out in scratch, then the rank's own copied out.
  const double copied = (g.p + 1) * s;
  if (g.power_of_two()) {
    return {g.lg, (g.p - 1) * s, (g.p - 1) * s, copied};
  }
  // Rabenseifner 2004 §3.5's halving over p S blocks: the pre-step moves p S and combines the
  // larger half, (p'/2 + ⌈r/2⌉) S; the step at distance m moves and combines the chunks of p'/2m
  // survivors, ⌈r/2m⌉ of them paired; the last message carries S.
  double paired = 0;
  for (double m = 1; m < g.p2; m *= 2) {
    paired += std::ceil(g.r / (2 * m));
  }
  const double half = g.p2 / 2 + std::ceil(g.r / 2);
  return {g.lg + 3, (g.p + g.p2 + paired) * s, (half + g.p2 - 1 + paired) * s, copied};
}

CostTerms reduce_scatter_pairwise_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  // The higher ranks' sum, collected in scratch, is appended by one more combination from p = 3.
  return {g.p - 1, (g.p - 1) * s, (g.p >= 3 ? g.p : g.p - 1) * s, s};
}

CostTerms reduce_scatter_ring_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  // Every chunk the rank combines into is copied from the input first.
  return {g.p - 1, (g.p - 1) * s, (g.p - 1) * s, std::max(1.0, g.p - 1) * s};
}

// ---------------------------------------------------------------------------------------------
// Alltoall (alltoall.hpp): S blocks per pair of ranks.

CostTerms alltoall_direct_terms(double steps, const CostShape& shape) {
  const double s = segments(shape);
  return {steps, steps * s, 0, s};
}

CostTerms alltoall_pairwise_terms(const CostShape& shape) { return alltoall_direct_terms(shape.size - 1, shape); }

CostTerms alltoall_hypercube_xor_terms(const CostShape& shape) {
  return alltoall_direct_terms(shape.size - 1, shape);
}

// Every message in one round: their start-ups overlap, their p - 1 sends queue one behind another.
CostTerms alltoall_linear_terms(const CostShape& shape) {
  CostTerms terms = alltoall_direct_terms(shape.size > 1 ? 1 : 0, shape);
  terms.queued_sends = std::max(0, shape.size - 2);
  return terms;
}

// A perfect matching per round: p rounds for odd p (each rank idles in one), p - 1 for even p.
CostTerms alltoall_one_factor_terms(const CostShape& shape) {
  const int p = shape.size;
  return alltoall_direct_terms(p == 1 ? 0 : (p % 2 == 1 ? p : p - 1), shape);
}

// Bruck: round j sends the slots with bit j set, all ranks alike; the slots staying put are
// copied to the next round's buffer, after a rotation in and (canonical variant) one out.
CostTerms alltoall_bruck_terms(const CostShape& shape, bool canonical) {
  const int p = shape.size;
  const double s = segments(shape);
  if (p == 1) {
    return {0, 0, 0, s};
  }
  const int steps = schedule::ceil_log2(static_cast<std::uint32_t>(p));
  double moved = 0;
  for (int j = 0; j < steps; ++j) {
    const int period = 2 << j;
    moved += (p / period) * (period / 2) + std::max(0, p % period - period / 2);
  }
  const double slots = p;
  const double copied = slots + (steps * slots - moved) + (canonical ? slots : 0);
  return {static_cast<double>(steps), moved * s, 0, copied * s};
}

CostTerms alltoall_bruck_canonical_terms(const CostShape& shape) { return alltoall_bruck_terms(shape, true); }
CostTerms alltoall_bruck_noncanonical_terms(const CostShape& shape) { return alltoall_bruck_terms(shape, false); }

// ---------------------------------------------------------------------------------------------
// Broadcast (bcast.hpp): the whole message per edge unless said otherwise; nothing copied.

CostTerms bcast_binomial_terms(const CostShape& shape) {
  const Group g(shape.size);
  return {g.ceil_lg, g.ceil_lg * segments(shape), 0, 0};
}

CostTerms bcast_scatter_allgather_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double n = whole_parts(shape, p_parts(shape.size));
  return {g.ceil_lg + g.p - 1, 2 * (g.p - 1) * n / g.p, 0, 0};
}

// One block per message: p + S - 2 (Kowalewski 2021 Eq. 4.5).
CostTerms bcast_pipelined_chain_terms(const CostShape& shape) {
  const double path = shape.size > 1 ? shape.size + segments(shape) - 2 : 0;
  return {path, path, 0, 0};
}

// One block per message, each node sending to two children per block: T_2(p) + 2(S - 1) for
// p > 2 (Kowalewski 2021 Eq. 4.6); a single child takes one round per block.
CostTerms bcast_pipelined_binary_tree_terms(const CostShape& shape) {
  const double s = segments(shape);
  const double path = shape.size > 2 ? heap_tree_startups(shape.size, 2) + 2 * (s - 1) : (shape.size == 2 ? s : 0);
  return {path, path, 0, 0};
}

CostTerms bcast_kary_tree_terms(const CostShape& shape) {
  const double depth = heap_tree_startups(shape.size, 4);
  return {depth, depth * segments(shape), 0, 0};
}

// ---------------------------------------------------------------------------------------------
// Reduce (reduce.hpp), gather (gather.hpp), scatter (scatter.hpp)

CostTerms reduce_binomial_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.ceil_lg, g.ceil_lg * s, g.ceil_lg * s, s};
}

// d = ⌈log_k p⌉ levels; the critical path combines, per level, the children of a node of the
// widest piece: k - 1 below the top, ⌈p / k^(d-1)⌉ - 1 at the top.
CostTerms reduce_knomial_terms(const CostShape& shape, int k) {
  const double s = segments(shape);
  if (shape.size <= 1) {
    return {0, 0, 0, s};
  }
  std::int64_t width = 1;  // k^(d-1)
  double levels = 0;       // d - 1
  while (width * k < shape.size) {
    width *= k;
    ++levels;
  }
  const double top = static_cast<double>((shape.size + width - 1) / width) - 1;
  const double combined = top + levels * (k - 1);
  return {levels + 1, (levels + 1) * s, combined * s, s};
}

CostTerms reduce_knomial_4_terms(const CostShape& shape) { return reduce_knomial_terms(shape, 4); }
CostTerms reduce_knomial_8_terms(const CostShape& shape) { return reduce_knomial_terms(shape, 8); }

CostTerms reduce_rabenseifner_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double n = whole_parts(shape, p2_parts(shape.size));
  const double s = segments(shape);
  if (g.power_of_two()) {
    return {2 * g.lg, 2 * (1 - 1 / g.p) * n, (1 - 1 / g.p) * n, s};
  }
  return {2 * g.lg + 2, (3 - 2 / g.p2) * n, (1.5 - 1 / g.p2) * n, s};
}

CostTerms rooted_binomial_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.ceil_lg, (g.p - 1) * s, 0, s};
}

CostTerms rooted_linear_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.p - 1, (g.p - 1) * s, 0, s};
}

// ---------------------------------------------------------------------------------------------
// Scan, exscan (scan.hpp), barrier (barrier.hpp), neighbourhood exchange

CostTerms scan_recursive_doubling_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.ceil_lg, g.ceil_lg * s, g.ceil_lg * s, s};
}

CostTerms scan_linear_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.p - 1, (g.p - 1) * s, (g.p - 1) * s, s};
}

// Below four ranks the last rank's prefix needs one combination fewer; from four on, ranks that
// forward again keep a combined copy of their prefix.
CostTerms exscan_recursive_doubling_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  const double reduced = g.p >= 4 ? g.ceil_lg : std::max(0.0, g.ceil_lg - 1);
  return {g.ceil_lg, g.ceil_lg * s, reduced * s, g.p >= 4 ? s : 0};
}

CostTerms exscan_linear_terms(const CostShape& shape) {
  const Group g(shape.size);
  const double s = segments(shape);
  return {g.p - 1, (g.p - 1) * s, std::max(0.0, g.p - 2) * s, g.p >= 3 ? s : 0};
}

// One token block whatever S; each round after the first snapshots the token.
CostTerms barrier_dissemination_terms(const CostShape& shape) {
  const Group g(shape.size);
  return {g.ceil_lg, g.ceil_lg, g.ceil_lg, std::max(1.0, g.ceil_lg)};
}

// One round: any grid of more than one rank has a neighbour in some dimension. A periodic
// dimension of size 1 makes a rank its own neighbour twice: two slots copied.
CostTerms neighbor_alltoall_direct_terms(const CostShape& shape) {
  const double s = segments(shape);
  double self_slots = 0;
  if (shape.grid != nullptr) {
    for (int d = 0; d < shape.grid->ndims(); ++d) {
      const auto i = static_cast<std::size_t>(d);
      self_slots += shape.grid->dims()[i] == 1 && shape.grid->periodic()[i] ? 2 : 0;
    }
  }
  const double rounds = shape.size > 1 ? 1 : 0;
  CostTerms terms{rounds, rounds * s, 0, self_slots * s};
  // One round sends to every neighbour slot: an inner rank of a dimension has two neighbours
  // (one rank in both slots of a periodic dimension of 2), a non-periodic one of 2 ranks one.
  if (shape.grid != nullptr) {
    double sends = 0;
    for (int d = 0; d < shape.grid->ndims(); ++d) {
      const auto i = static_cast<std::size_t>(d);
      const int extent = shape.grid->dims()[i];
      sends += extent == 1 ? 0 : extent == 2 && !shape.grid->periodic()[i] ? 1 : 2;
    }
    terms.queued_sends = std::max(0.0, sends - 1);
  }
  return terms;
}

// The shared-memory algorithms (shared_memory_run.hpp) send no messages. Each chunk a process
// takes from another's slot counts as a block sent (beta: beta was calibrated on shared-memory
// transfers, and the slot's writer stages it into a cache-sized slot the reader takes it from);
// combining counts as usual; each phase that waits for the others costs a counter hand-off, priced
// at half a message start-up (measured against the ring over messages: docs/collectives.md, end of
// "Shared-memory collectives"). Blocks are the chunks one slot holds.
double handoffs(const CostShape& shape, double phases) { return shape.size > 1 ? 0.5 * phases : 0; }

// Takes the k-1 pieces it combines and the k-1 combined pieces of the others: two waits.
CostTerms allreduce_shared_memory_terms(const CostShape& shape) {
  const double s = segments(shape);
  const double k = shape.size;
  return {handoffs(shape, 2), 2 * s * (k - 1) / k, s * (k - 1) / k, 0};
}

// Takes the k-1 others' whole chunks and combines them: one wait, k-1 combinations.
CostTerms allreduce_shared_memory_replicated_terms(const CostShape& shape) {
  const double s = segments(shape);
  const double k = shape.size;
  return {handoffs(shape, 1), s * (k - 1), s * (k - 1), 0};
}

// Stages its k-1 blocks for the others, takes its block from each of their slots and copies its
// own. The staging copy stays in cache (slots of 256 KiB), so only the copies to the output are
// priced, as for allgather: the arena led the message schedules at every size measured
// (docs/collectives.md, end of "Shared-memory collectives").
CostTerms alltoall_shared_memory_terms(const CostShape& shape) {
  const double s = segments(shape);
  return {handoffs(shape, 1), s * (shape.size - 1), 0, s};
}

CostTerms reduce_scatter_shared_memory_terms(const CostShape& shape) {
  const double s = segments(shape);
  const double k = shape.size;
  return {handoffs(shape, 1), s * (k - 1), s * (k - 1), 0};
}

// Takes the k-1 others' chunks and copies its own into its output.
CostTerms allgather_shared_memory_terms(const CostShape& shape) {
  const double s = segments(shape);
  return {handoffs(shape, 1), s * (shape.size - 1), 0, s};
}

CostTerms bcast_shared_memory_terms(const CostShape& shape) {
  return {handoffs(shape, 1), shape.size > 1 ? segments(shape) : 0, 0, 0};
}

}  // namespace

const AlgorithmCost network_priced_cost{nullptr, always, one_part};
const AlgorithmCost allreduce_shared_memory_cost{allreduce_shared_memory_terms, never, one_part};
const AlgorithmCost allreduce_shared_memory_replicated_cost{allreduce_shared_memory_replicated_terms, never,
                                                          one_part};
const AlgorithmCost alltoall_shared_memory_cost{alltoall_shared_memory_terms, never, one_part};
const AlgorithmCost reduce_scatter_shared_memory_cost{reduce_scatter_shared_memory_terms, never, one_part};
const AlgorithmCost allgather_shared_memory_cost{allgather_shared_memory_terms, never, one_part};
const AlgorithmCost bcast_shared_memory_cost{bcast_shared_memory_terms, never, one_part};
const AlgorithmCost allreduce_recursive_doubling_cost{allreduce_recursive_doubling_terms, from_two_ranks, one_part};
const AlgorithmCost allreduce_rabenseifner_cost{allreduce_rabenseifner_terms, never, p2_parts};
const AlgorithmCost allreduce_binary_blocks_cost{allreduce_binary_blocks_terms, never, p2_parts};
const AlgorithmCost allreduce_ring_cost{allreduce_ring_terms, never, one_part};
const AlgorithmCost allreduce_pairwise_ring_cost{allreduce_pairwise_ring_terms, allreduce_pairwise_ring_uses_scratch,
                                                 p_parts};
const AlgorithmCost allgather_sparbit_cost{allgather_sparbit_terms, never, one_part};
const AlgorithmCost allgather_ring_cost{allgather_ring_terms, never, one_part};
const AlgorithmCost allgather_recursive_doubling_cost{allgather_recursive_doubling_terms, never, one_part};
const AlgorithmCost allgather_bruck_cost{allgather_bruck_terms, from_two_ranks, one_part};
const AlgorithmCost allgather_bruck_noncanonical_cost{allgather_bruck_noncanonical_terms, never, one_part};
const AlgorithmCost allgather_neighbor_exchange_cost{allgather_neighbor_exchange_terms, never, one_part};
const AlgorithmCost reduce_scatter_recursive_halving_cost{reduce_scatter_recursive_halving_terms, always, one_part};
const AlgorithmCost reduce_scatter_pairwise_cost{reduce_scatter_pairwise_terms, from_two_ranks, one_part};
const AlgorithmCost reduce_scatter_ring_cost{reduce_scatter_ring_terms, from_three_ranks, one_part};
const AlgorithmCost alltoall_pairwise_cost{alltoall_pairwise_terms, never, one_part};
const AlgorithmCost alltoall_bruck_cost{alltoall_bruck_canonical_terms, from_two_ranks, one_part};
const AlgorithmCost alltoall_bruck_noncanonical_cost{alltoall_bruck_noncanonical_terms, from_two_ranks, one_part};
const AlgorithmCost alltoall_linear_cost{alltoall_linear_terms, never, one_part};
const AlgorithmCost alltoall_one_factor_cost{alltoall_one_factor_terms, never, one_part};
const AlgorithmCost alltoall_hypercube_xor_cost{alltoall_hypercube_xor_terms, never, one_part};
const AlgorithmCost bcast_binomial_cost{bcast_binomial_terms, never, one_part};
const AlgorithmCost bcast_scatter_allgather_cost{bcast_scatter_allgather_terms, never, p_parts};
const AlgorithmCost bcast_pipelined_chain_cost{bcast_pipelined_chain_terms, never, one_part};
const AlgorithmCost bcast_pipelined_binary_tree_cost{bcast_pipelined_binary_tree_terms, never, one_part};
const AlgorithmCost bcast_kary_tree_cost{bcast_kary_tree_terms, never, one_part};
const AlgorithmCost reduce_binomial_cost{reduce_binomial_terms, from_three_ranks, one_part};
const AlgorithmCost reduce_knomial_4_cost{reduce_knomial_4_terms, from_three_ranks, one_part};
const AlgorithmCost reduce_knomial_8_cost{reduce_knomial_8_terms, from_three_ranks, one_part};
const AlgorithmCost reduce_rabenseifner_cost{reduce_rabenseifner_terms, from_two_ranks, p2_parts};
const AlgorithmCost gather_binomial_cost{rooted_binomial_terms, from_four_ranks, one_part};
const AlgorithmCost gather_linear_cost{rooted_linear_terms, never, one_part};
const AlgorithmCost scatter_binomial_cost{rooted_binomial_terms, from_four_ranks, one_part};
const AlgorithmCost scatter_linear_cost{rooted_linear_terms, never, one_part};
const AlgorithmCost scan_recursive_doubling_cost{scan_recursive_doubling_terms, from_two_ranks, one_part};
const AlgorithmCost scan_linear_cost{scan_linear_terms, never, one_part};
const AlgorithmCost exscan_recursive_doubling_cost{exscan_recursive_doubling_terms, from_three_ranks, one_part};
const AlgorithmCost exscan_linear_cost{exscan_linear_terms, from_three_ranks, one_part};
const AlgorithmCost barrier_dissemination_cost{barrier_dissemination_terms, from_three_ranks, one_part};
const AlgorithmCost neighbor_alltoall_direct_cost{neighbor_alltoall_direct_terms, never, one_part};

}  // namespace dash::comm::detail
