#pragma once
// Reduce-scatter schedules (Coll::reduce_scatter). Each returns rank `rank`'s schedule for
// `shape`: rank r ends with chunk r (input blocks r·S .. r·S + S - 1) combined over all ranks.
// Costs are per rank for p ranks and S segments, p' = 2^⌊lg p⌋ and r = p - p'; messages of
// empty block sets are left out, so with S = 0 no rank sends anything.

#include <cstdint>
#include <functional>
#include <vector>

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Ring (Rabenseifner 2004 §3.7's neighbour form): in round k rank r adds its own chunk r - k - 2 to
// the partial sum arriving from r - 1 and forwards it to r + 1; p - 1 rounds with one message of S
// blocks each; critical path (p - 1, (p-1)S, (p-1)S). Partial sums wrap from rank p - 1 to rank 0:
// commutative operations only. Scratch: three chunks the partial sums rotate through.
Schedule reduce_scatter_ring(const CollectiveShape& shape, int rank);

// Pairwise exchange (Rabenseifner 2004 §3.7): in round i = 1 .. p-1 rank r sends its input chunk r
// + i to rank r + i and receives its chunk from r - i; p - 1 rounds with one message of S blocks
// each.
// As written in Rabenseifner 2004 it combines in the order r-1, r-2, ...; here contributions of
// lower ranks go into the output and those of higher ranks into a scratch chunk appended last,
// which keeps rank order for one extra local combination: critical path (p - 1, (p-1)S, pS) for p
// >= 3.
Schedule reduce_scatter_pairwise(const CollectiveShape& shape, int rank);

// Recursive vector halving with distance doubling (Rabenseifner 2004 §3.5), any p; keeps rank
// order. The p·S-block vector sits in scratch with survivor j's chunks at part bitrev(j), so every
// half is one block range and survivor j ends with exactly its chunks. p = p': lg p rounds and
// messages, critical path (lg p, (p-1)S, (p-1)S). Otherwise the first 2r ranks fold pairwise first
// (Rabenseifner's half-vector pre-step, the odd one returns its half) and survivors of a pair send
// the odd partner its chunk last: lg p' + 3 rounds, at most lg p' + 2 messages per rank, critical
// path (lg p' + 3, (p + p' + c)S, (p'/2 + ⌈r/2⌉ + p' - 1 + c)S) with c = Σ_{m = 1, 2, .., p'/2}
// ⌈r/2m⌉ (a halving step at distance m moves the chunks of p'/2m survivors, ⌈r/2m⌉ of them paired).
Schedule reduce_scatter_recursive_halving(const CollectiveShape& shape, int rank);

namespace detail {

// Building blocks shared by the reduce-scatter, allreduce and reduce generators.

// The recursive halving phase of Rabenseifner 2004 §3.5 for the group of ranks
// [first, first + size). The group's vector lies in buffer `work` of every member, cut into p'
// parts: part q is blocks [bounds[q], bounds[q+1]).
struct Halving {
  int first = 0;
  int p2 = 1;       // p'
  int extra = 0;    // r: pairs (first + 2i, first + 2i + 1), i < r, folded into one survivor
  int odd_survivor_pair = -1;  // the pair whose odd member survives (a reduce root's role swap)
  int new_rank = -1;           // this rank's survivor number, -1 if folded away
  std::uint32_t lo = 0;        // survivors: the parts held, [lo, hi), combined over the group
  std::uint32_t hi = 0;

  // The rank survivor `survivor` stands for: first + 2i (+ 1 in the swapped pair) for i < r,
  // first + i + r otherwise.
  int real(int survivor) const noexcept;
  bool folded_away() const noexcept { return new_rank < 0; }
};

// Appends the pre-step (if size is not a power of two) and lg p' halving steps to `schedule`.
// `work` must hold the rank's contribution beforehand. Afterwards survivor j holds part
// bitrev_{lg p'}(j) combined over the whole group in rank order; a folded-away rank's work holds
// nothing useful.
Halving append_recursive_halving(Schedule& schedule, int first, int size, int rank, Buffer work,
                                 const std::vector<std::uint32_t>& bounds, int odd_survivor_pair = -1);

// The pairwise-exchange phase of Rabenseifner 2004 §3.7, keeping rank order, after a round in which
// `result` received the rank's own chunk: in round i rank r sends input `chunk(r + i)` to r + i and
// combines chunk r from r - i, lower ranks into `result` (output), higher ones into `spare`
// (scratch, same block indices as `result`), which is appended to `result` at the end.
void append_pairwise_reduce_scatter(Schedule& schedule, int p, int rank,
                                    const std::function<BlockSet(int)>& chunk, BlockSet result,
                                    BlockSet spare);

// Bounds of n blocks split into k near-equal parts: part q is [⌊qn/k⌋, ⌊(q+1)n/k⌋).
std::vector<std::uint32_t> even_bounds(std::uint32_t n, std::uint32_t k);

// x's lowest `bits` bits in reverse order.
std::uint32_t bit_reverse(std::uint32_t x, int bits) noexcept;

// Add an action, or nothing when `blocks` is empty (for messages both sides agree on that).
void add_send(Round& round, int peer, Buffer buffer, BlockSet blocks);
void add_receive(Round& round, int peer, Buffer buffer, BlockSet blocks);
void add_receive_reduce(Round& round, int peer, Buffer buffer, BlockSet blocks, Operand side);
void add_copy(Round& round, Buffer from, BlockSet from_blocks, Buffer into, BlockSet into_blocks);

// Drops rounds left without actions (e.g. all of them when S = 0); a dropped fence moves to the next round.
Schedule without_empty_rounds(Schedule schedule);

}  // namespace detail

}  // namespace dash::comm::schedule
