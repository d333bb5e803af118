#pragma once
// Internal: the closed-form cost of every registered collective algorithm (comm/selection/registry.cpp's
// registry), in the units the schedule verifier measures (cost_model.hpp). Pure arithmetic on the
// group size and the segment count: selection prices its candidates without generating a
// schedule. comm/test/cost_model_test.cpp proves each form equal to the verifier's measurement.
//
// Notation: p ranks, S segments per contribution, p' = 2^⌊lg p⌋, r = p - p'. Algorithms that cut
// a contribution into K near-equal parts (K = p or p'; the library runs them with S = K) are
// exact when S is a multiple of K and price any other S as the next multiple of K, an upper
// bound: the real schedule moves only the blocks that exist. No registered algorithm's critical
// path or copies depend on the root.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::detail {

struct CostShape {
  int size = 1;                         // p
  std::uint32_t segments = 1;           // S >= 1, as the schedule runs
  const CartesianGrid* grid = nullptr;  // neighbor_alltoall: its periodic dimensions of size 1 copy
};

struct AlgorithmCost {
  CostTerms (*terms)(const CostShape&);  // null for network_priced_cost
  // Some rank stages blocks in scratch space (for some root): then the algorithm cannot serve
  // variable-size calls unless its scratch holds only the rank's own blocks.
  bool (*uses_scratch)(const CostShape&);
  // K: the terms are exact for S a multiple of it (1: for every S).
  std::uint32_t (*parts)(int size);
};

// One per registered algorithm, named <collective>_<algorithm>.
extern const AlgorithmCost allreduce_recursive_doubling_cost;
extern const AlgorithmCost allreduce_rabenseifner_cost;
extern const AlgorithmCost allreduce_binary_blocks_cost;
extern const AlgorithmCost allreduce_ring_cost;
extern const AlgorithmCost allreduce_pairwise_ring_cost;
extern const AlgorithmCost allgather_sparbit_cost;
extern const AlgorithmCost allgather_ring_cost;
extern const AlgorithmCost allgather_recursive_doubling_cost;
extern const AlgorithmCost allgather_bruck_cost;
extern const AlgorithmCost allgather_bruck_noncanonical_cost;
extern const AlgorithmCost allgather_neighbor_exchange_cost;
extern const AlgorithmCost reduce_scatter_recursive_halving_cost;
extern const AlgorithmCost reduce_scatter_pairwise_cost;
extern const AlgorithmCost reduce_scatter_ring_cost;
extern const AlgorithmCost alltoall_pairwise_cost;
extern const AlgorithmCost alltoall_bruck_cost;
extern const AlgorithmCost alltoall_bruck_noncanonical_cost;
extern const AlgorithmCost alltoall_linear_cost;
extern const AlgorithmCost alltoall_one_factor_cost;
extern const AlgorithmCost alltoall_hypercube_xor_cost;
extern const AlgorithmCost bcast_binomial_cost;
extern const AlgorithmCost bcast_scatter_allgather_cost;
extern const AlgorithmCost bcast_pipelined_chain_cost;
extern const AlgorithmCost bcast_pipelined_binary_tree_cost;
extern const AlgorithmCost bcast_kary_tree_cost;  // k = 4, as registered
extern const AlgorithmCost reduce_binomial_cost;
extern const AlgorithmCost reduce_knomial_4_cost;  // k = 4 and 8, as registered
extern const AlgorithmCost reduce_knomial_8_cost;
extern const AlgorithmCost reduce_rabenseifner_cost;
extern const AlgorithmCost gather_binomial_cost;
extern const AlgorithmCost gather_linear_cost;
extern const AlgorithmCost scatter_binomial_cost;
extern const AlgorithmCost scatter_linear_cost;
extern const AlgorithmCost scan_recursive_doubling_cost;
extern const AlgorithmCost scan_linear_cost;
extern const AlgorithmCost exscan_recursive_doubling_cost;
extern const AlgorithmCost exscan_linear_cost;
extern const AlgorithmCost barrier_dissemination_cost;
extern const AlgorithmCost neighbor_alltoall_direct_cost;
// The topology-aware schedules: no closed form; selection prices them on the network only.
extern const AlgorithmCost network_priced_cost;
// The shared-memory algorithms (no schedule; blocks are the chunks one arena slot holds).
extern const AlgorithmCost allreduce_shared_memory_cost;
extern const AlgorithmCost allreduce_shared_memory_replicated_cost;
extern const AlgorithmCost alltoall_shared_memory_cost;
extern const AlgorithmCost reduce_scatter_shared_memory_cost;
extern const AlgorithmCost allgather_shared_memory_cost;
extern const AlgorithmCost bcast_shared_memory_cost;

// A registered schedule algorithm with a closed form (neither the shared-memory ones, which have no
// schedule, nor the topology-aware ones, priced on the network only) as the library runs it, for tests that hold every one against the
// verifier: its schedule generator, its cost, and why it cannot serve a group size or operation
// (empty when it can).
struct RegisteredAlgorithm {
  std::string_view name;
  std::function<schedule::Schedule(const CollectiveShape&, int)> generate;
  AlgorithmCost cost;
  bool reorders_output = false;
  std::function<std::string(int size, bool commutative)> unfit;
};

// In registry order (as algorithms(collective) lists them).
std::vector<RegisteredAlgorithm> registered_algorithms(Coll collective);

// The schedule generator the library runs for `algorithm` of `collective`, topology-aware ones
// included (they take the network's grid as CollectiveShape::grid); empty for the shared-memory
// algorithms and unknown names. For tools that cost schedules on a network (sim/).
std::function<schedule::Schedule(const CollectiveShape&, int)> schedule_generator(Coll collective,
                                                                                  std::string_view algorithm);

}  // namespace dash::comm::detail
