#pragma once
// The algorithms each collective can run, as selection weighs them: what generates their
// schedules, their segments, their closed-form cost, and which calls they fit
// (docs/collectives.md "Algorithms and selection").

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

#include "selection/algorithm_costs.hpp"
#include "selection/call_facts.hpp"

namespace dash::comm::selection {

struct Algorithm {
  Coll collective = Coll::allreduce;
  std::string_view name{};
  std::function<schedule::Schedule(const CollectiveShape&, int)> generate{};
  // Segments per contribution the algorithm works with.
  std::function<std::uint32_t(const CallFacts&)> segments = [](const CallFacts&) { return std::uint32_t{1}; };
  // Its schedules' critical path and copies in closed form (algorithm_costs.hpp), which selection prices.
  detail::AlgorithmCost cost{};
  // Why the algorithm cannot serve the call; empty when it can.
  std::function<std::string(const CallFacts&)> unfit = [](const CallFacts&) { return std::string(); };
  // Leaves the output in arrival order (non-canonical placement).
  bool reorders_output = false;
  // Its scratch space only ever holds the rank's own output blocks, so it serves calls whose inputs vary in
  // size (scratch is laid out like the output).
  bool scratch_holds_own_blocks = false;
  // Runs in the node's collective arena (shared_memory_run.hpp) instead of a schedule; `generate` is empty.
  bool shared_memory = false;
  // A topology-aware schedule (Sack 2011 ch. 3): generated on the network's grid
  // (CollectiveShape::grid), priced only on a network (no closed form), a candidate of the
  // library's choice only when facts.network is set.
  bool topology = false;
  // Arena allreduce: every process combines whole chunks (SharedMemoryCall::replicated).
  bool replicated = false;
  // Runs in each node's arena with an inter-node stage on the rails (SharedMemoryCall::hierarchical).
  bool hierarchical = false;
};

// Every algorithm; an operation's in the order that breaks ties of the cost model.
const std::vector<Algorithm>& registry();

// The algorithm of `collective` called `name`; null if there is none.
const Algorithm* find(Coll collective, std::string_view name);

// The names of the algorithms of `collective`, comma-separated (for error messages).
std::string known_names(Coll collective);

// Why `algorithm` cannot serve a call with these facts; empty when it can. The rules a forced
// algorithm must pass too.
std::string why_unfit(const Algorithm& algorithm, const CallFacts& facts);

// Why `algorithm` is no candidate for the library's own choice; empty when it is one.
std::string why_no_candidate(const Algorithm& algorithm, const CallFacts& facts);

// The segments a call of `algorithm` runs with: Options::segments, else the algorithm's own.
std::uint32_t segments_of(const Algorithm& algorithm, const CallFacts& facts);

// The shape its closed form prices.
detail::CostShape cost_shape(const Algorithm& algorithm, const CallFacts& facts);

}  // namespace dash::comm::selection
