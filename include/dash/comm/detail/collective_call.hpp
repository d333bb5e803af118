#pragma once
// Internal: one collective call as the typed front ends (typed_call.hpp) describe it to
// detail::launch and detail::run (launch.hpp): the operation, its buffers and counts.

#include <cstddef>
#include <memory>
#include <string_view>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/detail/block_layout.hpp>
#include <dash/comm/schedule/collective.hpp>

namespace dash::comm::detail {

struct CollectiveCall {
  std::string_view function;  // for messages, e.g. "dash::comm::allreduce"
  Coll collective = Coll::allreduce;
  int root = 0;
  bool commutative = true;
  std::size_t element_size = 1;
  std::size_t elements = 0;  // per contribution of the buffers whose contributions do not vary in size
  // Variable-size calls (allgatherv, alltoallv, reduce_scatter): the counts of the input's and the
  // output's contributions; null for uniform contributions of `elements`.
  std::shared_ptr<const VariableSizes> input_sizes;
  std::shared_ptr<const VariableSizes> output_sizes;
  // neighbor_alltoall: the process grid over the group.
  std::shared_ptr<const CartesianGrid> grid;
  const std::byte* input = nullptr;
  std::byte* output = nullptr;
  Reduction reduction;
  // A stage of a hierarchical collective: DASH_COLL_<OP> (meant for the user's calls) does not
  // apply to it, and it runs with the tag its run reserved instead of the group's next.
  bool internal = false;
  int tag = 0;
};

// Not inline: the caller's compiler, tuned for generic x86-64, would clear the record with
// `rep stos`, slow to start for objects this short; the library's own flags clear it with vector
// stores (cmake/DashCompilerOptions.cmake; the cost: docs/collectives.md, "Selection").
CollectiveCall make_call(std::string_view function, Coll collective, int root = 0, bool commutative = true);

}  // namespace dash::comm::detail
