#include <algorithm>

#include "engine/bulk_copy.hpp"
#include "engine/slot_write_choice.hpp"
#include "engine/streaming_copy.hpp"

namespace dash::comm::detail {

namespace {
// Weight of the newest measurement: a few writes settle a changed placement, one outlier does not.
constexpr double newest_weight = 0.25;
// Streamed slots send the readers to memory, which the writer's clock does not see: streaming has
// to look this much faster to be chosen.
constexpr double streaming_handicap = 1.25;
// Tries of the slower-looking way come at least every explore_every * max_slower writes: one
// unlucky first measurement must not hide the faster way for long.
constexpr double max_slower = 8;
}  // namespace

bool SlotWriteChoice::streams(std::size_t bytes) noexcept {
  if (bytes < measured_bytes) {
    return false;
  }
  if (cost_[0] == 0 || cost_[1] == 0) {  // each way once, through the cache first
    return cost_[0] != 0;
  }
  const bool streaming_looks_faster = cost_[1] * streaming_handicap < cost_[0];
  // Trying the other way costs its extra time; rarer tries keep that a small share of the writes.
  const double slower = std::max(cost_[0], cost_[1]) / std::min(cost_[0], cost_[1]);
  const auto interval = static_cast<std::uint32_t>(explore_every * std::min(slower, max_slower));
  if (measured_ - explored_ >= interval) {
    explored_ = measured_;
    return !streaming_looks_faster;
  }
  return streaming_looks_faster;
}

void SlotWriteChoice::record(bool streamed, std::size_t bytes, std::chrono::nanoseconds took) noexcept {
  if (bytes < measured_bytes) {
    return;
  }
  const double per_kib = static_cast<double>(took.count()) * 1024.0 / static_cast<double>(bytes);
  double& cost = cost_[streamed ? 1 : 0];
  cost = cost == 0 ? per_kib : cost + newest_weight * (per_kib - cost);
  ++measured_;
}

SlotWriteChoice& slot_write_choice() noexcept {
  static SlotWriteChoice choice;
  return choice;
}

void write_slot(SlotWriteChoice& choice, std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
  if (bytes < SlotWriteChoice::measured_bytes) {  // reading the clock would cost short calls dearly
    bulk_copy(to, from, bytes);
    return;
  }
  const bool streamed = choice.streams(bytes);
  const auto start = std::chrono::steady_clock::now();
  if (streamed) {
    streaming_copy(to, from, bytes);
  } else {
    bulk_copy(to, from, bytes);
  }
  choice.record(streamed, bytes, std::chrono::steady_clock::now() - start);
}

}  // namespace dash::comm::detail
