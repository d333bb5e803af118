#pragma once
// Tag spaces of teams (docs/design.md §2: every team has its own tag space on the base
// communicator).
//
// The tags above the world group's range, up to the base communicator's MPI_TAG_UB, are cut into
// equal blocks. A split gives all the teams it creates one block that no member of the parent
// uses: one bit-or allreduce of the members' in-use maps over the parent. Sibling teams share the
// block: their members are disjoint and a team's messages never leave it. A member returns the
// block when its team is freed. So two live teams that share a member never share tags, and
// concurrent collectives of different teams cannot match each other's messages.

#include <array>
#include <cstdint>
#include <memory>

#include <dash/comm/group.hpp>

namespace dash::detail {

// How the tags above the world's range divide into blocks (pure, for tests).
struct TagBlockLayout {
  static constexpr int max_blocks = 1024;
  static constexpr int min_block_tags = 256;
  int first_tag = 0;  // of block 0
  int block_tags = 0;
  int blocks = 0;

  // The layout of the tags [first_free_tag, tag_upper_bound].
  static TagBlockLayout for_range(int first_free_tag, int tag_upper_bound) noexcept;
  comm::TagSpace space(int block) const noexcept { return {first_tag + block * block_tags, block_tags}; }
};

class TagBlocks {
public:
  using Bitmap = std::array<std::uint64_t, TagBlockLayout::max_blocks / 64>;

  // The process's blocks; rebuilt when the library is re-initialised (teams of the earlier
  // initialisation keep the object they took their block from).
  static std::shared_ptr<TagBlocks> current();

  // Collective over `parent`: the lowest block no member of `parent` uses. Throws
  // dash::InvalidState when every block is taken.
  int choose(const comm::Group& parent, const char* function) const;
  // Marks `block` as used by a team of this process and returns its tags.
  comm::TagSpace claim(int block);
  void release(int block);
  int blocks_in_use() const noexcept;
  const TagBlockLayout& layout() const noexcept { return layout_; }

  explicit TagBlocks(TagBlockLayout layout) : layout_(layout) {}

private:
  TagBlockLayout layout_;
  Bitmap in_use_{};
};

}  // namespace dash::detail
