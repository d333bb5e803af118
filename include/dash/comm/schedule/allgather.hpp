#pragma once
// Allgather schedules (Coll::allgather). Each returns rank `rank`'s schedule for `shape`.
// Costs are per rank, with S segments per contribution, p' = 2^⌊lg p⌋ and r = p - p'; every
// generator sends p(p-1)S blocks in total.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Ring: p - 1 rounds; in round k rank r forwards rank (r - k)'s contribution to r + 1; p - 1
// messages and (p-1)S blocks per rank (Kowalewski 2021 §4.4).
Schedule allgather_ring(const CollectiveShape& shape, int rank);

// Recursive doubling (Kowalewski 2021 §4.4): lg p rounds exchanging the whole aligned group held so
// far with rank ^ 2^k, (p-1)S blocks per rank. For p not a power of two the first 2r ranks pair up:
// even ones hand their block to the odd neighbour first and get the other p-1 blocks from it last
// (⌊lg p⌋ + 2 rounds; the odd ones send up to (p'-1 + Σ_{k<lg p'} min(2^k, r) + p-1)·S blocks).
Schedule allgather_recursive_doubling(const CollectiveShape& shape, int rank);

// Bruck / dissemination (Kowalewski 2021 §4.4): ⌈lg p⌉ rounds; in round j rank i sends the 2^j
// (last round: p - 2^j) contributions it holds to i - 2^j and receives from i + 2^j; (p-1)S blocks.
// Works in scratch (p·S blocks) in rotated order, then one local copy restores canonical order.
Schedule allgather_bruck(const CollectiveShape& shape, int rank);

// Bruck without the final reorder: output block t·S + b of rank i holds block b of rank
// (i + t) mod p, a permutation of the canonical output (Kowalewski 2021 §5.2.3); no scratch.
Schedule allgather_bruck_noncanonical(const CollectiveShape& shape, int rank);

// Sparbit (Loch & Koslovski 2021, Alg. 1): ⌈lg p⌉ steps at distances 2^{⌈lg p⌉-1}, ..., 2, 1 to
// rank + d, each step's blocks r - 2jd (mod p) in one message; p - 1 contributions, (p-1)S blocks,
// per rank.
// Places blocks directly in canonical order.
Schedule allgather_sparbit(const CollectiveShape& shape, int rank);

// Neighbor exchange (Chen et al., as in Open MPI; Loch & Koslovski 2021 §II): p/2 rounds
// alternating between the two ring neighbours, one contribution in the first round and two
// afterwards; (p-1)S blocks. Even p only: throws dash::InvalidArgument for odd p.
Schedule allgather_neighbor_exchange(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
