// Decide, prepare and launch a collective call (docs/collectives.md "Algorithms and selection").
//
// Map: the decision (algorithm, segments, grid), kept per group and call shape for calls that
// repeat; preparing the arena run where the node's arena serves the call; the engine's setup for
// a schedule (plan, layouts, synchronous-send threshold, argument check); launch() and run(),
// which also takes a group of one member's shortcut and runs short calls in lockstep round by
// round.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/detail/launch.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/collective_arena.hpp"
#include "arena/shared_memory_run.hpp"
#include "engine/argument_check.hpp"
#include "engine/bulk_copy.hpp"
#include "engine/plan_cache.hpp"
#include "groups/group_paths.hpp"
#include "groups/group_state.hpp"
#include "selection/call_facts.hpp"
#include "selection/choice.hpp"
#include "selection/registry.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm::detail {

namespace {

using selection::Algorithm;
using selection::CallFacts;
using selection::Selected;

// What launch decides for a call before it starts it: the algorithm, its segments and the grid it
// runs on.
struct Decision {
  Selected selected;
  std::uint32_t segments = 1;
  std::shared_ptr<const CartesianGrid> grid;
  bool between_nodes = false;  // the group spans nodes (CallFacts::between_nodes)
};

Decision decide(const CollectiveCall& call, const Group& group, const Options& options) {
  const bool variable_sizes = call.input_sizes || call.output_sizes;
  CallFacts facts{.size = group.size(),
                  .bytes = call.elements * call.element_size,
                  .elements = call.elements,
                  .commutative = call.commutative,
                  .variable = variable_sizes,
                  .canonical = options.canonical_placement,
                  .output_varies = call.output_sizes != nullptr,
                  .segments = options.segments,
                  .grid = call.grid.get()};
  selection::add_group_facts(facts, group);
  // A segment holds one element at least; far more segments than elements only multiply the messages.
  if (!variable_sizes && options.segments > std::max<std::size_t>(call.elements, 1)) {
    throw invalid_argument(call.function, "options.segments", options.segments,
                           "at most the " + std::to_string(std::max<std::size_t>(call.elements, 1)) +
                               " element(s) of a contribution (0: the algorithm's default)");
  }
  Decision decision;
  decision.selected = selection::select(call.function, call.collective, facts, options.algorithm,
                                       selection::library_choice, !call.internal);
  const Algorithm& algorithm = *decision.selected.algorithm;
  decision.segments = options.segments != 0 ? options.segments : algorithm.segments(facts);
  decision.grid = algorithm.topology ? facts.network_grid : call.grid;
  decision.between_nodes = facts.between_nodes;
  return decision;
}

// Uniform calls whose decision depends only on these: the configuration, the nodes and the arena
// stay as dash::init found them until the next initialisation, and a group's paths (its arena
// channel, hierarchy and network view) as they were when it was made. The group counts by its
// serial number, which no other group of the process shares.
struct RepeatableCallKey {
  unsigned generation;
  Coll collective;
  int root;
  std::size_t elements;
  std::size_t element_size;
  bool commutative;
  bool canonical;
  std::uint32_t segments;
  std::string algorithm;
  std::uint64_t group;
};

// Short collectives are called in loops of one call shape, where deciding afresh would cost as
// much as the collective itself (docs/collectives.md "Teams in the arena"): the last decision is
// kept for the world group and the last few for the others, so that a team algorithm's calls between world calls keep theirs,
// and so do the row and column teams of a process grid called in turn.
Decision decide_repeatable(const CollectiveCall& call, const Group& group, const Options& options) {
  const bool repeatable = !call.internal && !call.input_sizes && !call.output_sizes && !call.grid;
  if (!repeatable) {
    return decide(call, group, options);
  }
  // Collectives are called from one thread at a time (docs/configuration.md), so no lock.
  using Kept = std::optional<std::pair<RepeatableCallKey, Decision>>;
  static Kept world_kept;
  static std::array<Kept, 4> others_kept;
  static std::size_t others_next = 0;
  const unsigned generation = runtime_generation();
  const std::uint64_t serial = detail::GroupAccess::state(group).serial;
  const auto repeats = [&](const Kept& kept) {  // compared field by field: no key to build per call
    if (!kept) {
      return false;
    }
    const RepeatableCallKey& key = kept->first;
    return key.generation == generation && key.collective == call.collective && key.root == call.root &&
           key.elements == call.elements && key.element_size == call.element_size &&
           key.commutative == call.commutative && key.canonical == options.canonical_placement &&
           key.segments == options.segments && key.group == serial && key.algorithm == options.algorithm;
  };
  const bool world = group.is_world();
  if (world && repeats(world_kept)) {
    return world_kept->second;
  }
  if (!world) {
    for (const Kept& kept : others_kept) {
      if (repeats(kept)) {
        return kept->second;
      }
    }
  }
  Kept& slot = world ? world_kept : others_kept[others_next++ % others_kept.size()];
  slot.emplace(RepeatableCallKey{generation, call.collective, call.root, call.elements, call.element_size,
                                 call.commutative, options.canonical_placement, options.segments, options.algorithm,
                                 serial},
               decide(call, group, options));
  return slot->second;
}

// A call ready to start: the decision, and the arena run when the arena serves it.
struct Prepared {
  Decision decision;
  std::optional<SharedMemoryCall> in_arena;
};

void check_root(const CollectiveCall& call, const Group& group) {
  const int p = group.size();
  if (call.collective == Coll::bcast || call.collective == Coll::reduce || call.collective == Coll::gather ||
      call.collective == Coll::scatter) {
    if (call.root < 0 || call.root >= p) {
      throw out_of_range(call.function, "root", call.root, "a rank in [0, " + std::to_string(p) + ")");
    }
  }
}

Prepared prepare(const CollectiveCall& call, const Group& group, const Options& options) {
  check_root(call, group);
  Prepared prepared{decide_repeatable(call, group, options), std::nullopt};
  const Algorithm& algorithm = *prepared.decision.selected.algorithm;
  if (algorithm.shared_memory) {
    SharedMemoryCall& run =
        prepared.in_arena.emplace(SharedMemoryCall{call, prepared.decision.segments, algorithm.replicated});
    if (algorithm.hierarchical) {
      // Aligned nodes: the root is node root / k's member of node rank root % k.
      const detail::Hierarchy hierarchy = *detail::hierarchy_of(group);
      run.hierarchical = true;
      run.root = call.root % hierarchy.node_size;
      run.rail_root = call.root / hierarchy.node_size;
      run.rail = hierarchy.rail;
      run.channel = hierarchy.channel;
    } else {
      run.channel = arena_channel_of(group);
    }
  }
  return prepared;
}

// Fenced sends from the length whose time on the wire equals a start-up go synchronous: beyond it
// the handshake costs less than a link shared with the next send (docs/collectives.md "Engine").
std::size_t synchronous_send_bytes(const CostParameters& parameters) {
  const double bytes = std::ceil(parameters.alpha / parameters.beta);
  return parameters.beta > 0 && bytes < 1e18 ? static_cast<std::size_t>(bytes)
                                              : std::numeric_limits<std::size_t>::max();
}

// What the engine needs to run a call the arena does not serve: its plan, buffers and layouts.
ExecutionSetup schedule_setup(const CollectiveCall& call, const Decision& decision, const Group& group,
                              const Options& options) {
  const Algorithm& algorithm = *decision.selected.algorithm;
  CollectiveShape shape;
  shape.collective = call.collective;
  shape.size = group.size();
  shape.root = call.root;
  shape.segments = decision.segments;
  shape.op.commutative = call.commutative;
  shape.grid = decision.grid;

  ExecutionSetup setup;
  setup.function = call.function;
  setup.plan = cached_plan(PlanKey{&algorithm, shape.size, group.rank(), call.root, shape.segments, call.commutative,
                                   GridKey{shape.grid}},
                           shape);
  const bool variable_sizes = call.input_sizes || call.output_sizes;
  const bool scratch_fits_layout = algorithm.scratch_holds_own_blocks && !call.output_sizes;
  if (variable_sizes && uses_scratch(*setup.plan) && !scratch_fits_layout) {
    throw InvalidArgument(std::string(call.function) + ": algorithm '" + std::string(algorithm.name) + "' (" +
                          std::string(decision.selected.reason) +
                          ") cannot serve this call: it stages blocks in scratch space, which variable-size "
                          "collectives do not support");
  }
  setup.input = call.input;
  setup.output = call.output;
  setup.input_layout = BlockLayout{call.element_size, call.elements, shape.segments, call.input_sizes};
  setup.output_layout = BlockLayout{call.element_size, call.elements, shape.segments, call.output_sizes};
  setup.reduction = call.reduction;
  setup.output_ready_at_start = call.collective == Coll::bcast && group.rank() == call.root;
  setup.window = ExecutionWindow{options.window_sends, options.window_receives};
  const CostParameters& machine = config().cost_parameters;
  setup.synchronous_send_bytes = synchronous_send_bytes(decision.between_nodes ? between_nodes(machine) : machine);
  setup.argument_check = start_argument_check(call, group, options);
  return setup;
}

// Starts a call the arena does not serve: its schedule on the group.
Launched launch_schedule(const CollectiveCall& call, const Decision& decision, const Group& group,
                         const Options& options) {
  ExecutionSetup setup = schedule_setup(call, decision, group, options);
  Launched launched;
  launched.layout = setup.output_layout;
  launched.map = ArrivalMap{call.collective, call.root, decision.segments, placement_of(setup.plan), call.grid,
                            group.rank()};
  launched.execution = Execution(std::move(setup), group, call.internal ? call.tag : group.next_tag());
  return launched;
}

// Blocking calls of at most this many bytes per contribution whose plan runs in lockstep skip the
// engine's per-action bookkeeping and run one round after the other (Execution::run_in_rounds):
// that bookkeeping is most of an 8-byte allreduce's time (docs/collectives.md "Engine"). Short
// messages travel eagerly, so a round's sends complete at once and
// waiting for the whole round costs nothing; longer ones keep the engine's overlap.
constexpr std::size_t round_by_round_bytes = 16 * 1024;

bool runs_round_by_round(const CollectiveCall& call, const ExecutionSetup& setup) {
  return !setup.argument_check && !call.input_sizes && !call.output_sizes &&
         call.elements * call.element_size <= round_by_round_bytes && runs_in_lockstep(*setup.plan);
}

// On a group of one member, collectives leave the buffer as it is (bcast, barrier, exscan, whose
// member 0 gets nothing) or copy its contribution to the output. Blocking uniform calls take this
// path instead of an algorithm's schedule, a fifth of its cost (docs/collectives.md "Groups");
// forced algorithms do not, so that forcing one still checks that it fits.
bool ran_alone(const CollectiveCall& call, const Options& options) {
  if (call.input_sizes || call.output_sizes || call.grid || !options.algorithm.empty() ||
      !config().forced_algorithms.empty()) {
    return false;
  }
  switch (call.collective) {
    case Coll::neighbor_alltoall:
      return false;
    case Coll::bcast:
    case Coll::barrier:
    case Coll::exscan:
      return true;
    default:
      if (call.elements > 0) {
        bulk_move(call.output, call.input, call.elements * call.element_size);
      }
      return true;
  }
}

}  // namespace

Launched launch(const CollectiveCall& call, const Group& group, const Options& options) {
  const Prepared prepared = prepare(call, group, options);
  if (!prepared.in_arena) {
    return launch_schedule(call, prepared.decision, group, options);
  }
  const std::uint32_t segments = prepared.decision.segments;
  Launched launched;
  launched.layout = BlockLayout{call.element_size, call.elements, segments, nullptr};
  launched.map = ArrivalMap{call.collective, call.root, segments, nullptr, nullptr, group.rank()};
  launched.execution =
      Execution(start_shared_memory_run(*prepared.in_arena, start_argument_check(call, group, options)));
  return launched;
}

void run(const CollectiveCall& call, const Group& group, const Options& options) {
  if (group.size() == 1) {
    check_root(call, group);
    if (ran_alone(call, options)) {
      return;
    }
  }
  const Prepared prepared = prepare(call, group, options);
  if (prepared.in_arena) {
    run_in_shared_memory(*prepared.in_arena, start_argument_check(call, group, options));
    return;
  }
  ExecutionSetup setup = schedule_setup(call, prepared.decision, group, options);
  const int tag = call.internal ? call.tag : group.next_tag();
  if (runs_round_by_round(call, setup)) {
    Execution::run_in_rounds(std::move(setup), group, tag);
    return;
  }
  Execution execution(std::move(setup), group, tag);
  while (!execution.progress()) {
  }
}

}  // namespace dash::comm::detail
