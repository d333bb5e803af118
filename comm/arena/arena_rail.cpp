// A hierarchical arena run's inter-node stage: each chunk crosses the nodes on the rails
// (shared_memory_run.hpp).

#include <string_view>

#include <dash/comm/detail/launch.hpp>
#include <dash/comm/options.hpp>

#include "arena/arena_run.hpp"

namespace dash::comm::detail {

namespace {

std::string_view inter_node_stage(Coll collective) noexcept {
  switch (collective) {
    case Coll::allreduce:
      return "dash::comm::allreduce (inter-node stage)";
    case Coll::reduce:
      return "dash::comm::reduce (inter-node stage)";
    case Coll::allgather:
      return "dash::comm::allgather (inter-node stage)";
    default:
      return "dash::comm::bcast (inter-node stage)";
  }
}

}  // namespace

void SharedMemoryRun::start_on_rail(std::uint32_t chunk, std::size_t count, const std::byte* input, std::byte* output) {
  if (count == 0) {
    on_rail_.emplace_back();
    return;
  }
  CollectiveCall stage = make_call(inter_node_stage(call_.collective), call_.collective, call_.rail_root);
  stage.internal = true;
  const TagSpace& tags = rail_->tags();
  stage.tag = tags.first + static_cast<int>(ticket(chunk) % static_cast<std::uint64_t>(tags.count));
  stage.element_size = call_.element_size;
  stage.elements = count;
  stage.input = input;
  stage.output = output;
  stage.reduction = call_.reduction;
  on_rail_.push_back(launch(stage, *rail_, Options{}).execution);
}

void SharedMemoryRun::place_rail_chunks(int node_rank, const std::byte* chunks, std::uint32_t chunk) {
  const std::size_t bytes = layout_.count(chunk) * call_.element_size;
  for (int node = 0; node < rail_->size(); ++node) {
    const auto contribution = static_cast<std::uint32_t>(node * size_ + node_rank);
    bulk_copy(call_.output + offset(layout_, contribution, chunk), chunks + static_cast<std::size_t>(node) * bytes,
              bytes);
    arrivals_.push_back(contribution * chunks_ + chunk);
  }
}

bool SharedMemoryRun::drive_rail() {
  bool moved = false;
  if (call_.collective == Coll::allgather) {
    while (launched_ < chunks_ && launched_ < staged_ + slot_count) {
      start_on_rail(launched_, layout_.count(launched_), call_.input + layout_.offset(launched_),
                    rail_chunks(launched_));
      ++launched_;
      moved = true;
    }
  }
  if (rail_carries_bcast()) {
    // The root's node stages without waiting for the rail: its sends are held to the same window.
    while (launched_ < chunks_ && launched_ < std::min(staged_, crossed_) + slot_count) {
      std::byte* chunk = call_.output + layout_.offset(launched_);
      start_on_rail(launched_, layout_.count(launched_), chunk, chunk);
      ++launched_;
      moved = true;
    }
  }
  for (Execution& execution : on_rail_) {
    execution.progress();
  }
  while (!on_rail_.empty() && on_rail_.front().done()) {
    on_rail_.erase(on_rail_.begin());
    ++crossed_;
    moved = true;
  }
  return moved;
}

std::byte* SharedMemoryRun::rail_result(std::uint32_t chunk) {
  if (!on_root_node()) {
    return nullptr;
  }
  // A piece may be a whole chunk (rail_pieces).
  const std::size_t piece_bytes = (call_.elements + chunks_ - 1) / std::max<std::uint32_t>(chunks_, 1) *
                                  call_.element_size;
  if (rail_scratch_.empty()) {
    rail_scratch_.resize(slot_count * piece_bytes);
  }
  return rail_scratch_.data() + chunk % slot_count * piece_bytes;
}

bool SharedMemoryRun::try_combine_for_rail() {
  if (combined_ == staged_) {
    return false;
  }
  const std::uint64_t t = ticket(combined_);
  if (!peers_staged(t)) {
    return false;
  }
  const std::size_t e = call_.element_size;
  const auto [begin, end] = piece(layout_.count(combined_), rank_);
  const std::size_t chunk = layout_.offset(combined_);
  std::byte* in_slot = slot_of(rank_, t) + begin * e;
  const bool reduce = call_.collective == Coll::reduce;
  std::byte* target = reduce ? in_slot : call_.output + chunk + begin * e;
  combine_in_rank_order(target, end - begin, [&](int r) -> const std::byte* {
    return r == rank_ ? call_.input + chunk + begin * e : slot_of(r, t) + begin * e;
  });
  start_on_rail(combined_, end - begin, target, reduce ? rail_result(combined_) : in_slot);
  ++combined_;
  return true;
}

}  // namespace dash::comm::detail
