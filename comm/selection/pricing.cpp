// Pricing of collective algorithms: closed forms, network_cost on DASH_TOPOLOGY's network, and
// hierarchical runs as arena plus rails (docs/collectives.md "Algorithms and selection").

#include "selection/pricing.hpp"

#include <cstdint>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/network_cost.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/arena_rules.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm::selection {

namespace {

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

Pricing price_hierarchical(const Algorithm& algorithm, const CallFacts& facts, const CostParameters& parameters);

}  // namespace

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

namespace {

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
  const detail::RankNetwork& rail_network = facts.rail_network;
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

}  // namespace

}  // namespace dash::comm::selection
