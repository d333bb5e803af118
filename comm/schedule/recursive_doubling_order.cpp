// Reordered recursive doubling (include/dash/comm/schedule/recursive_doubling_order.hpp; Sack 2011
// §3.4).
//
// Map: argument checks (group_bits, check_order, check_generator) and the unchecked remaps; the
// building blocks append_halving and append_doubling over block positions, the rooted checks, even
// parts and tree_role (the binomial tree along an order); then the public orders (distance doubling,
// distance halving, torus_order), remap and remap_inverse, and the generators: allgather,
// reduce_scatter, allreduce, bcast (scatter + allgather) and reduce (reduce-scatter + gather).

#include <dash/comm/schedule/recursive_doubling_order.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>

namespace dash::comm::schedule {

using namespace detail;

namespace {

constexpr const char* prefix = "dash::comm::schedule::";

// The largest group size served: ranks stay ints.
constexpr int max_bits = 30;

// lg p for a power of two p in [1, 2^30]; dash::InvalidArgument naming `function` and `argument`.
int group_bits(const std::string& function, const char* argument, int p) {
  if (p < 1 || p > (1 << max_bits) || !std::has_single_bit(static_cast<unsigned>(p))) {
    throw invalid_argument(function, argument, p,
                           "a power of two in [1, 2^30] (ranks are paired by their bits)");
  }
  return std::countr_zero(static_cast<unsigned>(p));
}

std::string describe(std::span<const int> order) {
  std::string text = "{";
  for (std::size_t s = 0; s < order.size(); ++s) {
    text += (s == 0 ? "" : ", ") + std::to_string(order[s]);
  }
  return text + "}";
}

// The order must name each of the `bits` bit indices once.
void check_order(const std::string& function, std::span<const int> order, int bits) {
  std::vector<bool> seen(static_cast<std::size_t>(bits), false);
  bool valid = order.size() == seen.size();
  for (std::size_t s = 0; valid && s < order.size(); ++s) {
    valid = order[s] >= 0 && order[s] < bits && !seen[static_cast<std::size_t>(order[s])];
    if (valid) {
      seen[static_cast<std::size_t>(order[s])] = true;
    }
  }
  if (!valid) {
    throw invalid_argument(function, "order", describe(order),
                           "a permutation of the " + std::to_string(bits) + " bit indices 0 .. lg P - 1 = " +
                               std::to_string(bits - 1) + " (one stage per bit)");
  }
}

// Checks a generator's arguments; returns lg P.
int check_generator(const char* name, const CollectiveShape& shape, std::span<const int> order, bool combines) {
  const std::string function = std::string(prefix) + name;
  const int bits = group_bits(function, "shape.size", shape.size);
  check_order(function, order, bits);
  if (combines && !shape.op.commutative) {
    throw invalid_argument(function, "shape.op.commutative", "false",
                           "a commutative operation (the schedule combines contributions out of rank order)");
  }
  return bits;
}

int remap_unchecked(std::span<const int> order, int rank) {
  int result = 0;
  for (std::size_t r = 0; r < order.size(); ++r) {
    result |= (rank >> order[r] & 1) << r;
  }
  return result;
}

int remap_inverse_unchecked(std::span<const int> order, int rank) {
  int result = 0;
  for (std::size_t r = 0; r < order.size(); ++r) {
    result |= (rank >> r & 1) << order[r];
  }
  return result;
}

// The blocks of `count` consecutive positions (contributions or parts) from `first`.
using Positions = std::function<BlockSet(std::uint32_t first, std::uint32_t count)>;

Operand side_of(int partner, int rank) { return partner < rank ? Operand::incoming_left : Operand::incoming_right; }

// Recursive halving in stage order S[L-1], ..., S[0] over `work`, whose positions the input
// shares: before stage s the rank holds the 2^{s+1} positions agreeing with R(S, rank) in bits
// above s, keeps the half its bit s selects and ends with position R(S, rank) combined over all
// ranks. The first stage sends straight from the input, so a setup round copies only the half
// that rank keeps.
void append_halving(Schedule& schedule, int rank, std::span<const int> order, Buffer work,
                    const Positions& positions) {
  const auto position = static_cast<std::uint32_t>(remap_unchecked(order, rank));
  const int bits = static_cast<int>(order.size());
  Round& setup = schedule.add_round();
  if (bits == 0) {
    add_copy(setup, Buffer::input, positions(0, 1), work, positions(0, 1));
  }
  for (int s = bits - 1; s >= 0; --s) {
    const std::uint32_t half = 1u << s;
    const std::uint32_t kept = (position & ~(2 * half - 1)) | (position & half);
    const int partner = rank ^ (1 << order[static_cast<std::size_t>(s)]);
    const bool first = s == bits - 1;
    if (first) {
      add_copy(setup, Buffer::input, positions(kept, half), work, positions(kept, half));
    }
    Round& stage = schedule.add_round();
    add_send(stage, partner, first ? Buffer::input : work, positions(kept ^ half, half));
    add_receive_reduce(stage, partner, work, positions(kept, half), side_of(partner, rank));
  }
}

// Recursive doubling in stage order S[0], ..., S[L-1] over `work`, starting from position
// R(S, rank): before stage s the rank holds the 2^s positions agreeing with it in bits s and up,
// the partner the neighbouring 2^s.
void append_doubling(Schedule& schedule, int rank, std::span<const int> order, Buffer work,
                     const Positions& positions) {
  const auto position = static_cast<std::uint32_t>(remap_unchecked(order, rank));
  for (std::size_t s = 0; s < order.size(); ++s) {
    const std::uint32_t width = 1u << s;
    const std::uint32_t held = position & ~(width - 1);
    const int partner = rank ^ (1 << order[s]);
    Round& stage = schedule.add_round();
    add_send(stage, partner, work, positions(held, width));
    add_receive(stage, partner, work, positions(held ^ width, width));
  }
}

Positions contributions(std::uint32_t segments) {
  return [segments](std::uint32_t first, std::uint32_t count) {
    return BlockSet::range(first * segments, count * segments);
  };
}

// Checks a rooted generator's arguments; returns lg P.
int check_rooted_generator(const char* name, const CollectiveShape& shape, std::span<const int> order,
                           bool combines) {
  const int bits = check_generator(name, shape, order, combines);
  if (shape.root < 0 || shape.root >= shape.size) {
    throw out_of_range(std::string(prefix) + name, "shape.root", shape.root,
                       "a rank in [0, " + std::to_string(shape.size) + ")");
  }
  return bits;
}

// P near-equal parts of the shape's S blocks.
Positions even_parts(const CollectiveShape& shape) {
  return [bounds = even_bounds(shape.segments, static_cast<std::uint32_t>(shape.size))](std::uint32_t first,
                                                                                       std::uint32_t count) {
    return BlockSet::range(bounds[first], bounds[first + count] - bounds[first]);
  };
}

// A rank's part in stage s of the binomial tree along order S rooted where `relative` (rank XOR
// root) is 0: a holder differs from the root only in bits S[s + 1], ..., a leaf in bit S[s] and
// those; the others sit the stage out.
enum class TreeRole { holder, leaf, idle };

TreeRole tree_role(std::span<const int> order, int s, int relative) {
  int below = 0;  // the bits S[0], ..., S[s]
  for (int t = 0; t <= s; ++t) {
    below |= 1 << order[static_cast<std::size_t>(t)];
  }
  if ((relative & below) == 0) {
    return TreeRole::holder;
  }
  return (relative & below) == 1 << order[static_cast<std::size_t>(s)] ? TreeRole::leaf : TreeRole::idle;
}

}  // namespace

std::vector<int> distance_doubling_order(int p) {
  std::vector<int> order(static_cast<std::size_t>(group_bits(std::string(prefix) + "distance_doubling_order", "p", p)));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

std::vector<int> distance_halving_order(int p) {
  std::vector<int> order(static_cast<std::size_t>(group_bits(std::string(prefix) + "distance_halving_order", "p", p)));
  std::iota(order.rbegin(), order.rend(), 0);
  return order;
}

std::vector<int> torus_order(std::span<const int> dims) {
  const std::string function = std::string(prefix) + "torus_order";
  const std::size_t n = dims.size();
  std::vector<int> bits(n);
  std::vector<int> lowest_bit(n);
  int total = 0;
  for (std::size_t k = n; k-- > 0;) {
    bits[k] = group_bits(function, ("dims[" + std::to_string(k) + "]").c_str(), dims[k]);
    lowest_bit[k] = total;
    total += bits[k];
    if (total > max_bits) {
      throw invalid_argument(function, "dims", describe(dims), "at most 2^30 nodes in all");
    }
  }
  std::vector<std::size_t> turn(n);
  std::iota(turn.begin(), turn.end(), std::size_t{0});
  std::stable_sort(turn.begin(), turn.end(), [&](std::size_t a, std::size_t b) {
    return bits[a] != bits[b] ? bits[a] > bits[b] : lowest_bit[a] < lowest_bit[b];
  });
  std::vector<int> order;
  const int most = n == 0 ? 0 : bits[turn.front()];
  for (int left = most; left >= 1; --left) {
    for (const std::size_t k : turn) {
      if (bits[k] >= left) {
        order.push_back(lowest_bit[k] + left - 1);
      }
    }
  }
  return order;
}

int remap(std::span<const int> order, int rank) {
  const std::string function = std::string(prefix) + "remap";
  check_order(function, order, static_cast<int>(order.size()));
  const int p = 1 << order.size();
  if (rank < 0 || rank >= p) {
    throw out_of_range(function, "rank", rank, "a rank in [0, " + std::to_string(p) + ")");
  }
  return remap_unchecked(order, rank);
}

int remap_inverse(std::span<const int> order, int rank) {
  const std::string function = std::string(prefix) + "remap_inverse";
  check_order(function, order, static_cast<int>(order.size()));
  const int p = 1 << order.size();
  if (rank < 0 || rank >= p) {
    throw out_of_range(function, "rank", rank, "a rank in [0, " + std::to_string(p) + ")");
  }
  return remap_inverse_unchecked(order, rank);
}

Schedule allgather_recursive_doubling_ordered(const CollectiveShape& shape, int rank, std::span<const int> order) {
  check_generator("allgather_recursive_doubling_ordered", shape, order, false);
  Schedule schedule;
  schedule.algorithm = "recursive_doubling_ordered";
  const std::uint32_t s = shape.segments;
  const Positions positions = contributions(s);
  const BlockSet own = BlockSet::range(0, s);
  // Pre-swap: rank i starts with the contribution of R(S, i), at that rank's output position.
  const int source = remap_unchecked(order, rank);
  Round& swap = schedule.add_round();
  if (source == rank) {
    add_copy(swap, Buffer::input, own, Buffer::output, positions(static_cast<std::uint32_t>(rank), 1));
  } else {
    add_send(swap, remap_inverse_unchecked(order, rank), Buffer::input, own);
    add_receive(swap, source, Buffer::output, positions(static_cast<std::uint32_t>(source), 1));
  }
  append_doubling(schedule, rank, order, Buffer::output, positions);
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_scatter_recursive_halving_ordered(const CollectiveShape& shape, int rank,
                                                  std::span<const int> order) {
  check_generator("reduce_scatter_recursive_halving_ordered", shape, order, true);
  Schedule schedule;
  schedule.algorithm = "recursive_halving_ordered";
  const std::uint32_t s = shape.segments;
  const Positions positions = contributions(s);
  schedule.scratch_blocks = static_cast<std::uint32_t>(shape.size) * s;
  append_halving(schedule, rank, order, Buffer::scratch, positions);
  // Post-swap: the chunk held, R(S, i)'s, goes to rank R(S, i).
  const int held = remap_unchecked(order, rank);
  const BlockSet own = BlockSet::range(0, s);
  Round& swap = schedule.add_round();
  if (held == rank) {
    add_copy(swap, Buffer::scratch, positions(static_cast<std::uint32_t>(rank), 1), Buffer::output, own);
  } else {
    add_send(swap, held, Buffer::scratch, positions(static_cast<std::uint32_t>(held), 1));
    add_receive(swap, remap_inverse_unchecked(order, rank), Buffer::output, own);
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule allreduce_rabenseifner_ordered(const CollectiveShape& shape, int rank, std::span<const int> order) {
  check_generator("allreduce_rabenseifner_ordered", shape, order, true);
  Schedule schedule;
  schedule.algorithm = "rabenseifner_ordered";
  const Positions parts = even_parts(shape);
  append_halving(schedule, rank, order, Buffer::output, parts);
  append_doubling(schedule, rank, order, Buffer::output, parts);
  return without_empty_rounds(std::move(schedule));
}

Schedule bcast_scatter_allgather_ordered(const CollectiveShape& shape, int rank, std::span<const int> order) {
  const int bits = check_rooted_generator("bcast_scatter_allgather_ordered", shape, order, false);
  Schedule schedule;
  schedule.algorithm = "scatter_allgather_ordered";
  const Positions parts = even_parts(shape);
  const auto position = static_cast<std::uint32_t>(remap_unchecked(order, rank));
  // Before stage s the root and the ranks that differ from it only in bits S[s + 1], ... hold the
  // parts agreeing with their R(S, i) in bits above s; a rank whose lowest differing bit from the
  // root is S[s] receives in stage s.
  for (int s = bits - 1; s >= 0; --s) {
    const std::uint32_t half = 1u << s;
    const int partner = rank ^ (1 << order[static_cast<std::size_t>(s)]);
    Round& stage = schedule.add_round();
    switch (tree_role(order, s, rank ^ shape.root)) {
      case TreeRole::holder:
        add_send(stage, partner, Buffer::output, parts((position ^ half) & ~(half - 1), half));
        break;
      case TreeRole::leaf:
        add_receive(stage, partner, Buffer::output, parts(position & ~(half - 1), half));
        break;
      case TreeRole::idle:
        break;
    }
  }
  append_doubling(schedule, rank, order, Buffer::output, parts);
  // One stage at a time, as priced: a holder has all its parts from the start, and its sends of
  // later stages, run ahead, shared its one link with the current stage's and starved the partner
  // that forwards next (SMPI at 512 ranks: docs/collectives.md, "Engine").
  schedule.fence_every_round();
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_rabenseifner_ordered(const CollectiveShape& shape, int rank, std::span<const int> order) {
  const int bits = check_rooted_generator("reduce_rabenseifner_ordered", shape, order, true);
  Schedule schedule;
  schedule.algorithm = "rabenseifner_ordered";
  const Buffer work = rank == shape.root ? Buffer::output : Buffer::scratch;
  if (work == Buffer::scratch) {
    schedule.scratch_blocks = shape.segments;
  }
  const Positions parts = even_parts(shape);
  append_halving(schedule, rank, order, work, parts);
  // The scatter's stages backwards: in stage s the rank whose lowest differing bit from the root
  // is S[s] sends the parts agreeing with its R(S, i) in bits s and up to its partner, which holds
  // the other half of the parts agreeing in bits above s.
  const auto position = static_cast<std::uint32_t>(remap_unchecked(order, rank));
  for (int s = 0; s < bits; ++s) {
    const std::uint32_t half = 1u << s;
    const int partner = rank ^ (1 << order[static_cast<std::size_t>(s)]);
    Round& stage = schedule.add_round();
    switch (tree_role(order, s, rank ^ shape.root)) {
      case TreeRole::holder:
        add_receive(stage, partner, work, parts((position ^ half) & ~(half - 1), half));
        break;
      case TreeRole::leaf:
        add_send(stage, partner, work, parts(position & ~(half - 1), half));
        break;
      case TreeRole::idle:
        break;
    }
  }
  return without_empty_rounds(std::move(schedule));
}

}  // namespace dash::comm::schedule
