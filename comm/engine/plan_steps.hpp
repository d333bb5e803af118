#pragma once
// A schedule ready for the engine: each step's dependencies and the outputs it leaves final, the
// message channels (per peer and direction, in schedule order), the fences, and whether it runs in
// lockstep (docs/collectives.md "Engine"). make_plan (engine/plan.hpp) builds it.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <dash/comm/schedule/schedule.hpp>

#include "engine/plan.hpp"

namespace dash::comm::detail {

// No step (or no slot): the end of a channel.
inline constexpr std::uint32_t no_step = std::numeric_limits<std::uint32_t>::max();

// A step of the schedule as the engine tracks it.
struct PlannedStep {
  const schedule::Action* action = nullptr;
  std::uint32_t round = 0;
  int prerequisites = 0;
  std::vector<std::uint32_t> dependents;
  std::vector<std::uint32_t> final_output_blocks;  // output blocks this step leaves final
  // The next message to or from the same peer in the same direction: it may only be posted after
  // this one, so that messages match in schedule order.
  std::uint32_t next_in_channel = no_step;
  bool first_in_channel = false;
};

struct Plan {
  schedule::Schedule schedule;
  std::vector<PlannedStep> steps;
  std::vector<std::size_t> steps_per_round;
  // Per round: the latest fenced round at or before it (0 if none); its sends wait until
  // every round before that one finished.
  std::vector<std::uint32_t> fence_of_round;
  // Per round: a later round is fenced, so that round's sends wait for this one's to complete.
  std::vector<bool> awaited_by_fence;
  std::uint32_t output_blocks = 0;
  // No send could leave sooner in the engine than in a round-by-round run (runs_in_lockstep).
  bool lockstep = true;
};

}  // namespace dash::comm::detail
