#include <cstdint>

#include <dash/comm/schedule/binomial_subtree.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/relative_blocks.hpp>
#include <dash/comm/schedule/scatter.hpp>

namespace dash::comm::schedule {

Schedule scatter_linear(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "linear";
  const int p = shape.size;
  const BlockSet own = BlockSet::range(0, shape.segments);
  if (rank != shape.root) {
    schedule.add_round().actions.push_back(Action::receive_from(shape.root, Buffer::output, own));
    return schedule;
  }
  schedule.add_round().actions.push_back(
      Action::copy(Buffer::input, blocks_of_relative_ranks(shape, 0, 1), Buffer::output, own));
  for (int relative = 1; relative < p; ++relative) {
    // The copy only reads the input, so the first send can share its round.
    Round& round = relative == 1 ? schedule.rounds.back() : schedule.add_round();
    round.actions.push_back(Action::send_to(modulo(relative + shape.root, p), Buffer::input,
                                            blocks_of_relative_ranks(shape, relative, 1)));
  }
  return schedule;
}

Schedule scatter_binomial(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binomial";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const int relative = modulo(rank - shape.root, p);
  auto absolute = [&](int relative_rank) { return modulo(relative_rank + shape.root, p); };
  const BlockSet own = BlockSet::range(0, s);
  const BinomialSubtree tree(p, relative);  // children served largest first

  if (relative == 0) {
    schedule.add_round().actions.push_back(
        Action::copy(Buffer::input, blocks_of_relative_ranks(shape, 0, 1), Buffer::output, own));
    bool first = true;
    for (int m = tree.span >> 1; m > 0; m >>= 1) {
      if (m < p) {
        Round& round = first ? schedule.rounds.back() : schedule.add_round();
        round.actions.push_back(
            Action::send_to(absolute(m), Buffer::input, blocks_of_relative_ranks(shape, m, tree.child_size(m))));
        first = false;
      }
    }
    schedule.fence_every_round();  // largest subtree first, one send at a time (as bcast.cpp's trees)
    return schedule;
  }
  const int parent = absolute(relative - tree.span);
  if (tree.size == 1) {
    schedule.add_round().actions.push_back(Action::receive_from(parent, Buffer::output, own));
    return schedule;
  }
  // Stage the subtree's blocks in scratch, in relative rank order; keep the first rank's own.
  schedule.scratch_blocks = static_cast<std::uint32_t>(tree.size) * s;
  schedule.add_round().actions.push_back(
      Action::receive_from(parent, Buffer::scratch, BlockSet::range(0, schedule.scratch_blocks)));
  schedule.add_round().actions.push_back(Action::copy(Buffer::scratch, own, Buffer::output, own));
  bool first = true;
  for (int m = tree.span >> 1; m > 0; m >>= 1) {
    if (relative + m < p) {
      Round& round = first ? schedule.rounds.back() : schedule.add_round();
      const auto offset = static_cast<std::uint32_t>(m) * s;
      round.actions.push_back(
          Action::send_to(absolute(relative + m), Buffer::scratch,
                          BlockSet::range(offset, static_cast<std::uint32_t>(tree.child_size(m)) * s)));
      first = false;
    }
  }
  schedule.fence_every_round();
  return schedule;
}

}  // namespace dash::comm::schedule
