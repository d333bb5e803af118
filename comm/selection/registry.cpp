// The registry of collective algorithms (docs/collectives.md "Algorithms and selection").
//
// Map: segment counts and fitness rules (which calls an algorithm serves); the registry itself,
// named fields per algorithm: message schedules and arena runs per operation, then the
// topology-aware (Sack 2011 ch. 3) and the hierarchical ones; lookups (find, the names, the
// rules a call must pass); the registry as the schedule tests and explain() see it.

#include "selection/registry.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/alltoall.hpp>
#include <dash/comm/schedule/barrier.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/bucket.hpp>
#include <dash/comm/schedule/gather.hpp>
#include <dash/comm/schedule/neighbor_alltoall.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/recursive_doubling_order.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/scan.hpp>
#include <dash/comm/schedule/scatter.hpp>
#include <dash/comm/selection.hpp>

#include "arena/arena_rules.hpp"
#include "arena/collective_arena.hpp"

namespace dash::comm::selection {

namespace {

using schedule::Schedule;

std::uint32_t p2_segments(const CallFacts& facts) {
  return schedule::floor_pow2(static_cast<std::uint32_t>(facts.size));
}

std::uint32_t p_segments(const CallFacts& facts) { return static_cast<std::uint32_t>(facts.size); }

// A pipelined broadcast moves 32 KiB segments (at least one, at most 1024).
std::uint32_t pipeline_segments(const CallFacts& facts) {
  constexpr std::size_t segment_bytes = 32 * 1024;
  return static_cast<std::uint32_t>(std::clamp<std::size_t>(facts.bytes / segment_bytes, 1, 1024));
}

// The fewest chunks that fit the arena's slots (one when the contribution is empty). A staged
// broadcast shorter than the arena's slots together still takes one chunk per slot (of 4 KiB at
// least), so that the root stages the next chunk while the others copy one out; broadcasts long
// enough to stage take whole slots (measured: docs/collectives.md "Shared-memory collectives").
// Calls whose chunks the others read in place take larger chunks.
std::uint32_t shared_memory_segments(Coll collective, const CallFacts& facts, bool hierarchical = false) {
  if (facts.elements == 0) {
    return 1;
  }
  const std::size_t element_bytes = facts.bytes / facts.elements;
  std::size_t per_chunk =
      hierarchical ? detail::hierarchical_chunk_elements(collective, facts.nodes, element_bytes)
                   : detail::shared_memory_chunk_elements(collective, facts.size, element_bytes);
  const std::size_t in_place =
      hierarchical ? 0 : detail::in_place_chunk_elements(collective, facts.bytes, element_bytes, facts.size);
  if (in_place > 0) {
    per_chunk = in_place;
  } else if (collective == Coll::bcast && per_chunk > 0) {
    constexpr std::size_t slots = detail::CollectiveArena::slot_count;
    const std::size_t pipelined = std::max((facts.elements + slots - 1) / slots, 4096 / element_bytes);
    per_chunk = std::min(per_chunk, std::max<std::size_t>(pipelined, 1));
  }
  return static_cast<std::uint32_t>(std::min<std::size_t>((facts.elements + per_chunk - 1) / std::max<std::size_t>(per_chunk, 1),
                                                          std::numeric_limits<std::uint32_t>::max()));
}

template <Coll collective>
std::uint32_t arena_segments(const CallFacts& facts) {
  return shared_memory_segments(collective, facts);
}

template <Coll collective>
std::uint32_t hierarchy_segments(const CallFacts& facts) {
  return shared_memory_segments(collective, facts, true);
}

template <Coll collective>
std::string fits_arena(const CallFacts& facts) {
  if (!facts.no_shared_memory.empty()) {
    return std::string(facts.no_shared_memory);
  }
  if (facts.variable) {
    return "it needs contributions of one size";
  }
  if (facts.elements > 0 &&
      detail::shared_memory_chunk_elements(collective, facts.size, facts.bytes / facts.elements) == 0) {
    return "an element is larger than the arena's slot share";
  }
  if (const std::uint32_t needed = shared_memory_segments(collective, facts);
      facts.segments != 0 && facts.segments < needed) {
    return "its chunks must fit the arena's slots: it needs at least " + std::to_string(needed) +
           " segments, not " + std::to_string(facts.segments);
  }
  return {};
}

// The arena's rules on each node, and a job of several regular nodes.
template <Coll collective>
std::string fits_hierarchy(const CallFacts& facts) {
  if (!facts.no_hierarchy.empty()) {
    return std::string(facts.no_hierarchy);
  }
  if ((collective == Coll::allreduce || collective == Coll::reduce) && !facts.commutative) {
    return "it combines node by node, so it needs a commutative operation";
  }
  if (facts.variable) {
    return "it needs contributions of one size";
  }
  if (facts.elements > 0 &&
      detail::hierarchical_chunk_elements(collective, facts.nodes, facts.bytes / facts.elements) == 0) {
    return "an element is larger than the arena's slot share";
  }
  if (const std::uint32_t needed = shared_memory_segments(collective, facts, true);
      facts.segments != 0 && facts.segments < needed) {
    return "its chunks must fit the arena's slots: it needs at least " + std::to_string(needed) +
           " segments, not " + std::to_string(facts.segments);
  }
  return {};
}

std::string needs_commutative(const CallFacts& facts) {
  return facts.commutative ? std::string() : "it reorders contributions, so it needs a commutative operation";
}

std::string needs_power_of_two(const CallFacts& facts) {
  return std::has_single_bit(static_cast<unsigned>(facts.size))
             ? std::string()
             : "it needs a power-of-two group size, not " + std::to_string(facts.size);
}

std::string needs_even_size(const CallFacts& facts) {
  return facts.size % 2 == 0 ? std::string() : "it needs an even group size, not " + std::to_string(facts.size);
}

std::string topology_unfit_common(const CallFacts& facts) {
  if (facts.variable) {
    return "it needs contributions of one size";
  }
  if (!facts.commutative) {
    return "it reorders contributions, so it needs a commutative operation";
  }
  return {};
}

// Recursive doubling in the distance-halving order: any power-of-two group (its swap restores the order).
std::string fits_distance_halving(const CallFacts& facts) {
  std::string why = topology_unfit_common(facts);
  return why.empty() ? needs_power_of_two(facts) : why;
}

// The network's grid with one rank per node (all dimensions wrapping for six ways).
std::string needs_rank_grid(const CallFacts& facts, bool all_wrap) {
  if (std::string why = topology_unfit_common(facts); !why.empty()) {
    return why;
  }
  if (facts.network_grid == nullptr) {
    return "it runs on a torus or mesh whose nodes are the group's ranks (DASH_TOPOLOGY=torus:AxBxC with one "
           "rank per node: the world group, a team priced on its view of the network, or a hierarchical "
           "collective's rails)";
  }
  if (all_wrap) {
    for (const bool wraps : facts.network_grid->periodic()) {
      if (!wraps) {
        return "it needs wrap-around links in every dimension (a torus), and the grid is " +
               to_string(*facts.network);
      }
    }
  }
  return {};
}

std::string fits_torus_order(const CallFacts& facts) {
  std::string why = needs_rank_grid(facts, false);
  if (why.empty()) {
    for (const int extent : facts.network_grid->dims()) {
      if (!std::has_single_bit(static_cast<unsigned>(extent))) {
        return "it needs grid dimensions that are powers of two, and the grid is " + to_string(*facts.network);
      }
    }
  }
  return why;
}

std::string fits_bucket(const CallFacts& facts) { return needs_rank_grid(facts, false); }
std::string fits_six_way_bucket(const CallFacts& facts) { return needs_rank_grid(facts, true); }

std::uint32_t three_segments(const CallFacts&) { return 3; }
std::uint32_t six_segments(const CallFacts&) { return 6; }
std::uint32_t three_p_segments(const CallFacts& facts) { return 3 * static_cast<std::uint32_t>(facts.size); }
std::uint32_t six_p_segments(const CallFacts& facts) { return 6 * static_cast<std::uint32_t>(facts.size); }

// Orders of recursive doubling: distance halving for any group, the torus order from the grid.
std::vector<int> halving_order(const CollectiveShape& shape) { return schedule::distance_halving_order(shape.size); }
std::vector<int> grid_order(const CollectiveShape& shape) { return schedule::torus_order(shape.grid->dims()); }


std::vector<Algorithm> topology_algorithms() {
  using namespace schedule;
  // A generator of recursive doubling in a stage order, with the order taken from the shape.
  const auto in_order = [](Schedule (*generator)(const CollectiveShape&, int, std::span<const int>),
                           std::vector<int> (*order)(const CollectiveShape&)) {
    return [generator, order](const CollectiveShape& shape, int rank) {
      return generator(shape, rank, order(shape));
    };
  };
  const auto ways = [](Schedule (*generator)(const CollectiveShape&, int, int), int w) {
    return [generator, w](const CollectiveShape& shape, int rank) { return generator(shape, rank, w); };
  };
  const comm::detail::AlgorithmCost on_network = comm::detail::network_priced_cost;
  std::vector<Algorithm> table{
      {.collective = Coll::allgather, .name = "distance_halving",
       .generate = in_order(allgather_recursive_doubling_ordered, halving_order), .cost = on_network,
       .unfit = fits_distance_halving},
      {.collective = Coll::allgather, .name = "torus_order",
       .generate = in_order(allgather_recursive_doubling_ordered, grid_order), .cost = on_network,
       .unfit = fits_torus_order},
      {.collective = Coll::allgather, .name = "bucket", .generate = allgather_bucket, .cost = on_network,
       .unfit = fits_bucket},
      {.collective = Coll::allgather, .name = "bucket_3way", .generate = ways(allgather_bucket_multiport, 3),
       .segments = three_segments, .cost = on_network, .unfit = fits_bucket},
      {.collective = Coll::allgather, .name = "bucket_6way", .generate = ways(allgather_bucket_multiport, 6),
       .segments = six_segments, .cost = on_network, .unfit = fits_six_way_bucket},
      {.collective = Coll::reduce_scatter, .name = "distance_halving",
       .generate = in_order(reduce_scatter_recursive_halving_ordered, halving_order), .cost = on_network,
       .unfit = fits_distance_halving},
      {.collective = Coll::reduce_scatter, .name = "torus_order",
       .generate = in_order(reduce_scatter_recursive_halving_ordered, grid_order), .cost = on_network,
       .unfit = fits_torus_order},
      {.collective = Coll::reduce_scatter, .name = "bucket", .generate = reduce_scatter_bucket, .cost = on_network,
       .unfit = fits_bucket},
      {.collective = Coll::reduce_scatter, .name = "bucket_3way",
       .generate = ways(reduce_scatter_bucket_multiport, 3), .segments = three_segments, .cost = on_network,
       .unfit = fits_bucket},
      {.collective = Coll::reduce_scatter, .name = "bucket_6way",
       .generate = ways(reduce_scatter_bucket_multiport, 6), .segments = six_segments, .cost = on_network,
       .unfit = fits_six_way_bucket},
      {.collective = Coll::allreduce, .name = "distance_halving",
       .generate = in_order(allreduce_rabenseifner_ordered, halving_order), .segments = p_segments,
       .cost = on_network, .unfit = fits_distance_halving},
      {.collective = Coll::allreduce, .name = "torus_order",
       .generate = in_order(allreduce_rabenseifner_ordered, grid_order), .segments = p_segments, .cost = on_network,
       .unfit = fits_torus_order},
      {.collective = Coll::allreduce, .name = "bucket", .generate = allreduce_bucket, .segments = p_segments,
       .cost = on_network, .unfit = fits_bucket},
      {.collective = Coll::allreduce, .name = "bucket_3way", .generate = ways(allreduce_bucket_multiport, 3),
       .segments = three_p_segments, .cost = on_network, .unfit = fits_bucket},
      {.collective = Coll::allreduce, .name = "bucket_6way", .generate = ways(allreduce_bucket_multiport, 6),
       .segments = six_p_segments, .cost = on_network, .unfit = fits_six_way_bucket},
      {.collective = Coll::bcast, .name = "distance_halving",
       .generate = in_order(bcast_scatter_allgather_ordered, halving_order), .segments = p_segments,
       .cost = on_network, .unfit = fits_distance_halving},
      {.collective = Coll::bcast, .name = "torus_order",
       .generate = in_order(bcast_scatter_allgather_ordered, grid_order), .segments = p_segments,
       .cost = on_network, .unfit = fits_torus_order},
      {.collective = Coll::reduce, .name = "distance_halving",
       .generate = in_order(reduce_rabenseifner_ordered, halving_order), .segments = p_segments,
       .cost = on_network, .unfit = fits_distance_halving},
      {.collective = Coll::reduce, .name = "torus_order",
       .generate = in_order(reduce_rabenseifner_ordered, grid_order), .segments = p_segments, .cost = on_network,
       .unfit = fits_torus_order},
  };
  for (Algorithm& algorithm : table) {
    algorithm.topology = true;
  }
  return table;
}

// Runs in each node's arena with an inter-node stage on the rails.
std::vector<Algorithm> hierarchical_algorithms() {
  namespace costs = comm::detail;
  std::vector<Algorithm> table{
      {.collective = Coll::allreduce, .name = "hierarchical", .segments = hierarchy_segments<Coll::allreduce>,
       .cost = costs::allreduce_shared_memory_cost, .unfit = fits_hierarchy<Coll::allreduce>},
      {.collective = Coll::reduce, .name = "hierarchical", .segments = hierarchy_segments<Coll::reduce>,
       .cost = costs::allreduce_shared_memory_cost, .unfit = fits_hierarchy<Coll::reduce>},
      {.collective = Coll::allgather, .name = "hierarchical", .segments = hierarchy_segments<Coll::allgather>,
       .cost = costs::allgather_shared_memory_cost, .unfit = fits_hierarchy<Coll::allgather>},
      {.collective = Coll::bcast, .name = "hierarchical", .segments = hierarchy_segments<Coll::bcast>,
       .cost = costs::bcast_shared_memory_cost, .unfit = fits_hierarchy<Coll::bcast>},
  };
  for (Algorithm& algorithm : table) {
    algorithm.shared_memory = true;
    algorithm.hierarchical = true;
  }
  return table;
}

// The message schedules and arena runs of every operation, then the topology-aware and the
// hierarchical ones. Unnamed fields keep their defaults: one segment, fits every call, no flags.
std::vector<Algorithm> build_registry() {
  using namespace schedule;
  namespace costs = comm::detail;
  auto kary = [](const CollectiveShape& shape, int rank) { return bcast_kary_tree(shape, rank, 4); };
  auto knomial = [](int k) {
    return [k](const CollectiveShape& shape, int rank) { return reduce_knomial(shape, rank, k); };
  };
  std::vector<Algorithm> table{
      {.collective = Coll::allreduce, .name = "recursive_doubling", .generate = allreduce_recursive_doubling,
       .cost = costs::allreduce_recursive_doubling_cost},
      {.collective = Coll::allreduce, .name = "rabenseifner", .generate = allreduce_rabenseifner,
       .segments = p2_segments, .cost = costs::allreduce_rabenseifner_cost},
      {.collective = Coll::allreduce, .name = "binary_blocks", .generate = allreduce_binary_blocks,
       .segments = p2_segments, .cost = costs::allreduce_binary_blocks_cost},
      {.collective = Coll::allreduce, .name = "ring", .generate = allreduce_ring, .segments = p_segments,
       .cost = costs::allreduce_ring_cost, .unfit = needs_commutative},
      {.collective = Coll::allreduce, .name = "pairwise_ring", .generate = allreduce_pairwise_ring,
       .segments = p_segments, .cost = costs::allreduce_pairwise_ring_cost},
      {.collective = Coll::allreduce, .name = "shared_memory", .segments = arena_segments<Coll::allreduce>,
       .cost = costs::allreduce_shared_memory_cost, .unfit = fits_arena<Coll::allreduce>, .shared_memory = true},
      {.collective = Coll::allreduce, .name = "shared_memory_replicated",
       .segments = arena_segments<Coll::allreduce>, .cost = costs::allreduce_shared_memory_replicated_cost,
       .unfit = fits_arena<Coll::allreduce>, .shared_memory = true, .replicated = true},
      {.collective = Coll::allgather, .name = "sparbit", .generate = allgather_sparbit,
       .cost = costs::allgather_sparbit_cost},
      {.collective = Coll::allgather, .name = "ring", .generate = allgather_ring, .cost = costs::allgather_ring_cost},
      {.collective = Coll::allgather, .name = "recursive_doubling", .generate = allgather_recursive_doubling,
       .cost = costs::allgather_recursive_doubling_cost},
      {.collective = Coll::allgather, .name = "bruck", .generate = allgather_bruck,
       .cost = costs::allgather_bruck_cost},
      {.collective = Coll::allgather, .name = "bruck_noncanonical", .generate = allgather_bruck_noncanonical,
       .cost = costs::allgather_bruck_noncanonical_cost, .reorders_output = true},
      {.collective = Coll::allgather, .name = "neighbor_exchange", .generate = allgather_neighbor_exchange,
       .cost = costs::allgather_neighbor_exchange_cost, .unfit = needs_even_size},
      {.collective = Coll::allgather, .name = "shared_memory", .segments = arena_segments<Coll::allgather>,
       .cost = costs::allgather_shared_memory_cost, .unfit = fits_arena<Coll::allgather>, .shared_memory = true},
      {.collective = Coll::reduce_scatter, .name = "recursive_halving", .generate = reduce_scatter_recursive_halving,
       .cost = costs::reduce_scatter_recursive_halving_cost},
      {.collective = Coll::reduce_scatter, .name = "pairwise", .generate = reduce_scatter_pairwise,
       .cost = costs::reduce_scatter_pairwise_cost, .scratch_holds_own_blocks = true},
      {.collective = Coll::reduce_scatter, .name = "ring", .generate = reduce_scatter_ring,
       .cost = costs::reduce_scatter_ring_cost, .unfit = needs_commutative},
      {.collective = Coll::reduce_scatter, .name = "shared_memory", .segments = arena_segments<Coll::reduce_scatter>,
       .cost = costs::reduce_scatter_shared_memory_cost, .unfit = fits_arena<Coll::reduce_scatter>,
       .shared_memory = true},
      {.collective = Coll::alltoall, .name = "pairwise", .generate = alltoall_pairwise,
       .cost = costs::alltoall_pairwise_cost},
      {.collective = Coll::alltoall, .name = "bruck", .generate = alltoall_bruck, .cost = costs::alltoall_bruck_cost},
      {.collective = Coll::alltoall, .name = "bruck_noncanonical", .generate = alltoall_bruck_noncanonical,
       .cost = costs::alltoall_bruck_noncanonical_cost, .reorders_output = true},
      {.collective = Coll::alltoall, .name = "linear", .generate = alltoall_linear,
       .cost = costs::alltoall_linear_cost},
      {.collective = Coll::alltoall, .name = "one_factor", .generate = alltoall_one_factor,
       .cost = costs::alltoall_one_factor_cost},
      {.collective = Coll::alltoall, .name = "hypercube_xor", .generate = alltoall_hypercube_xor,
       .cost = costs::alltoall_hypercube_xor_cost, .unfit = needs_power_of_two},
      {.collective = Coll::alltoall, .name = "shared_memory", .segments = arena_segments<Coll::alltoall>,
       .cost = costs::alltoall_shared_memory_cost, .unfit = fits_arena<Coll::alltoall>, .shared_memory = true},
      {.collective = Coll::bcast, .name = "binomial", .generate = bcast_binomial, .cost = costs::bcast_binomial_cost},
      {.collective = Coll::bcast, .name = "scatter_allgather", .generate = bcast_scatter_allgather,
       .segments = p_segments, .cost = costs::bcast_scatter_allgather_cost},
      {.collective = Coll::bcast, .name = "pipelined_chain", .generate = bcast_pipelined_chain,
       .segments = pipeline_segments, .cost = costs::bcast_pipelined_chain_cost},
      {.collective = Coll::bcast, .name = "pipelined_binary_tree", .generate = bcast_pipelined_binary_tree,
       .segments = pipeline_segments, .cost = costs::bcast_pipelined_binary_tree_cost},
      {.collective = Coll::bcast, .name = "kary_tree", .generate = kary, .cost = costs::bcast_kary_tree_cost},
      {.collective = Coll::bcast, .name = "shared_memory", .segments = arena_segments<Coll::bcast>,
       .cost = costs::bcast_shared_memory_cost, .unfit = fits_arena<Coll::bcast>, .shared_memory = true},
      {.collective = Coll::reduce, .name = "binomial", .generate = reduce_binomial,
       .cost = costs::reduce_binomial_cost},
      {.collective = Coll::reduce, .name = "knomial_4", .generate = knomial(4), .cost = costs::reduce_knomial_4_cost},
      {.collective = Coll::reduce, .name = "knomial_8", .generate = knomial(8), .cost = costs::reduce_knomial_8_cost},
      {.collective = Coll::reduce, .name = "rabenseifner", .generate = reduce_rabenseifner, .segments = p2_segments,
       .cost = costs::reduce_rabenseifner_cost},
      {.collective = Coll::gather, .name = "binomial", .generate = gather_binomial,
       .cost = costs::gather_binomial_cost},
      {.collective = Coll::gather, .name = "linear", .generate = gather_linear, .cost = costs::gather_linear_cost},
      {.collective = Coll::scatter, .name = "binomial", .generate = scatter_binomial,
       .cost = costs::scatter_binomial_cost},
      {.collective = Coll::scatter, .name = "linear", .generate = scatter_linear, .cost = costs::scatter_linear_cost},
      {.collective = Coll::scan, .name = "recursive_doubling", .generate = scan_recursive_doubling,
       .cost = costs::scan_recursive_doubling_cost},
      {.collective = Coll::scan, .name = "linear", .generate = scan_linear, .cost = costs::scan_linear_cost},
      {.collective = Coll::exscan, .name = "recursive_doubling", .generate = exscan_recursive_doubling,
       .cost = costs::exscan_recursive_doubling_cost},
      {.collective = Coll::exscan, .name = "linear", .generate = exscan_linear, .cost = costs::exscan_linear_cost},
      {.collective = Coll::barrier, .name = "dissemination", .generate = barrier_dissemination,
       .cost = costs::barrier_dissemination_cost},
      {.collective = Coll::neighbor_alltoall, .name = "direct", .generate = neighbor_alltoall_direct,
       .cost = costs::neighbor_alltoall_direct_cost},
  };
  for (std::vector<Algorithm> more : {topology_algorithms(), hierarchical_algorithms()}) {
    for (Algorithm& algorithm : more) {
      table.push_back(std::move(algorithm));
    }
  }
  return table;
}

}  // namespace

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> table = build_registry();
  return table;
}

const Algorithm* find(Coll collective, std::string_view name) {
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective == collective && algorithm.name == name) {
      return &algorithm;
    }
  }
  return nullptr;
}

std::string known_names(Coll collective) {
  std::string names;
  for (const std::string_view name : algorithms(collective)) {
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

std::string why_unfit(const Algorithm& algorithm, const CallFacts& facts) {
  if (algorithm.reorders_output && facts.variable) {
    return "it reorders blocks, which variable-size collectives do not support";
  }
  if (algorithm.reorders_output && facts.canonical) {
    return "it leaves the output in arrival order; set Options::canonical_placement = false to accept that";
  }
  return algorithm.unfit(facts);
}

std::uint32_t segments_of(const Algorithm& algorithm, const CallFacts& facts) {
  return facts.segments != 0 ? facts.segments : algorithm.segments(facts);
}

detail::CostShape cost_shape(const Algorithm& algorithm, const CallFacts& facts) {
  return detail::CostShape{facts.size, segments_of(algorithm, facts), facts.grid};
}

// Besides why_unfit: a variable-size call cannot lay out other ranks' blocks in scratch space
// (launch() checks a forced algorithm on its plan). Reads only facts equal on every rank, so every
// rank weighs the same candidates.
std::string why_no_candidate(const Algorithm& algorithm, const CallFacts& facts) {
  std::string why = why_unfit(algorithm, facts);
  if (why.empty() && algorithm.topology && facts.network == nullptr) {
    why = "the library chooses it only where it can price it: on a network DASH_TOPOLOGY describes, one rank per "
          "node, on the world group, a team priced on its view of the network, or a hierarchical collective's "
          "rails (it can be forced on any group it fits)";
  }
  const bool scratch_fits_layout = algorithm.scratch_holds_own_blocks && !facts.output_varies;
  if (why.empty() && facts.variable && !scratch_fits_layout &&
      algorithm.cost.uses_scratch(cost_shape(algorithm, facts))) {
    why = "it stages blocks in scratch space, which variable-size collectives do not support";
  }
  return why;
}

}  // namespace dash::comm::selection

namespace dash::comm {

std::vector<std::string_view> algorithms(Coll collective) {
  std::vector<std::string_view> names;
  for (const selection::Algorithm& algorithm : selection::registry()) {
    if (algorithm.collective == collective) {
      names.push_back(algorithm.name);
    }
  }
  return names;
}

namespace detail {

std::function<schedule::Schedule(const CollectiveShape&, int)> schedule_generator(Coll collective,
                                                                                  std::string_view algorithm) {
  const selection::Algorithm* found = selection::find(collective, algorithm);
  return found != nullptr && !found->shared_memory ? found->generate : nullptr;
}

std::vector<RegisteredAlgorithm> registered_algorithms(Coll collective) {
  std::vector<RegisteredAlgorithm> found;
  for (const selection::Algorithm& algorithm : selection::registry()) {
    if (algorithm.collective == collective && !algorithm.shared_memory && !algorithm.topology) {
      auto unfit = [&algorithm](int size, bool commutative) {
        return algorithm.unfit(selection::CallFacts{.size = size, .commutative = commutative});
      };
      found.push_back({algorithm.name, algorithm.generate, algorithm.cost, algorithm.reorders_output, unfit});
    }
  }
  return found;
}

}  // namespace detail

}  // namespace dash::comm
