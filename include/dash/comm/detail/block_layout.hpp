#pragma once
// Internal: how a collective's buffers are cut into blocks (BlockLayout, with the counts of
// variable-size calls) and how its reduction combines them (Reduction): what the engine, the
// arena runs and the typed front ends share of one call.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace dash::comm::detail {

// Element counts of the contributions of a variable-size collective (allgatherv, alltoallv,
// reduce_scatter), with their offsets in the packed buffer (exclusive prefix sums).
struct VariableSizes {
  std::vector<std::size_t> counts;
  std::vector<std::size_t> offsets;

  explicit VariableSizes(std::vector<std::size_t> element_counts) : counts(std::move(element_counts)) {
    offsets.resize(counts.size());
    std::size_t offset = 0;
    for (std::size_t c = 0; c < counts.size(); ++c) {
      offsets[c] = offset;
      offset += counts[c];
    }
  }
};

// Byte layout of one of a collective's buffers: an array of contributions, each split into
// `segments` segments (schedule/collective.hpp). Contributions have `elements` elements each,
// or the counts of `variable` when that is set.
struct BlockLayout {
  std::size_t element_size = 1;
  std::size_t elements = 0;
  std::uint32_t segments = 1;
  std::shared_ptr<const VariableSizes> variable;

  std::size_t contribution_elements(std::size_t contribution) const noexcept {
    return variable ? variable->counts[contribution] : elements;
  }
  // Uniform, unsegmented layouts (most calls) need no division.
  bool is_simple() const noexcept { return segments == 1 && !variable; }
  std::size_t first_element(std::uint32_t block) const noexcept {
    if (is_simple()) {
      return block * elements;
    }
    const std::size_t contribution = block / segments;
    const std::size_t segment = block % segments;
    const std::size_t n = contribution_elements(contribution);
    const std::size_t base = variable ? variable->offsets[contribution] : contribution * elements;
    return base + segment * n / segments;
  }
  std::size_t count(std::uint32_t block) const noexcept {
    if (is_simple()) {
      return elements;
    }
    const std::size_t segment = block % segments;
    const std::size_t n = contribution_elements(block / segments);
    return (segment + 1) * n / segments - segment * n / segments;
  }
  std::size_t offset(std::uint32_t block) const noexcept { return first_element(block) * element_size; }
  std::size_t bytes(std::uint32_t block) const noexcept { return count(block) * element_size; }
};

// Combines `count` elements: target = incoming ⊕ target when incoming_left, else target ⊕ incoming.
using CombineFunction = void (*)(const void* op, const std::byte* incoming, std::byte* target,
                                 std::size_t count, bool incoming_left);

// Combines `count` elements into a third buffer: target = left ⊕ right.
using CombineIntoFunction = void (*)(const void* op, const std::byte* left, const std::byte* right, std::byte* target,
                                     std::size_t count);

struct Reduction {
  CombineFunction combine = nullptr;
  const void* op = nullptr;
  CombineIntoFunction combine_into = nullptr;
};

}  // namespace dash::comm::detail
