#include <cstdint>

#include <dash/comm/schedule/gather.hpp>
#include <dash/comm/schedule/binomial_subtree.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/relative_blocks.hpp>

namespace dash::comm::schedule {

Schedule gather_linear(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "linear";
  const int p = shape.size;
  const BlockSet own = BlockSet::range(0, shape.segments);
  if (rank != shape.root) {
    schedule.add_round().actions.push_back(Action::send_to(shape.root, Buffer::input, own));
    return schedule;
  }
  schedule.add_round().actions.push_back(
      Action::copy(Buffer::input, own, Buffer::output, blocks_of_relative_ranks(shape, 0, 1)));
  for (int relative = 1; relative < p; ++relative) {
    // The copy writes only the root's own blocks, so the first receive can share its round.
    Round& round = relative == 1 ? schedule.rounds.back() : schedule.add_round();
    round.actions.push_back(Action::receive_from(modulo(relative + shape.root, p), Buffer::output,
                                                 blocks_of_relative_ranks(shape, relative, 1)));
  }
  return schedule;
}

Schedule gather_binomial(const CollectiveShape& shape, int rank) {
  Schedule schedule;
  schedule.algorithm = "binomial";
  const int p = shape.size;
  const std::uint32_t s = shape.segments;
  const int relative = modulo(rank - shape.root, p);
  auto absolute = [&](int relative_rank) { return modulo(relative_rank + shape.root, p); };
  const BlockSet own = BlockSet::range(0, s);
  const BinomialSubtree tree(p, relative);  // children served smallest first: complete first

  if (relative == 0) {
    schedule.add_round().actions.push_back(
        Action::copy(Buffer::input, own, Buffer::output, blocks_of_relative_ranks(shape, 0, 1)));
    for (int m = 1; m < p; m <<= 1) {
      Round& round = m == 1 ? schedule.rounds.back() : schedule.add_round();
      round.actions.push_back(
          Action::receive_from(absolute(m), Buffer::output, blocks_of_relative_ranks(shape, m, tree.child_size(m))));
    }
    return schedule;
  }
  const int parent = absolute(relative - tree.span);
  if (tree.size == 1) {
    schedule.add_round().actions.push_back(Action::send_to(parent, Buffer::input, own));
    return schedule;
  }
  // Collect the subtree in scratch, in relative rank order, own blocks first.
  schedule.scratch_blocks = static_cast<std::uint32_t>(tree.size) * s;
  schedule.add_round().actions.push_back(Action::copy(Buffer::input, own, Buffer::scratch, own));
  for (int m = 1; m < tree.span && relative + m < p; m <<= 1) {
    Round& round = m == 1 ? schedule.rounds.back() : schedule.add_round();
    const auto offset = static_cast<std::uint32_t>(m) * s;
    round.actions.push_back(
        Action::receive_from(absolute(relative + m), Buffer::scratch,
                             BlockSet::range(offset, static_cast<std::uint32_t>(tree.child_size(m)) * s)));
  }
  schedule.add_round().actions.push_back(
      Action::send_to(parent, Buffer::scratch, BlockSet::range(0, schedule.scratch_blocks)));
  return schedule;
}

}  // namespace dash::comm::schedule
