// The arena runs' chunking rules (arena_rules.hpp, shared_memory_run.hpp).

#include "arena/arena_rules.hpp"

#include <algorithm>

#include <dash/comm/config.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/runtime.hpp>

namespace dash::comm::detail {

bool runs_in_shared_memory(Coll collective) noexcept {
  return collective == Coll::allreduce || collective == Coll::reduce_scatter || collective == Coll::alltoall ||
         collective == Coll::allgather || collective == Coll::bcast;
}

bool runs_hierarchically(Coll collective) noexcept {
  return collective == Coll::allreduce || collective == Coll::reduce || collective == Coll::allgather ||
         collective == Coll::bcast;
}

bool streams_output(Coll collective, std::size_t bytes, int size) noexcept {
  const std::size_t output = collective == Coll::bcast ? bytes : bytes * static_cast<std::size_t>(size);
  const bool copies_out = collective == Coll::bcast || collective == Coll::allgather || collective == Coll::alltoall;
  return copies_out && (output >= config().streaming_store_bytes ||
                        (collective == Coll::bcast && bytes > in_place_bcast_bytes));
}

std::size_t in_place_chunk_elements(Coll collective, std::size_t bytes, std::size_t element_size, int size) noexcept {
  const CollectiveArena* arena = collective_arena();
  if (arena == nullptr || !arena->single_copy() || bytes < single_copy_bytes || element_size > in_place_chunk_bytes ||
      streams_output(collective, bytes, size)) {
    return 0;
  }
  switch (collective) {
    case Coll::bcast:
      return bytes <= in_place_bcast_bytes ? in_place_chunk_bytes / element_size : 0;
    case Coll::allgather:
    case Coll::alltoall:
      return in_place_chunk_bytes / element_size;
    default:
      return 0;
  }
}

std::size_t hierarchical_chunk_elements(Coll collective, int nodes, std::size_t element_size) noexcept {
  if (collective == Coll::allgather) {  // a slot holds the chunk of every node's block
    return CollectiveArena::slot_bytes / static_cast<std::size_t>(std::max(nodes, 1)) / element_size;
  }
  return shared_memory_chunk_elements(collective, nodes, element_size);
}

int rail_pieces(std::size_t bytes, int node_size) noexcept {
  // The pieces cross the network.
  const CostParameters& parameters = config().cost_parameters;
  const double shortest = parameters.beta_net > 0 ? parameters.alpha_net / parameters.beta_net : 0;
  const double pieces = shortest > 0 ? static_cast<double>(bytes) / shortest : static_cast<double>(node_size);
  return static_cast<int>(std::clamp(pieces, 1.0, static_cast<double>(std::max(node_size, 1))));
}

std::size_t shared_memory_chunk_elements(Coll collective, int size, std::size_t element_size) noexcept {
  const bool sliced = collective == Coll::reduce_scatter || collective == Coll::alltoall;
  const std::size_t room = sliced ? slice_bytes(size) : CollectiveArena::slot_bytes;
  return room / element_size;
}

}  // namespace dash::comm::detail
