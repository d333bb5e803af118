#pragma once
// Internal: the plan of a schedule (its steps: comm/engine/plan_steps.hpp), as the engine's users
// build and ask it. plan.cpp implements it.

#include <cstdint>
#include <memory>
#include <vector>

#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::detail {

// What the engine derives from a schedule alone: the data dependencies between its actions, the
// order of messages per peer, and which action leaves each output block final. Immutable, so one
// plan serves every call with the same schedule (launch caches them).
struct Plan;

std::shared_ptr<const Plan> make_plan(schedule::Schedule schedule, std::uint32_t output_blocks);

// True when the plan's schedule stages blocks in scratch space.
bool uses_scratch(const Plan& plan) noexcept;

// True when every send of the plan that follows a round with messages needs a result of the round
// just before it or waits for a fence (recursive doubling, rings, Bruck, the fenced trees; every
// plan at p = 2): the engine could not start such a send much sooner than
// Execution::run_in_rounds does.
bool runs_in_lockstep(const Plan& plan) noexcept;

// The plan's non-canonical output placement (Schedule::placement), sharing the plan's lifetime;
// null for canonical placement.
std::shared_ptr<const std::vector<std::uint32_t>> placement_of(const std::shared_ptr<const Plan>& plan);

}  // namespace dash::comm::detail
