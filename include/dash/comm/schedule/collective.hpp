#pragma once
// What a collective computes, in terms of logical blocks: the shape of each rank's input and
// output, and the expected content of every output block. Schedules (schedule.hpp) say how; this
// says what, and the verifier checks the one against the other.
//
// Every collective moves `segments` blocks per contribution (segments > 1 lets schedules
// pipeline). With P ranks and S segments:
//
//   collective        input blocks   output blocks   output block b at rank r holds
//   bcast             S (root)       S               root's block b
//   reduce            S              S (root)        the combination of block b of all ranks
//   allreduce         S              S               the combination of block b of all ranks
//   gather            S              P*S (root)      block b%S of rank b/S
//   scatter           P*S (root)     S               root's block r*S + b
//   allgather         S              P*S             block b%S of rank b/S
//   reduce_scatter    P*S            S               the combination of block r*S + b of all ranks
//   alltoall          P*S            P*S             block r*S + b%S of rank b/S
//   scan              S              S               the combination of block b of ranks 0..r
//   exscan            S              S               ... of ranks 0..r-1 (rank 0: undefined)
//   barrier           1 (empty)      1 (empty)       has heard from every rank
//   neighbor_alltoall 2*D*S          2*D*S           block (k^1)*S + b%S of the neighbour in slot
//                                                    k = b/S (none at a non-periodic edge: untouched)
//
// neighbor_alltoall runs on a Cartesian grid of D dimensions (shape.grid, cartesian_grid.hpp):
// slot 2d is the neighbour one step down dimension d, slot 2d+1 the one a step up. Input slot k
// goes to the neighbour in slot k, which keeps it in its opposite slot k^1, as in
// MPI_Neighbor_alltoall.
//
// Combinations keep rank order (lower ranks on the left) unless the operation is commutative.
//
// Every buffer, scratch included, is an array of contributions of S segments each: block i is
// segment i % S of contribution i / S. A contribution of n elements has segments of
// ⌊(s+1)n/S⌋ - ⌊sn/S⌋ elements, so the engine can size any block from its index alone, and a
// block may only ever hold data of its own segment (the verifier checks this).

#include <cstdint>
#include <memory>
#include <string_view>

#include <dash/comm/cartesian_grid.hpp>

namespace dash::comm {

enum class Coll : std::uint8_t {
  bcast,
  reduce,
  allreduce,
  gather,
  scatter,
  allgather,
  reduce_scatter,
  alltoall,
  scan,
  exscan,
  barrier,
  neighbor_alltoall,
};

std::string_view to_string(Coll collective) noexcept;

// Algebraic properties of a reduction that schedules may exploit.
struct OpTraits {
  bool commutative = true;
  // Combining a contribution twice changes nothing (min, max, bitwise and/or, barrier tokens).
  bool idempotent = false;
};

struct CollectiveShape {
  Coll collective = Coll::allgather;
  int size = 1;              // P
  int root = 0;              // rooted collectives only
  std::uint32_t segments = 1;// S
  OpTraits op;
  // neighbor_alltoall only: the process grid (grid->size() == size). Shared, so that copying a
  // shape stays cheap.
  std::shared_ptr<const CartesianGrid> grid;

  bool is_rooted() const noexcept {
    return collective == Coll::bcast || collective == Coll::reduce || collective == Coll::gather ||
           collective == Coll::scatter;
  }
  bool is_reduction() const noexcept {
    return collective == Coll::reduce || collective == Coll::allreduce ||
           collective == Coll::reduce_scatter || collective == Coll::scan ||
           collective == Coll::exscan || collective == Coll::barrier;
  }
  std::uint32_t input_blocks(int rank) const noexcept;
  std::uint32_t output_blocks(int rank) const noexcept;
};

}  // namespace dash::comm
