#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/rank_math.hpp>

namespace dash::comm::schedule {

namespace {

// A rank serving several children sends one message at a time, in its rounds' order: every tree
// below fences its rounds. Unfenced, the engine's window posted a rank's sends together, and on a
// node with one link they shared it, so the largest subtree, which has to forward the most, got
// its data last, far later than the cost model predicts (SMPI at 512 ranks: docs/collectives.md,
// "Engine").

// Broadcast down the heap-ordered k-ary tree over relative ranks (k = 1 is a chain), the S
// blocks cut into `pieces` messages per edge. A node sends piece j to its children in turn and
// receives piece j + 1 in the round of its last send of piece j, so pieces stream through the
// tree: a node at path cost t (the sum of its child positions from the root) gets piece j at
// t + k j when the root has k children.
Schedule heap_tree(const CollectiveShape& shape, int rank, int k, std::uint32_t pieces, std::string name) {
  Schedule schedule;
  schedule.algorithm = std::move(name);
  const std::int64_t p = shape.size;
  const std::int64_t relative = modulo(rank - shape.root, shape.size);
  auto absolute = [&](std::int64_t relative_rank) { return modulo(relative_rank + shape.root, shape.size); };
  auto piece = [&](std::uint32_t j) {
    const auto begin = static_cast<std::uint32_t>(std::uint64_t{j} * shape.segments / pieces);
    const auto end = static_cast<std::uint32_t>((std::uint64_t{j} + 1) * shape.segments / pieces);
    return BlockSet::range(begin, end - begin);
  };
  const std::int64_t first_child = k * relative + 1;
  const std::int64_t last_child = std::min(k * relative + k, p - 1);
  const bool has_parent = relative != 0;
  const int parent = has_parent ? absolute((relative - 1) / k) : -1;

  if (has_parent && pieces > 0) {
    schedule.add_round().actions.push_back(Action::receive_from(parent, Buffer::output, piece(0)));
  }
  for (std::uint32_t j = 0; j < pieces; ++j) {
    const bool receives_next = has_parent && j + 1 < pieces;
    for (std::int64_t child = first_child; child <= last_child; ++child) {
      Round& round = schedule.add_round();
      round.actions.push_back(Action::send_to(absolute(child), Buffer::output, piece(j)));
      if (child == last_child && receives_next) {
        round.actions.push_back(Action::receive_from(parent, Buffer::output, piece(j + 1)));
      }
    }
    if (first_child > last_child && receives_next) {
      schedule.add_round().actions.push_back(Action::receive_from(parent, Buffer::output, piece(j + 1)));
    }
  }
  schedule.fence_every_round();
  return schedule;
}

}  // namespace

Schedule bcast_binomial(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binomial";
  const int p = shape.size;
  const int relative = modulo(rank - shape.root, p);
  const BlockSet all = BlockSet::range(0, shape.segments);
  auto absolute = [&](int relative_rank) { return modulo(relative_rank + shape.root, p); };

  // The parent is the relative rank without its lowest set bit; the root has none.
  std::uint32_t mask = 1;
  while (mask < static_cast<std::uint32_t>(p) && (relative & static_cast<int>(mask)) == 0) {
    mask <<= 1;
  }
  if (relative != 0) {
    schedule.add_round().actions.push_back(
        Action::receive_from(absolute(relative - static_cast<int>(mask)), Buffer::output, all));
  }
  // Children: relative + m for m = mask/2, mask/4, ..., 1, largest subtree first.
  for (std::uint32_t child = mask >> 1; child > 0; child >>= 1) {
    if (relative + static_cast<int>(child) < p) {
      schedule.add_round().actions.push_back(
          Action::send_to(absolute(relative + static_cast<int>(child)), Buffer::output, all));
    }
  }
  schedule.fence_every_round();
  return schedule;
}

Schedule bcast_kary_tree(const CollectiveShape& shape, int rank, int k) {
  if (k < 2) {
    throw invalid_argument("dash::comm::schedule::bcast_kary_tree", "k", k, "a tree arity >= 2");
  }
  return heap_tree(shape, rank, k, 1, std::to_string(k) + "-ary_tree");
}

Schedule bcast_pipelined_chain(const CollectiveShape& shape, int rank) {
  return heap_tree(shape, rank, 1, shape.segments, "pipelined_chain");
}

Schedule bcast_pipelined_binary_tree(const CollectiveShape& shape, int rank) {
  return heap_tree(shape, rank, 2, shape.segments, "pipelined_binary_tree");
}

Schedule bcast_scatter_allgather(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "scatter_allgather";
  const int p = shape.size;
  const int relative = modulo(rank - shape.root, p);
  auto absolute = [&](int relative_rank) { return modulo(relative_rank + shape.root, p); };
  // The blocks of the parts of relative ranks [first, last).
  auto parts = [&](int first, int last) {
    auto begin = [&](int part) {
      return static_cast<std::uint32_t>(std::uint64_t{shape.segments} * static_cast<std::uint32_t>(part) /
                                        static_cast<std::uint32_t>(p));
    };
    return BlockSet::range(begin(first), begin(last) - begin(first));
  };

  // Binomial scatter (as bcast_binomial, but each edge carries only its subtree's parts).
  std::uint32_t mask = 1;
  while (mask < static_cast<std::uint32_t>(p) && (relative & static_cast<int>(mask)) == 0) {
    mask <<= 1;
  }
  const int span = static_cast<int>(mask);
  if (relative != 0) {
    const BlockSet mine = parts(relative, std::min(relative + span, p));
    if (!mine.empty()) {
      schedule.add_round().actions.push_back(
          Action::receive_from(absolute(relative - span), Buffer::output, mine));
    }
  }
  for (int child = span >> 1; child > 0; child >>= 1) {
    if (relative + child < p) {
      const BlockSet theirs = parts(relative + child, std::min(relative + 2 * child, p));
      if (!theirs.empty()) {
        schedule.add_round().actions.push_back(
            Action::send_to(absolute(relative + child), Buffer::output, theirs));
      }
    }
  }

  // Ring allgather of the parts: in round k, forward part (relative - k) to the right.
  for (int k = 0; k + 1 < p; ++k) {
    const BlockSet outgoing = parts(modulo(relative - k, p), modulo(relative - k, p) + 1);
    const BlockSet incoming = parts(modulo(relative - k - 1, p), modulo(relative - k - 1, p) + 1);
    if (outgoing.empty() && incoming.empty()) {
      continue;
    }
    Round& round = schedule.add_round();
    if (!outgoing.empty()) {
      round.actions.push_back(Action::send_to(absolute(relative + 1), Buffer::output, outgoing));
    }
    if (!incoming.empty()) {
      round.actions.push_back(Action::receive_from(absolute(relative - 1), Buffer::output, incoming));
    }
  }
  schedule.fence_every_round();
  return schedule;
}

}  // namespace dash::comm::schedule
