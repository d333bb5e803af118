#pragma once
// A set of logical blocks of a collective's buffer, in the order they travel in one message.
//
// Blocks are the unit in which schedules move data: a collective's buffers are sequences of
// logical blocks whose sizes are fixed by the call (e.g. allgather: one block per rank). A
// BlockSet enumerates `total` block indices in runs:
//
//   index(t) = (start + (t / run_length) * stride + t % run_length) mod modulus
//
// which covers, in O(1) space, a contiguous range (one run), a contiguous range that wraps around
// the end of the buffer (ring algorithms), the strided runs of Bruck's all-to-all and Sparbit's
// arithmetic progressions modulo p. modulus == 0 means no wrap-around.

#include <cstdint>
#include <vector>

namespace dash::comm::schedule {

struct BlockSet {
  std::uint32_t start = 0;
  std::uint32_t total = 0;
  std::uint32_t run_length = 0;
  std::int64_t stride = 0;
  std::uint32_t modulus = 0;

  // [first, first + count)
  static constexpr BlockSet range(std::uint32_t first, std::uint32_t count) {
    return BlockSet{first, count, count, 0, 0};
  }
  // `count` consecutive blocks from `first`, wrapping around modulo `modulus` (an empty buffer,
  // modulus 0, has only the empty range).
  static constexpr BlockSet wrapped_range(std::uint32_t first, std::uint32_t count, std::uint32_t modulus) {
    return modulus == 0 ? range(0, 0) : BlockSet{first % modulus, count, count, 0, modulus};
  }
  // start, start + step, start + 2 step, ... (count blocks), modulo `modulus`; step may be negative.
  static constexpr BlockSet progression(std::uint32_t start, std::int64_t step, std::uint32_t count,
                                        std::uint32_t modulus) {
    return modulus == 0 ? range(0, 0) : BlockSet{start % modulus, count, 1, step, modulus};
  }
  // Runs of `run_length` blocks starting at start, start + stride, ...; `total` blocks in all
  // (the last run may be cut short).
  static constexpr BlockSet strided_runs(std::uint32_t start, std::uint32_t run_length,
                                         std::int64_t stride, std::uint32_t total) {
    return BlockSet{start, total, run_length, stride, 0};
  }

  constexpr std::uint32_t size() const noexcept { return total; }
  constexpr bool empty() const noexcept { return total == 0; }

  constexpr std::uint32_t operator[](std::uint32_t t) const noexcept {
    const std::int64_t run = run_length == 0 ? 0 : t / run_length;
    const std::int64_t offset = run_length == 0 ? 0 : t % run_length;
    std::int64_t index = static_cast<std::int64_t>(start) + run * stride + offset;
    if (modulus != 0) {
      index %= modulus;
      if (index < 0) {
        index += modulus;
      }
    }
    return static_cast<std::uint32_t>(index);
  }

  // True when the set is one ascending run without wrap-around inside a buffer of `buffer_blocks`.
  constexpr bool is_contiguous(std::uint32_t buffer_blocks) const noexcept {
    return total <= 1 || (run_length >= total && (modulus == 0 || start + total <= modulus) &&
                          start + total <= buffer_blocks);
  }

  std::vector<std::uint32_t> indices() const {
    std::vector<std::uint32_t> result(total);
    for (std::uint32_t t = 0; t < total; ++t) {
      result[t] = (*this)[t];
    }
    return result;
  }

  friend constexpr bool operator==(const BlockSet&, const BlockSet&) = default;
};

}  // namespace dash::comm::schedule
