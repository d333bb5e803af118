// Selection and launch of the collectives (docs/collectives.md "Algorithms and selection").
//
// Map: CallFacts (what selection reads: the call, and the group's paths: arena, hierarchy,
// network) and the registry of algorithms with their segment counts and fitness rules; pricing
// (closed forms, network_cost on DASH_TOPOLOGY's network, hierarchical runs as arena plus rails)
// and the library's choice, kept per call shape; explain(); plans kept per call shape; the
// cross-rank argument check; decide, prepare and launch: a decision kept per group and call
// shape, then an arena run (shared_memory_run.hpp), the schedule on the engine, or (short blocking
// calls on plans in lockstep) the schedule round by round.

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <dash/comm/algorithms.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/detail/algorithm_costs.hpp>
#include <dash/comm/detail/bulk_copy.hpp>
#include <dash/comm/detail/collective_arena.hpp>
#include <dash/comm/detail/group_paths.hpp>
#include <dash/comm/detail/launch.hpp>
#include <dash/comm/detail/local_failure_report.hpp>
#include <dash/comm/detail/node_hierarchy.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/network_cost.hpp>
#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/alltoall.hpp>
#include <dash/comm/schedule/barrier.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/bucket.hpp>
#include <dash/comm/schedule/gather.hpp>
#include <dash/comm/schedule/neighbor_alltoall.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/recursive_doubling_order.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/scan.hpp>
#include <dash/comm/schedule/scatter.hpp>
#include <dash/comm/uniform_check.hpp>

#include "../group_state.hpp"
#include "shared_memory_run.hpp"

namespace dash::comm {

namespace {

using detail::RankNetwork;
using schedule::Schedule;

// What selection may look at: the same on every rank of a correct call, except the sizes of a
// variable-size call (the rank's own contribution), which selection therefore does not price.
struct CallFacts {
  int size = 1;
  std::size_t bytes = 0;     // per contribution
  std::size_t elements = 0;  // per contribution
  bool commutative = true;
  bool variable = false;     // contributions of different sizes (allgatherv, alltoallv, reduce_scatter)
  bool canonical = true;     // the caller needs canonical placement
  bool output_varies = false;           // the output's contributions differ in size (allgatherv, alltoallv)
  std::uint32_t segments = 0;           // Options::segments; 0: the algorithm's own
  const CartesianGrid* grid = nullptr;  // neighbor_alltoall's process grid
  std::string_view no_shared_memory{};  // why the group cannot use the node's collective arena; empty if it can
  std::string_view no_hierarchy{};      // why the call cannot run hierarchically (group_paths.hpp); empty if it can
  // Where it can: the group's nodes and members per node, and the network its rails are priced on.
  int nodes = 1;
  int node_size = 1;
  RankNetwork rail_network{};
  // The network of DASH_TOPOLOGY when the group's ranks are its nodes, one rank per node (the world group of a
  // job with as many ranks as the grid has nodes, or of a Clos network); null otherwise. Then every candidate is
  // priced on it (network_cost.hpp), and the topology-aware algorithms become candidates.
  const Network* network = nullptr;
  // The grid of that network as a process grid, for the bucket algorithms; null unless it is a grid.
  std::shared_ptr<const CartesianGrid> network_grid{};
  // The group spans nodes (group_paths.hpp): its messages are priced with alpha_net and beta_net.
  bool between_nodes = false;
};

struct Algorithm {
  Coll collective;
  std::string_view name;
  std::function<Schedule(const CollectiveShape&, int)> generate;
  // Segments per contribution the algorithm works with.
  std::function<std::uint32_t(const CallFacts&)> segments;
  // Its schedules' critical path and copies in closed form (algorithm_costs.hpp), which selection prices.
  detail::AlgorithmCost cost;
  // Why the algorithm cannot serve the call; empty when it can.
  std::function<std::string(const CallFacts&)> unfit;
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

std::uint32_t one_segment(const CallFacts&) { return 1; }

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
// least), so that the root stages the next chunk while the others copy one out (P = 2, 256 KiB:
// about 20 us in four chunks, 100 us in one). Broadcasts long enough to stage (above 4 MiB where
// the others could read in place) take whole slots: P = 2, cores one core complex apart, ratio to
// Open MPI 2.27-2.43 at 8 MiB, 2.55-2.60 at 16 MiB and 2.22-2.33 at 64 MiB in 256 KiB chunks
// against 1.46-1.87, 1.73-2.16 and 1.67 (one run, the cores moved during it) in 64 KiB ones.
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

std::string fits_always(const CallFacts&) { return {}; }

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
  const comm::detail::AlgorithmCost priced_on_network = comm::detail::network_priced_cost;
  auto entry = [&](Coll collective, std::string_view name, std::function<Schedule(const CollectiveShape&, int)> generate,
                   std::uint32_t (*segments)(const CallFacts&), std::string (*unfit)(const CallFacts&)) {
    Algorithm algorithm{collective, name, std::move(generate), segments, priced_on_network, unfit};
    algorithm.topology = true;
    return algorithm;
  };
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
  return {
      entry(Coll::allgather, "distance_halving", in_order(allgather_recursive_doubling_ordered, halving_order),
            one_segment, fits_distance_halving),
      entry(Coll::allgather, "torus_order", in_order(allgather_recursive_doubling_ordered, grid_order),
            one_segment, fits_torus_order),
      entry(Coll::allgather, "bucket", allgather_bucket, one_segment, fits_bucket),
      entry(Coll::allgather, "bucket_3way", ways(allgather_bucket_multiport, 3), three_segments, fits_bucket),
      entry(Coll::allgather, "bucket_6way", ways(allgather_bucket_multiport, 6), six_segments, fits_six_way_bucket),
      entry(Coll::reduce_scatter, "distance_halving",
            in_order(reduce_scatter_recursive_halving_ordered, halving_order), one_segment, fits_distance_halving),
      entry(Coll::reduce_scatter, "torus_order", in_order(reduce_scatter_recursive_halving_ordered, grid_order),
            one_segment, fits_torus_order),
      entry(Coll::reduce_scatter, "bucket", reduce_scatter_bucket, one_segment, fits_bucket),
      entry(Coll::reduce_scatter, "bucket_3way", ways(reduce_scatter_bucket_multiport, 3), three_segments,
            fits_bucket),
      entry(Coll::reduce_scatter, "bucket_6way", ways(reduce_scatter_bucket_multiport, 6), six_segments,
            fits_six_way_bucket),
      entry(Coll::allreduce, "distance_halving", in_order(allreduce_rabenseifner_ordered, halving_order),
            p_segments, fits_distance_halving),
      entry(Coll::allreduce, "torus_order", in_order(allreduce_rabenseifner_ordered, grid_order),
            p_segments, fits_torus_order),
      entry(Coll::allreduce, "bucket", allreduce_bucket, p_segments, fits_bucket),
      entry(Coll::allreduce, "bucket_3way", ways(allreduce_bucket_multiport, 3), three_p_segments, fits_bucket),
      entry(Coll::allreduce, "bucket_6way", ways(allreduce_bucket_multiport, 6), six_p_segments,
            fits_six_way_bucket),
      entry(Coll::bcast, "distance_halving", in_order(bcast_scatter_allgather_ordered, halving_order),
            p_segments, fits_distance_halving),
      entry(Coll::bcast, "torus_order", in_order(bcast_scatter_allgather_ordered, grid_order),
            p_segments, fits_torus_order),
      entry(Coll::reduce, "distance_halving", in_order(reduce_rabenseifner_ordered, halving_order),
            p_segments, fits_distance_halving),
      entry(Coll::reduce, "torus_order", in_order(reduce_rabenseifner_ordered, grid_order),
            p_segments, fits_torus_order),
  };
}

std::vector<Algorithm> build_registry() {
  using namespace schedule;
  namespace costs = comm::detail;
  auto kary = [](const CollectiveShape& shape, int rank) { return bcast_kary_tree(shape, rank, 4); };
  auto knomial = [](int k) {
    return [k](const CollectiveShape& shape, int rank) { return reduce_knomial(shape, rank, k); };
  };
  std::vector<Algorithm> table{
      {Coll::allreduce, "recursive_doubling", allreduce_recursive_doubling, one_segment,
       costs::allreduce_recursive_doubling_cost, fits_always},
      {Coll::allreduce, "rabenseifner", allreduce_rabenseifner, p2_segments,
       costs::allreduce_rabenseifner_cost, fits_always},
      {Coll::allreduce, "binary_blocks", allreduce_binary_blocks, p2_segments,
       costs::allreduce_binary_blocks_cost, fits_always},
      {Coll::allreduce, "ring", allreduce_ring, p_segments, costs::allreduce_ring_cost, needs_commutative},
      {Coll::allreduce, "pairwise_ring", allreduce_pairwise_ring, p_segments,
       costs::allreduce_pairwise_ring_cost, fits_always},
      {Coll::allreduce, "shared_memory", {}, arena_segments<Coll::allreduce>, costs::allreduce_shared_memory_cost,
       fits_arena<Coll::allreduce>, false, false, true},
      {Coll::allreduce, "shared_memory_replicated", {}, arena_segments<Coll::allreduce>,
       costs::allreduce_shared_memory_replicated_cost, fits_arena<Coll::allreduce>, false, false, true, false, true},
      {Coll::allgather, "sparbit", allgather_sparbit, one_segment, costs::allgather_sparbit_cost, fits_always},
      {Coll::allgather, "ring", allgather_ring, one_segment, costs::allgather_ring_cost, fits_always},
      {Coll::allgather, "recursive_doubling", allgather_recursive_doubling, one_segment,
       costs::allgather_recursive_doubling_cost, fits_always},
      {Coll::allgather, "bruck", allgather_bruck, one_segment, costs::allgather_bruck_cost, fits_always},
      {Coll::allgather, "bruck_noncanonical", allgather_bruck_noncanonical, one_segment,
       costs::allgather_bruck_noncanonical_cost, fits_always, true},
      {Coll::allgather, "neighbor_exchange", allgather_neighbor_exchange, one_segment,
       costs::allgather_neighbor_exchange_cost, needs_even_size},
      {Coll::allgather, "shared_memory", {}, arena_segments<Coll::allgather>, costs::allgather_shared_memory_cost,
       fits_arena<Coll::allgather>, false, false, true},
      {Coll::reduce_scatter, "recursive_halving", reduce_scatter_recursive_halving, one_segment,
       costs::reduce_scatter_recursive_halving_cost, fits_always},
      {Coll::reduce_scatter, "pairwise", reduce_scatter_pairwise, one_segment,
       costs::reduce_scatter_pairwise_cost, fits_always, false, true},
      {Coll::reduce_scatter, "ring", reduce_scatter_ring, one_segment,
       costs::reduce_scatter_ring_cost, needs_commutative},
      {Coll::reduce_scatter, "shared_memory", {}, arena_segments<Coll::reduce_scatter>,
       costs::reduce_scatter_shared_memory_cost, fits_arena<Coll::reduce_scatter>, false, false, true},
      {Coll::alltoall, "pairwise", alltoall_pairwise, one_segment, costs::alltoall_pairwise_cost, fits_always},
      {Coll::alltoall, "bruck", alltoall_bruck, one_segment, costs::alltoall_bruck_cost, fits_always},
      {Coll::alltoall, "bruck_noncanonical", alltoall_bruck_noncanonical, one_segment,
       costs::alltoall_bruck_noncanonical_cost, fits_always, true},
      {Coll::alltoall, "linear", alltoall_linear, one_segment, costs::alltoall_linear_cost, fits_always},
      {Coll::alltoall, "one_factor", alltoall_one_factor, one_segment, costs::alltoall_one_factor_cost, fits_always},
      {Coll::alltoall, "hypercube_xor", alltoall_hypercube_xor, one_segment,
       costs::alltoall_hypercube_xor_cost, needs_power_of_two},
      {Coll::alltoall, "shared_memory", {}, arena_segments<Coll::alltoall>, costs::alltoall_shared_memory_cost,
       fits_arena<Coll::alltoall>, false, false, true},
      {Coll::bcast, "binomial", bcast_binomial, one_segment, costs::bcast_binomial_cost, fits_always},
      {Coll::bcast, "scatter_allgather", bcast_scatter_allgather, p_segments,
       costs::bcast_scatter_allgather_cost, fits_always},
      {Coll::bcast, "pipelined_chain", bcast_pipelined_chain, pipeline_segments,
       costs::bcast_pipelined_chain_cost, fits_always},
      {Coll::bcast, "pipelined_binary_tree", bcast_pipelined_binary_tree, pipeline_segments,
       costs::bcast_pipelined_binary_tree_cost, fits_always},
      {Coll::bcast, "kary_tree", kary, one_segment, costs::bcast_kary_tree_cost, fits_always},
      {Coll::bcast, "shared_memory", {}, arena_segments<Coll::bcast>, costs::bcast_shared_memory_cost,
       fits_arena<Coll::bcast>, false, false, true},
      {Coll::reduce, "binomial", reduce_binomial, one_segment, costs::reduce_binomial_cost, fits_always},
      {Coll::reduce, "knomial_4", knomial(4), one_segment, costs::reduce_knomial_4_cost, fits_always},
      {Coll::reduce, "knomial_8", knomial(8), one_segment, costs::reduce_knomial_8_cost, fits_always},
      {Coll::reduce, "rabenseifner", reduce_rabenseifner, p2_segments, costs::reduce_rabenseifner_cost, fits_always},
      {Coll::gather, "binomial", gather_binomial, one_segment, costs::gather_binomial_cost, fits_always},
      {Coll::gather, "linear", gather_linear, one_segment, costs::gather_linear_cost, fits_always},
      {Coll::scatter, "binomial", scatter_binomial, one_segment, costs::scatter_binomial_cost, fits_always},
      {Coll::scatter, "linear", scatter_linear, one_segment, costs::scatter_linear_cost, fits_always},
      {Coll::scan, "recursive_doubling", scan_recursive_doubling, one_segment,
       costs::scan_recursive_doubling_cost, fits_always},
      {Coll::scan, "linear", scan_linear, one_segment, costs::scan_linear_cost, fits_always},
      {Coll::exscan, "recursive_doubling", exscan_recursive_doubling, one_segment,
       costs::exscan_recursive_doubling_cost, fits_always},
      {Coll::exscan, "linear", exscan_linear, one_segment, costs::exscan_linear_cost, fits_always},
      {Coll::barrier, "dissemination", barrier_dissemination, one_segment,
       costs::barrier_dissemination_cost, fits_always},
      {Coll::neighbor_alltoall, "direct", neighbor_alltoall_direct, one_segment,
       costs::neighbor_alltoall_direct_cost, fits_always},
  };
  for (Algorithm& algorithm : topology_algorithms()) {
    table.push_back(std::move(algorithm));
  }
  for (Algorithm hierarchical : {
           Algorithm{Coll::allreduce, "hierarchical", {}, hierarchy_segments<Coll::allreduce>,
                     costs::allreduce_shared_memory_cost, fits_hierarchy<Coll::allreduce>},
           Algorithm{Coll::reduce, "hierarchical", {}, hierarchy_segments<Coll::reduce>,
                     costs::allreduce_shared_memory_cost, fits_hierarchy<Coll::reduce>},
           Algorithm{Coll::allgather, "hierarchical", {}, hierarchy_segments<Coll::allgather>,
                     costs::allgather_shared_memory_cost, fits_hierarchy<Coll::allgather>},
           Algorithm{Coll::bcast, "hierarchical", {}, hierarchy_segments<Coll::bcast>, costs::bcast_shared_memory_cost,
                     fits_hierarchy<Coll::bcast>},
       }) {
    hierarchical.shared_memory = true;
    hierarchical.hierarchical = true;
    table.push_back(std::move(hierarchical));
  }
  return table;
}

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

std::string upper(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

std::string known_names(Coll collective) {
  std::string names;
  for (const std::string_view name : algorithms(collective)) {
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

// Why `algorithm` cannot serve a call with these facts; empty when it can. The rules a forced
// algorithm must pass too.
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

// Why `algorithm` is no candidate for the library's own choice; empty when it is one. Besides
// why_unfit: a variable-size call cannot lay out other ranks' blocks in scratch space (launch()
// checks a forced algorithm on its plan). Reads only facts equal on every rank, so every rank
// weighs the same candidates.
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

// DASH_TOPOLOGY's network when the group's ranks are its nodes, one rank per node, as Sack 2011
// assumes: the world group on a grid of as many nodes as it has ranks, or on a Clos network with
// every rank on a node of its own (or all on one machine standing in for the nodes); or a rail of
// a job with several processes per node (node_hierarchy.hpp), whose rank i is on node i. The
// rails of a node share its links; each is priced as if alone, which scales the bandwidth of all
// its candidates alike. A team, or a team's rail, whose members sit alone on their nodes is priced
// on its view of the network (group_paths.hpp).
RankNetwork rank_network(const Group& group) {
  const Network& network = config().network;
  if (network.kind == NetworkKind::flat) {
    return {};
  }
  const bool rail = detail::is_rail(group);
  if (!rail && !group.is_world()) {
    return detail::team_network_of(group);
  }
  if (network.kind == NetworkKind::clos) {
    const Locality& place = locality();
    return rail || place.node_size == 1 || place.node_count == 1 ? RankNetwork{&network, nullptr} : RankNetwork{};
  }
  if (network.grid_nodes() != group.size()) {
    return {};
  }
  static std::pair<Network, std::shared_ptr<const CartesianGrid>> grid;
  if (!grid.second || grid.first != network) {
    grid = {network, std::make_shared<const CartesianGrid>(network.dims, network.wrap)};
  }
  return {&network, grid.second};
}

// What selection reads of the group besides its size: whether the node arena or the hierarchical
// algorithms serve it (the shared-memory rules of group_paths.hpp, unless its ranks stand for the
// nodes of a network), and the network its ranks or its rails are priced on.
void add_group_facts(CallFacts& facts, const Group& group) {
  facts.between_nodes = detail::spans_nodes(group);
  const RankNetwork ranks_as_nodes = rank_network(group);
  facts.network = ranks_as_nodes.network;
  facts.network_grid = ranks_as_nodes.grid;
  if (ranks_as_nodes.network != nullptr) {
    facts.no_shared_memory = detail::ranks_are_nodes;
    facts.no_hierarchy = detail::ranks_are_nodes;
    return;
  }
  facts.no_shared_memory = detail::arena_unfit(group);
  facts.no_hierarchy = detail::hierarchy_unfit(group);
  if (const std::optional<detail::Hierarchy> hierarchy = detail::hierarchy_of(group)) {
    facts.nodes = hierarchy->nodes;
    facts.node_size = hierarchy->node_size;
    facts.rail_network = rank_network(*hierarchy->rail);
  }
}

// The shape a call of `algorithm` runs with: the topology-aware ones on the network's grid.
CollectiveShape shape_of(const Algorithm& algorithm, const CallFacts& facts, std::uint32_t segments) {
  CollectiveShape shape;
  shape.collective = algorithm.collective;
  shape.size = facts.size;
  shape.segments = segments;
  shape.op.commutative = facts.commutative;
  if (algorithm.topology) {
    shape.grid = facts.network_grid;
  }
  return shape;
}

struct Pricing {
  std::size_t block_bytes = 0;
  CostTerms terms;
  double seconds = 0;
};

Pricing price_hierarchical(const Algorithm& algorithm, const CallFacts& facts, const CostParameters& parameters);

// The cost model's prediction for `algorithm` on this call. Blocks are priced at the largest
// segment, ⌈n / S⌉ elements. Variable-size calls are priced by their start-ups alone: their sizes
// differ between ranks, and every rank must choose alike. A group on several nodes pays the
// network's start-ups and bytes.
Pricing price(const Algorithm& algorithm, const CallFacts& facts, const CostParameters& machine) {
  if (algorithm.hierarchical) {
    return price_hierarchical(algorithm, facts, machine);
  }
  const CostParameters parameters = facts.between_nodes ? between_nodes(machine) : machine;
  const detail::CostShape shape = cost_shape(algorithm, facts);
  Pricing pricing;
  if (!facts.variable && facts.elements > 0) {
    pricing.block_bytes = (facts.elements + shape.segments - 1) / shape.segments * (facts.bytes / facts.elements);
  }
  if (facts.network != nullptr && !facts.variable) {
    // Sack 2011 §3.1: start-ups (alpha) and the busiest link's blocks per stage (beta per byte),
    // plus the local combining and copying the flat closed forms price as well (gamma, delta).
    const CollectiveShape call_shape = shape_of(algorithm, facts, shape.segments);
    // A grid node drives all its links at once (Sack 2011 §3.1): the multi-port buckets use them.
    const NetworkCostOptions ports{.multi_port = facts.network->kind == NetworkKind::grid};
    const NetworkCostTerms network = network_cost(
        call_shape, [&](int rank) { return algorithm.generate(call_shape, rank); }, *facts.network, ports);
    pricing.terms = CostTerms{network.startups, network.link_blocks, network.reduced_blocks, network.copied_blocks};
    // Queued sends are the processor's, whatever the network: the closed form's, where there is one.
    pricing.terms.queued_sends = algorithm.cost.terms != nullptr ? algorithm.cost.terms(shape).queued_sends : 0;
  } else {
    pricing.terms = algorithm.cost.terms(shape);
  }
  pricing.seconds = predicted_seconds(pricing.terms, pricing.block_bytes, parameters);
  return pricing;
}

// The candidate with the lowest predicted time; a tie goes to the one registered first.
const Algorithm* cheapest(std::string_view function, Coll collective, const CallFacts& facts) {
  const CostParameters& parameters = config().cost_parameters;
  const Algorithm* best = nullptr;
  double best_seconds = 0;
  std::string refusals;
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective != collective) {
      continue;
    }
    if (const std::string why = why_no_candidate(algorithm, facts); !why.empty()) {
      refusals += (refusals.empty() ? "" : "; ") + std::string(algorithm.name) + ": " + why;
      continue;
    }
    const double seconds = price(algorithm, facts, parameters).seconds;
    if (best == nullptr || seconds < best_seconds) {
      best = &algorithm;
      best_seconds = seconds;
    }
  }
  if (best == nullptr) {
    throw InvalidArgument(std::string(function) + ": no algorithm of " + std::string(to_string(collective)) +
                          " can serve this call (" + refusals + ")");
  }
  return best;
}

// A hierarchical run: its arena algorithm on a node's k members, plus one collective per chunk on
// the rail (allreduce or reduce of the member's piece, allgather or bcast of the chunk), priced as
// the rail's own call will choose it. An allgather's arena blocks are a chunk of every node's
// block. The stages overlap chunk by chunk; the sum is the serial bound.
Pricing price_hierarchical(const Algorithm& algorithm, const CallFacts& facts, const CostParameters& parameters) {
  const std::uint32_t chunks = segments_of(algorithm, facts);
  Pricing pricing;
  pricing.terms = algorithm.cost.terms(detail::CostShape{facts.node_size, chunks});
  const std::size_t element_bytes = facts.elements > 0 ? facts.bytes / facts.elements : 0;
  const std::size_t chunk_elements = (facts.elements + chunks - 1) / chunks;
  pricing.block_bytes = chunk_elements * element_bytes;
  if (algorithm.collective == Coll::allgather) {
    pricing.block_bytes *= static_cast<std::size_t>(facts.nodes);
  }
  pricing.seconds = predicted_seconds(pricing.terms, pricing.block_bytes, parameters);
  const bool pieces = algorithm.collective == Coll::allreduce || algorithm.collective == Coll::reduce;
  const auto rails = static_cast<std::size_t>(detail::rail_pieces(chunk_elements * element_bytes, facts.node_size));
  const std::size_t rail_elements = pieces ? (chunk_elements + rails - 1) / rails : chunk_elements;
  const RankNetwork& rail_network = facts.rail_network;
  const CallFacts rail_facts{.size = facts.nodes,
                             .bytes = rail_elements * element_bytes,
                             .elements = rail_elements,
                             .commutative = facts.commutative,
                             .no_shared_memory = "the rails span nodes",
                             .no_hierarchy = "the rails span nodes",
                             .network = rail_network.network,
                             .network_grid = rail_network.grid,
                             .between_nodes = true};
  const Algorithm& on_rail = *cheapest("dash::comm::explain", algorithm.collective, rail_facts);
  const Pricing rail = price(on_rail, rail_facts, parameters);
  // The rail's blocks in units of the node's.
  const double scale = pricing.block_bytes > 0
                           ? static_cast<double>(rail.block_bytes) / static_cast<double>(pricing.block_bytes)
                           : 0;
  pricing.terms.startups += chunks * rail.terms.startups;
  pricing.terms.blocks += chunks * rail.terms.blocks * scale;
  pricing.terms.reduced_blocks += chunks * rail.terms.reduced_blocks * scale;
  pricing.terms.copied_blocks += chunks * rail.terms.copied_blocks * scale;
  pricing.seconds += chunks * rail.seconds;
  return pricing;
}

// The call shapes a choice depends on (a variable-size call's sizes do not count, see price()).
struct ChoiceKey {
  Coll collective;
  int size;
  std::size_t bytes;
  std::size_t elements;
  std::uint32_t segments;
  bool commutative;
  bool variable;
  bool canonical;
  bool output_varies;
  // Groups of one size differ in whether the arena serves them, and whether they run
  // hierarchically, on nodes of how many members.
  bool arena;
  bool hierarchy;
  int node_size;
  bool between_nodes;
  CostParameters parameters;
  // The descriptors of the networks the group's ranks and its rails are priced on ("" for none).
  std::string network;
  std::string rail_network;
  friend bool operator==(const ChoiceKey&, const ChoiceKey&) = default;
};

struct ChoiceKeyHash {
  std::size_t operator()(const ChoiceKey& key) const noexcept {
    std::size_t hash = static_cast<std::size_t>(key.collective);
    for (const std::size_t part :
         {static_cast<std::size_t>(key.size), key.bytes, key.elements, std::size_t{key.segments},
          std::size_t{key.commutative} | std::size_t{key.variable} << 1 | std::size_t{key.canonical} << 2 |
              std::size_t{key.output_varies} << 3 | std::size_t{key.arena} << 4 |
              std::size_t{key.hierarchy} << 5 | std::size_t{key.between_nodes} << 6,
          static_cast<std::size_t>(key.node_size)}) {
      hash = hash * 1000003u ^ part;
    }
    return hash;
  }
};

// The descriptor of `network` ("" for none), formatted once per network rather than once per call:
// a few recent ones are kept (a team's view and its rails' differ from the world group's).
const std::string& network_descriptor(const Network* network) {
  static const std::string none;
  if (network == nullptr) {
    return none;
  }
  static std::array<std::optional<std::pair<Network, std::string>>, 4> recent;
  static std::size_t next = 0;
  for (const auto& entry : recent) {
    if (entry && entry->first == *network) {
      return entry->second;
    }
  }
  std::optional<std::pair<Network, std::string>>& entry = recent[next++ % recent.size()];
  entry.emplace(*network, to_string(*network));
  return entry->second;
}

// The library's own choice. Pricing a call allocates (error texts of unfit candidates, binary
// blocks' per-rank clocks), so choices are kept per call shape; calls on a grid are priced afresh
// (neighbor_alltoall has one algorithm, and the grid is not part of the key).
const Algorithm* library_choice(std::string_view function, Coll collective, const CallFacts& facts) {
  if (facts.grid != nullptr) {
    return cheapest(function, collective, facts);
  }
  // Collectives are called from one thread at a time (docs/configuration.md), so no lock.
  static std::unordered_map<ChoiceKey, const Algorithm*, ChoiceKeyHash> choices;
  // A loop of one call shape (the common case) skips hashing.
  static std::optional<std::pair<ChoiceKey, const Algorithm*>> last;
  constexpr std::size_t capacity = 256;
  const ChoiceKey key{collective,
                      facts.size,
                      facts.variable ? 0 : facts.bytes,
                      facts.variable ? 0 : facts.elements,
                      facts.segments,
                      facts.commutative,
                      facts.variable,
                      facts.canonical,
                      facts.output_varies,
                      facts.no_shared_memory.empty(),
                      facts.no_hierarchy.empty(),
                      facts.no_hierarchy.empty() ? facts.node_size : 0,
                      facts.between_nodes,
                      config().cost_parameters,
                      network_descriptor(facts.network),
                      network_descriptor(facts.rail_network.network)};
  if (last && last->first == key) {
    return last->second;
  }
  const Algorithm* choice = nullptr;
  if (const auto found = choices.find(key); found != choices.end()) {
    choice = found->second;
  } else {
    if (choices.size() >= capacity) {
      choices.clear();
    }
    choice = cheapest(function, collective, facts);
    choices.emplace(key, choice);
  }
  last.emplace(key, choice);
  return choice;
}

constexpr std::string_view cost_model_reason = "lowest predicted time (cost model)";

struct Selected {
  const Algorithm* algorithm = nullptr;
  std::string_view reason;  // a literal: selection allocates nothing on the way to a collective
  bool by_cost_model = false;
};

using Chooser = const Algorithm* (*)(std::string_view function, Coll collective, const CallFacts& facts);

// The algorithm DASH_COLL_<OP> forces on `collective`; empty where it is not set.
std::string_view environment_algorithm(Coll collective) {
  if (config().forced_algorithms.empty()) {
    return {};
  }
  const std::string variable = "DASH_COLL_" + upper(to_string(collective));
  std::string_view name;
  for (const auto& [setting, algorithm] : config().forced_algorithms) {
    if (setting == variable) {
      name = algorithm;
    }
  }
  return name;
}

// The forced algorithm, else the one `choose` picks (library_choice; explain() prices afresh
// rather than touch the collectives' cache from whatever thread it runs on).
Selected select(std::string_view function, Coll collective, const CallFacts& facts, std::string_view forced,
                Chooser choose = library_choice, bool honour_environment = true) {
  std::string_view name = forced;
  if (name.empty() && honour_environment) {
    name = environment_algorithm(collective);
  }
  if (!name.empty()) {
    const bool from_options = !forced.empty();
    const Algorithm* algorithm = find(collective, name);
    const auto origin = [&] {
      return from_options ? std::string("forced by Options::algorithm")
                          : "forced by DASH_COLL_" + upper(to_string(collective));
    };
    if (algorithm == nullptr) {
      throw invalid_argument(function, "algorithm (" + origin() + ")", name, "one of " + known_names(collective));
    }
    if (const std::string why = why_unfit(*algorithm, facts); !why.empty()) {
      throw InvalidArgument(std::string(function) + ": algorithm '" + std::string(name) + "' (" + origin() +
                            ") cannot serve this call: " + why);
    }
    return {algorithm, from_options ? "forced by Options::algorithm" : "forced by DASH_COLL_<OP>"};
  }
  return {choose(function, collective, facts), cost_model_reason, true};
}

// "1.23 us"
std::string microseconds(double seconds) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.3g us", seconds * 1e6);
  return text.data();
}

// Why neither the group's ranks nor its rails are priced on DASH_TOPOLOGY's network.
std::string network_unfit(const Group& group, const CallFacts& facts) {
  if (config().network.kind == NetworkKind::flat) {
    return "DASH_TOPOLOGY names no network (flat): every candidate is priced by its closed form";
  }
  if (group.is_world() || detail::is_rail(group)) {
    return "the group's ranks are not the network's nodes (a grid of as many nodes as it has ranks, or a Clos "
           "network with one rank per node)" +
           std::string(facts.no_hierarchy.empty() ? "" : ", and no rails of a hierarchical collective serve it");
  }
  if (const std::string_view why = detail::team_network_unfit(group); !why.empty()) {
    return std::string(why);
  }
  return "only the world group, teams and their rails are priced on the network (a group of listed ranks is not)";
}

// What explain() says of the group's paths beyond the message schedules.
void add_path_verdicts(Choice& choice, const CallFacts& facts, const Group& group) {
  choice.arena.serves = facts.no_shared_memory.empty();
  if (choice.arena.serves) {
    const detail::ArenaChannel& channel = *detail::arena_channel_of(group);
    choice.arena.detail = "arena channel " + std::to_string(channel.channel()) + " of the node, where the group's " +
                          std::to_string(channel.size()) + " members meet";
  } else {
    choice.arena.detail = std::string(facts.no_shared_memory);
  }
  choice.hierarchy.serves = facts.no_hierarchy.empty();
  if (choice.hierarchy.serves) {
    const detail::Hierarchy hierarchy = *detail::hierarchy_of(group);
    choice.hierarchy.detail = std::to_string(hierarchy.nodes) + " nodes of " + std::to_string(hierarchy.node_size) +
                              " members: each node's members meet in arena channel " +
                              std::to_string(hierarchy.channel->channel()) +
                              " of their node, and rails of one member per node carry the inter-node stage";
  } else {
    choice.hierarchy.detail = std::string(facts.no_hierarchy);
  }
  if (facts.network != nullptr) {
    choice.network = {true, "its ranks are priced as the nodes of " + to_string(*facts.network)};
  } else if (choice.hierarchy.serves && facts.rail_network.network != nullptr) {
    choice.network = {true, "its rails are priced as the nodes of " + to_string(*facts.rail_network.network)};
  } else {
    choice.network = {false, network_unfit(group, facts)};
  }
}

}  // namespace

std::vector<std::string_view> algorithms(Coll collective) {
  std::vector<std::string_view> names;
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective == collective) {
      names.push_back(algorithm.name);
    }
  }
  return names;
}

Choice explain(Coll collective, std::size_t bytes, const Group& group, bool commutative) {
  CallFacts facts{.size = group.size(), .bytes = bytes, .elements = bytes, .commutative = commutative};
  add_group_facts(facts, group);
  const Selected selected = select("dash::comm::explain", collective, facts, {}, cheapest);
  const CostParameters& parameters = config().cost_parameters;
  Choice choice;
  choice.algorithm = std::string(selected.algorithm->name);
  double chosen_seconds = 0;
  std::size_t fitting = 0;
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective != collective) {
      continue;
    }
    Candidate candidate;
    candidate.algorithm = std::string(algorithm.name);
    candidate.segments = segments_of(algorithm, facts);
    candidate.unfit = why_no_candidate(algorithm, facts);
    candidate.forcible = why_unfit(algorithm, facts).empty();
    if (candidate.unfit.empty()) {
      const Pricing pricing = price(algorithm, facts, parameters);
      candidate.block_bytes = pricing.block_bytes;
      candidate.terms = pricing.terms;
      candidate.predicted_seconds = pricing.seconds;
      ++fitting;
    }
    if (&algorithm == selected.algorithm) {
      chosen_seconds = candidate.predicted_seconds;
    }
    choice.candidates.push_back(std::move(candidate));
  }
  choice.reason = selected.by_cost_model
                      ? "lowest predicted time of the " + std::to_string(fitting) +
                            " algorithms that can serve the call: " + microseconds(chosen_seconds) + " (cost model " +
                            to_string(parameters) +
                            (facts.between_nodes ? "; the group spans nodes: messages priced with alpha_net, beta_net)"
                                                 : ")")
                      : std::string(selected.reason);
  choice.between_nodes = facts.between_nodes;
  add_path_verdicts(choice, facts, group);
  return choice;
}

namespace detail {

std::function<schedule::Schedule(const CollectiveShape&, int)> schedule_generator(Coll collective,
                                                                                  std::string_view algorithm) {
  const Algorithm* found = find(collective, algorithm);
  return found != nullptr && !found->shared_memory ? found->generate : nullptr;
}

std::vector<RegisteredAlgorithm> registered_algorithms(Coll collective) {
  std::vector<RegisteredAlgorithm> found;
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective == collective && !algorithm.shared_memory && !algorithm.topology) {
      auto unfit = [&algorithm](int size, bool commutative) {
        return algorithm.unfit(CallFacts{.size = size, .commutative = commutative});
      };
      found.push_back({algorithm.name, algorithm.generate, algorithm.cost, algorithm.reorders_output, unfit});
    }
  }
  return found;
}

namespace {

// The arguments every rank must pass alike, compared bitwise across the group (no padding).
struct UniformArguments {
  std::uint64_t collective;
  std::int64_t root;
  std::uint64_t commutative;
  std::uint64_t element_size;
  std::uint64_t elements;
  std::uint64_t algorithm_hash;
  std::uint64_t segments;
  std::uint64_t canonical_placement;
  std::uint64_t grid_hash;
};

// A grid's dimensions and periodicity as one number; 0 without a grid.
std::uint64_t grid_hash(const CartesianGrid* grid) noexcept {
  if (grid == nullptr) {
    return 0;
  }
  std::vector<std::int64_t> words;
  for (int d = 0; d < grid->ndims(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    words.push_back(std::int64_t{grid->dims()[i]} * 2 + (grid->periodic()[i] ? 1 : 0));
  }
  return detail::fnv1a_hash(words.data(), words.size() * sizeof(std::int64_t)) + 1;
}

// A plan depends on the grid's value, not on which copy of it a call passed.
struct GridKey {
  std::shared_ptr<const CartesianGrid> grid;
  friend bool operator==(const GridKey& a, const GridKey& b) {
    return a.grid == b.grid || (a.grid && b.grid && *a.grid == *b.grid);
  }
};

}  // namespace

// Plans (schedule + dependency analysis) depend only on these; the same call shape on the same
// rank reuses its plan instead of generating the schedule again.
struct PlanKey {
  const Algorithm* algorithm;
  int size;
  int rank;
  int root;
  std::uint32_t segments;
  bool commutative;
  GridKey grid;
  friend bool operator==(const PlanKey&, const PlanKey&) = default;
};

struct PlanKeyHash {
  std::size_t operator()(const PlanKey& key) const noexcept {
    std::size_t hash = std::hash<const void*>{}(key.algorithm);
    for (const std::size_t part : {static_cast<std::size_t>(key.size), static_cast<std::size_t>(key.rank),
                                   static_cast<std::size_t>(key.root), std::size_t{key.segments},
                                   std::size_t{key.commutative},
                                   static_cast<std::size_t>(grid_hash(key.grid.grid.get()))}) {
      hash = hash * 1000003u ^ part;
    }
    return hash;
  }
};

// Collectives are called from one thread at a time (docs/configuration.md), so no lock.
std::shared_ptr<const Plan> cached_plan(const PlanKey& key, const CollectiveShape& shape) {
  static std::unordered_map<PlanKey, std::shared_ptr<const Plan>, PlanKeyHash> plans;
  // A loop of one call shape (the common case) skips hashing.
  static std::optional<std::pair<PlanKey, std::shared_ptr<const Plan>>> last;
  if (last && last->first == key) {
    return last->second;
  }
  constexpr std::size_t capacity = 256;
  if (const auto found = plans.find(key); found != plans.end()) {
    last.emplace(key, found->second);
    return found->second;
  }
  if (plans.size() >= capacity) {
    plans.clear();
  }
  auto plan = make_plan(key.algorithm->generate(shape, key.rank), shape.output_blocks(key.rank));
  plans.emplace(key, plan);
  last.emplace(key, plan);
  return plan;
}

namespace {

std::uint64_t checks_started = 0;

constexpr std::string_view compared_arguments =
    "collective arguments (operation, root, count, algorithm, segments, placement, grid)";

// The hash a member whose call failed its local checks compares: the others' calls, whatever
// their arguments, see a difference (unless their hash hits this one value by chance).
constexpr std::uint64_t failed_call_hash = 0x6661696c65642121;

}  // namespace

std::uint64_t argument_checks_started() noexcept { return checks_started; }

void report_failed_call(std::string_view function, const Group& group) noexcept {
  ++checks_started;  // an enclosing front end must not report the call again
  try {
    PendingUniformCheck check(failed_call_hash, std::string(function), std::string(compared_arguments), "", group);
    try {
      while (!check.test()) {
      }
    } catch (const InvalidArgument&) {
      // The others passed a valid call: the difference is the point. The caller's own error says more.
    }
  } catch (const std::exception& error) {
    log(LogLevel::error, function, ": could not tell the other members that this call failed: ", error.what());
  }
}

// The cross-rank comparison of the call's arguments over the group's members in builds with
// DASH_CROSS_RANK_CHECKS, else null.
std::unique_ptr<PendingUniformCheck> start_argument_check(const CollectiveCall& call, const Group& group,
                                                          const Options& options) {
  if constexpr (cross_rank_checks_enabled) {
    // A hierarchical call's stages start at different times on different processes, so they
    // cannot take their group's next tag for a comparison; their call was checked.
    if (call.internal) {
      return nullptr;
    }
    ++checks_started;
    const bool variable_sizes = call.input_sizes || call.output_sizes;
    // The algorithm the call forces, by its options or by the environment of this process.
    const std::string_view forced =
        options.algorithm.empty() ? environment_algorithm(call.collective) : std::string_view(options.algorithm);
    const UniformArguments arguments{static_cast<std::uint64_t>(call.collective),
                                     call.root,
                                     call.commutative ? 1u : 0u,
                                     call.element_size,
                                     variable_sizes ? 0 : call.elements,
                                     detail::fnv1a_hash(forced.data(), forced.size()),
                                     options.segments,
                                     options.canonical_placement ? 1u : 0u,
                                     grid_hash(call.grid.get())};
    return start_uniform_check(arguments, call.function, compared_arguments, group);
  }
  return nullptr;
}

namespace {

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
  add_group_facts(facts, group);
  // A segment holds one element at least; far more segments than elements only multiply the messages.
  if (!variable_sizes && options.segments > std::max<std::size_t>(call.elements, 1)) {
    throw invalid_argument(call.function, "options.segments", options.segments,
                           "at most the " + std::to_string(std::max<std::size_t>(call.elements, 1)) +
                               " element(s) of a contribution (0: the algorithm's default)");
  }
  Decision decision;
  decision.selected = select(call.function, call.collective, facts, options.algorithm, library_choice, !call.internal);
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

// Short collectives are called in loops of one call shape, where deciding afresh would cost more
// than the collective itself (a few hundred nanoseconds against an 8-byte broadcast in shared
// memory; 150 ns of a 1 us allreduce on a team): the last decision is kept for the world group and
// the last few for the others, so that a team algorithm's calls between world calls keep theirs,
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
    SharedMemoryCall& run = prepared.in_arena.emplace(
        SharedMemoryCall{call.collective, call.root, call.element_size, call.elements, prepared.decision.segments,
                         call.input, call.output, call.reduction, algorithm.replicated});
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
// the handshake costs less than a link shared with the next send (SMPI, 512 ranks, µ = 1 fat tree,
// 256 KiB broadcast by distance halving: 2.02 ms with 32 KiB sends buffered, 1.51 predicted).
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
// the engine's 0.5 us over a bare MPI exchange is most of an 8-byte allreduce in shared memory
// (0.3 us for Open MPI's). Short messages travel eagerly, so a round's sends complete at once and
// waiting for the whole round costs nothing; longer ones keep the engine's overlap.
constexpr std::size_t round_by_round_bytes = 16 * 1024;

bool runs_round_by_round(const CollectiveCall& call, const ExecutionSetup& setup) {
  return !setup.argument_check && !call.input_sizes && !call.output_sizes &&
         call.elements * call.element_size <= round_by_round_bytes && runs_in_lockstep(*setup.plan);
}

// On a group of one member, collectives leave the buffer as it is (bcast, barrier, exscan, whose
// member 0 gets nothing) or copy its contribution to the output. Blocking uniform calls take this
// path instead of an algorithm's schedule (8-byte calls: 30-45 instead of 150-210 ns; Open MPI's
// on MPI_COMM_SELF 7-27 ns); forced algorithms do not, so that forcing one still checks that it fits.
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

CollectiveCall make_call(std::string_view function, Coll collective, int root, bool commutative) {
  CollectiveCall call;
  call.function = function;
  call.collective = collective;
  call.root = root;
  call.commutative = commutative;
  return call;
}

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

}  // namespace detail

}  // namespace dash::comm
