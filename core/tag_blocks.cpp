#include <algorithm>
#include <bit>
#include <memory>
#include <string>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/detail/tag_blocks.hpp>

namespace dash::detail {

TagBlockLayout TagBlockLayout::for_range(int first_free_tag, int tag_upper_bound) noexcept {
  TagBlockLayout layout;
  layout.first_tag = first_free_tag;
  const long long tags = static_cast<long long>(tag_upper_bound) - first_free_tag + 1;
  if (tags < min_block_tags) {
    return layout;  // no blocks: splits fail with a clear error
  }
  layout.blocks = static_cast<int>(std::min<long long>(max_blocks, tags / min_block_tags));
  layout.block_tags = static_cast<int>(tags / layout.blocks);
  return layout;
}

std::shared_ptr<TagBlocks> TagBlocks::current() {
  static std::shared_ptr<TagBlocks> blocks;
  static unsigned built_for = 0;  // the initialisation (a reused communicator handle would not tell)
  const unsigned generation = comm::runtime_generation();
  if (!blocks || built_for != generation) {
    const int tag_ub = comm::tag_upper_bound();
    const comm::TagSpace world = comm::Group::world_tag_space();
    blocks = std::make_shared<TagBlocks>(TagBlockLayout::for_range(world.first + world.count, tag_ub));
    built_for = generation;
  }
  return blocks;
}

int TagBlocks::choose(const comm::Group& parent, const char* function) const {
  Bitmap used{};
  comm::allreduce(in_use_, used, dash::bit_or{}, parent);
  for (int block = 0; block < layout_.blocks; ++block) {
    if ((used[static_cast<std::size_t>(block / 64)] >> (block % 64) & 1u) == 0) {
      return block;
    }
  }
  throw InvalidState(std::string(function) + ": every one of the " + std::to_string(layout_.blocks) +
                     " tag blocks is used by a live team of some member; free teams that are no longer needed");
}

comm::TagSpace TagBlocks::claim(int block) {
  in_use_[static_cast<std::size_t>(block / 64)] |= std::uint64_t{1} << (block % 64);
  return layout_.space(block);
}

void TagBlocks::release(int block) {
  in_use_[static_cast<std::size_t>(block / 64)] &= ~(std::uint64_t{1} << (block % 64));
}

int TagBlocks::blocks_in_use() const noexcept {
  int count = 0;
  for (const std::uint64_t word : in_use_) {
    count += std::popcount(word);
  }
  return count;
}

}  // namespace dash::detail
