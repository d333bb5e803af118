#pragma once
// Reduce schedules (Coll::reduce). Each returns rank `rank`'s schedule for `shape`, any root.
// p ranks, S segments, p' = 2^⌊lg p⌋, r = p - p'; "n" is the whole vector (S blocks) and
// critical-path costs are (start-ups, blocks, combined blocks). Messages of empty block sets are
// left out, so with S = 0 no rank sends anything. A rank sends at most one message per round.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Binomial tree (Rabenseifner 2004 §3.3) built over rank ranges instead of rotated ranks, so that
// it keeps rank order for any root (a rotated tree does not; Rabenseifner 2004 treats commutative
// operations only): a range of 2^d ≥ size > 2^{d-1} ranks splits after its first 2^{d-1}; the half
// without the root reduces to its rank next to the split and sends that to the root last. For root
// 0 this is Rabenseifner's tree (§3.3). p - 1 messages of n, one per non-root rank; critical path
// (⌈lg p⌉, ⌈lg p⌉n, ⌈lg p⌉n) for every root.
Schedule reduce_binomial(const CollectiveShape& shape, int rank);

// k-nomial tree (MVAPICH2's reduce; Rabenseifner 2004 §3.3 with k children per level instead of
// one), over rank ranges like reduce_binomial so that it keeps rank order for any root: a range of
// k^(d-1) < size <= k^d ranks splits into pieces of k^(d-1) (the last may be shorter); each piece
// without the root reduces to its rank next to the root's piece, and the root's rank takes all of
// them in one round (the nearest combined on arrival, the others received into scratch and combined
// in the next rounds, nearest first, right side before left). A node's children thus travel
// together instead of one per round: d = ⌈log_k p⌉ start-ups where the binomial tree takes ⌈lg p⌉,
// for (k - 1) times the blocks into one node per round. Critical path (d, dn, (⌈p / k^(d-1)⌉ - 1 +
// (d - 1)(k - 1)) n) for every root; scratch up to (k - 1) n.
// Throws dash::InvalidArgument unless k >= 2.
Schedule reduce_knomial(const CollectiveShape& shape, int rank, int k);

// Rabenseifner (Rabenseifner 2004 §3.5): the recursive-halving reduce-scatter of
// allreduce_rabenseifner (the root, if an odd rank < 2r, survives its pair instead of the even
// partner: "the role of this process and its partner in the first step are exchanged"), then a
// binomial gather of the parts to the root along survivor bits p'/2, ..., 1. Keeps rank order. For
// S a multiple of 2p': p = p': (2 lg p, 2(1 - 1/p)n, (1 - 1/p)n); otherwise (2 lg p' + 2,
// (3 - 2/p')n, (3/2 - 1/p')n).
Schedule reduce_rabenseifner(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
