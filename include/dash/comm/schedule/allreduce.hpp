#pragma once
// Allreduce schedules (Coll::allreduce). Each returns rank `rank`'s schedule for `shape`.
// p ranks, S segments, p' = 2^⌊lg p⌋, r = p - p'; "n" below is the whole vector (S blocks) and
// critical-path costs are (start-ups, blocks, combined blocks). Except for recursive doubling,
// messages of empty block sets are left out, so with S = 0 no rank sends anything. A rank sends at
// most one message per round (one port, as in Rabenseifner's model).

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Recursive doubling on full vectors (Rabenseifner 2004 §3.4). For p not a power of two, the first
// 2r ranks pair up: even ranks hand their vector to the odd neighbour before, and receive the
// result after, the lg p' exchange steps. Keeps rank order, so it also serves non-commutative
// operations.
Schedule allreduce_recursive_doubling(const CollectiveShape& shape, int rank);

// Rabenseifner's recursive halving and doubling (Rabenseifner 2004 §3.5): the vector is cut into p'
// near-equal parts; for p ≠ p' the first 2r ranks fold pairwise (half-vector exchange, the odd rank
// returns its half; survivors are renumbered 2i (i < r), i + r); a distance-doubling reduce-scatter
// leaves survivor j with part bitrev(j), a distance-halving allgather collects the parts and even
// ranks < 2r send the result to their odd partner. Keeps rank order (Rabenseifner 2004 treats
// commutative operations only). Critical path for S a multiple of 2p': p = p': (2 lg p,
// 2(1 - 1/p)n, (1 - 1/p)n); otherwise (2 lg p' + 3, (4 - 2/p')n, (3/2 - 1/p')n).
Schedule allreduce_rabenseifner(const CollectiveShape& shape, int rank);

// Binary blocks (Rabenseifner 2004 §3.6, which gives neither pseudo-code nor costs: a
// reconstruction): p = Σ 2^{e_k} consecutive blocks, largest first, each running the halving
// reduce-scatter above over 2^{e_k} coarse parts; block k + 1 then sends each part of its piece to
// the block-k rank that owns it (2^{e_k - e_{k+1}} messages, one per round, the receiver appends it
// on the right). Allgather variant: the mirror cascade (the same pairs send the reduced parts back
// down, largest block first), then every block runs its own distance-halving allgather. Keeps rank
// order; equals allreduce_rabenseifner for p = p'. Combined blocks on the critical path as in an
// independent simulation of the reconstruction; start-ups and blocks exceed it where pieces queue
// behind a larger block still reducing, because the verifier starts a message only when both sides
// posted it (that simulation sends eagerly).
Schedule allreduce_binary_blocks(const CollectiveShape& shape, int rank);

// Ring (Rabenseifner 2004 §3.7 with a neighbour-ring reduce-scatter): the vector is cut into p
// near-equal parts; p - 1 rounds pass growing partial sums to rank + 1, p - 1 more pass the
// finished parts on; 2(p - 1) messages per rank, no scratch. For S a multiple of p: (2(p - 1),
// 2(1 - 1/p)n, (1 - 1/p)n). Partial sums wrap from rank p - 1 to 0: commutative operations only.
Schedule allreduce_ring(const CollectiveShape& shape, int rank);

// Ring as in Rabenseifner 2004 §3.7: a pairwise-exchange reduce-scatter of p near-equal parts (in
// round i rank r sends part r + i to r + i and combines part r from r - i; lower ranks'
// contributions go into the output, higher ones into scratch, appended last) and the ring
// allgather. Keeps rank order. For S a multiple of p: (2(p - 1), 2(1 - 1/p)n, n) for p >= 3 (the
// appending combination adds n/p to Rabenseifner's (1 - 1/p)n), 2(p - 1) messages per rank.
Schedule allreduce_pairwise_ring(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
