#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>

namespace dash::comm::schedule {

using namespace detail;

namespace {

// A tree rank without children sends its input to its parent or, alone, copies it to the output.
Schedule leaf(Schedule schedule, int parent, BlockSet all) {
  if (parent < 0) {
    add_copy(schedule.add_round(), Buffer::input, all, Buffer::output, all);
  } else {
    add_send(schedule.add_round(), parent, Buffer::input, all);
  }
  return without_empty_rounds(std::move(schedule));
}

}  // namespace

Schedule reduce_binomial(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binomial";
  struct Child {
    int rank;
    Operand side;
  };
  // Walk down from [0, p): the half holding the current root keeps it, the other half's root is
  // its rank next to the split and sends to the current root last.
  std::vector<Child> children;  // outermost first
  int parent = -1;
  int lo = 0;
  int hi = shape.size;
  int root = shape.root;
  while (hi - lo > 1) {
    const int mid = lo + (1 << (ceil_log2(static_cast<std::uint32_t>(hi - lo)) - 1));
    const bool root_low = root < mid;
    const int other_root = root_low ? mid : mid - 1;
    if ((rank < mid) == root_low) {
      if (rank == root) {
        children.push_back({other_root, root_low ? Operand::incoming_right : Operand::incoming_left});
      }
      (root_low ? hi : lo) = mid;
    } else {
      if (rank == other_root) {
        parent = root;
      }
      root = other_root;
      (root_low ? lo : hi) = mid;
    }
  }

  const BlockSet all = BlockSet::range(0, shape.segments);
  const Buffer work = rank == shape.root ? Buffer::output : Buffer::scratch;
  if (children.empty()) {
    return leaf(std::move(schedule), parent, all);
  }
  if (work == Buffer::scratch) {
    schedule.scratch_blocks = shape.segments;
  }
  add_copy(schedule.add_round(), Buffer::input, all, work, all);
  for (auto child = children.rbegin(); child != children.rend(); ++child) {
    add_receive_reduce(schedule.add_round(), child->rank, work, all, child->side);
  }
  if (parent >= 0) {
    add_send(schedule.add_round(), parent, work, all);
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_knomial(const CollectiveShape& shape, int rank, int k) {
  if (k < 2) {
    throw invalid_argument("dash::comm::schedule::reduce_knomial", "k", k, "a tree arity >= 2");
  }
  Schedule schedule;
  schedule.algorithm = std::to_string(k) + "-nomial";
  struct Child {
    int rank;
    Operand side;
  };
  // Walk down from [0, p) as reduce_binomial does, a level's pieces k^(d-1) ranks wide; at each
  // level the root's rank gets the other pieces' ranks as children, in the order it combines them.
  std::vector<std::vector<Child>> levels;  // outermost first
  int parent = -1;
  int lo = 0;
  int hi = shape.size;
  int root = shape.root;
  while (hi - lo > 1) {
    std::int64_t width = 1;
    while (width * k < hi - lo) {
      width *= k;
    }
    const auto w = static_cast<int>(width);
    const int pieces = (hi - lo + w - 1) / w;
    const int root_piece = (root - lo) / w;
    const int piece = (rank - lo) / w;
    auto piece_root = [&](int q) { return q < root_piece ? lo + (q + 1) * w - 1 : lo + q * w; };
    if (piece == root_piece && rank == root) {
      std::vector<Child>& children = levels.emplace_back();
      for (int q = root_piece + 1; q < pieces; ++q) {
        children.push_back({piece_root(q), Operand::incoming_right});
      }
      for (int q = root_piece - 1; q >= 0; --q) {
        children.push_back({piece_root(q), Operand::incoming_left});
      }
    } else if (piece != root_piece) {
      if (rank == piece_root(piece)) {
        parent = root;
      }
      root = piece_root(piece);
    }
    lo += piece * w;
    hi = std::min(lo + w, hi);
  }

  const BlockSet all = BlockSet::range(0, shape.segments);
  if (levels.empty()) {
    return leaf(std::move(schedule), parent, all);
  }
  // The work vector, then one scratch region per child of a level but its first, which combines
  // on arrival.
  const Buffer work = rank == shape.root ? Buffer::output : Buffer::scratch;
  const std::uint32_t first_region = work == Buffer::scratch ? shape.segments : 0;
  auto region = [&](std::size_t i) {
    return BlockSet::range(first_region + static_cast<std::uint32_t>(i - 1) * shape.segments, shape.segments);
  };
  std::size_t most_children = 0;
  for (const std::vector<Child>& children : levels) {
    most_children = std::max(most_children, children.size());
  }
  schedule.scratch_blocks = first_region + static_cast<std::uint32_t>(most_children - 1) * shape.segments;
  add_copy(schedule.add_round(), Buffer::input, all, work, all);
  for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
    Round& arrivals = schedule.add_round();
    add_receive_reduce(arrivals, level->front().rank, work, all, level->front().side);
    for (std::size_t i = 1; i < level->size(); ++i) {
      add_receive(arrivals, (*level)[i].rank, Buffer::scratch, region(i));
    }
    for (std::size_t i = 1; i < level->size(); ++i) {
      if (!all.empty()) {
        schedule.add_round().actions.push_back(
            Action::reduce(Buffer::scratch, region(i), work, all, (*level)[i].side));
      }
    }
  }
  if (parent >= 0) {
    add_send(schedule.add_round(), parent, work, all);
  }
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_rabenseifner(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "rabenseifner";
  const int root = shape.root;
  const int p2 = static_cast<int>(floor_pow2(static_cast<std::uint32_t>(shape.size)));
  const int extra = shape.size - p2;
  const bool root_paired = root < 2 * extra;
  const int odd_survivor_pair = root_paired && root % 2 == 1 ? root / 2 : -1;
  const Buffer work = rank == root ? Buffer::output : Buffer::scratch;
  if (work == Buffer::scratch) {
    schedule.scratch_blocks = shape.segments;
  }
  const BlockSet all = BlockSet::range(0, shape.segments);
  add_copy(schedule.add_round(), Buffer::input, all, work, all);
  const std::vector<std::uint32_t> bounds = even_bounds(shape.segments, static_cast<std::uint32_t>(p2));
  const Halving halving =
      append_recursive_halving(schedule, 0, shape.size, rank, work, bounds, odd_survivor_pair);
  if (halving.folded_away()) {
    return without_empty_rounds(std::move(schedule));
  }
  // Binomial gather: at bit `mask` the survivor agreeing with the root's bit receives its
  // partner's parts, which lie next to its own; the other sends and is done.
  const int new_root = root_paired ? root / 2 : root - extra;
  std::uint32_t lo = halving.lo;
  std::uint32_t hi = halving.hi;
  for (int mask = p2 / 2; mask >= 1; mask >>= 1) {
    const int partner = halving.real(halving.new_rank ^ mask);
    if ((halving.new_rank & mask) != (new_root & mask)) {
      add_send(schedule.add_round(), partner, work, BlockSet::range(bounds[lo], bounds[hi] - bounds[lo]));
      break;
    }
    const std::uint32_t size = hi - lo;
    const std::uint32_t partner_lo = (halving.new_rank & mask) == 0 ? hi : lo - size;
    add_receive(schedule.add_round(), partner, work,
                BlockSet::range(bounds[partner_lo], bounds[partner_lo + size] - bounds[partner_lo]));
    lo = std::min(lo, partner_lo);
    hi = std::max(hi, partner_lo + size);
  }
  return without_empty_rounds(std::move(schedule));
}

}  // namespace dash::comm::schedule
