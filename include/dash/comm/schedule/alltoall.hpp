#pragma once
// Alltoall schedules (Coll::alltoall). Each returns rank `rank`'s schedule for `shape`.
//
// Input block q*S + b goes to rank q; output block q*S + b comes from rank q. Costs are per rank,
// with S blocks per rank pair; Kowalewski 2021 §4.4 (algorithms) and its FMPI library
// (github.com/rkowalewski/fmpi) for the partner formulas.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Personalized ring (§3.4 "direct exchange" 1): round j = 1..p-1 sends to r + j, receives from
// r - j. p - 1 rounds, p - 1 messages, (p - 1) S blocks.
Schedule alltoall_pairwise(const CollectiveShape& shape, int rank);

// Linear (FMPI's "Linear"): every message in one round. 1 round, p - 1 messages, (p - 1) S blocks.
Schedule alltoall_linear(const CollectiveShape& shape, int rank);

// Hypercube exchange (§3.4 direct exchange 2), p a power of two (else dash::InvalidArgument):
// round j = 1..p-1 exchanges with r XOR j. p - 1 rounds, p - 1 messages, (p - 1) S blocks.
Schedule alltoall_hypercube_xor(const CollectiveShape& shape, int rank);

// Rounds of the one-factorization of K_p (FMPI's "OneFactor"): p for odd p, p - 1 for even p.
int one_factor_rounds(int p) noexcept;

// Partner of `rank` in one-factor round `round` (as in FMPI; the thesis prints the odd-p formula
// garbled); `rank` itself when idle.
// Odd p: (round - rank) mod p. Even p: the odd construction on ranks 0..p-2, whose idle rank
// (p/2 * round mod (p-1)) pairs with rank p - 1.
int one_factor_partner(int p, int round, int rank) noexcept;

// One-factorization (§3.4 direct exchange 3): each round is a perfect matching, each pair
// exchanges once. p - 1 messages, (p - 1) S blocks; p rounds (each rank idles in one, where it
// copies its own block) for odd p, p - 1 rounds for even p.
Schedule alltoall_one_factor(const CollectiveShape& shape, int rank);

// Bruck, radix 2 (§3.4 "message combining"): rotate so slot k holds the block for r + k; in round
// j = 0..⌈lg p⌉-1 send the slots with bit j set to r + 2^j as one strided message; reorder
// output[(r - k) mod p] = slot k. ⌈lg p⌉ rounds and messages, S * Σ_j |{k < p : bit j of k}|
// blocks (at most ⌊p/2⌋ S per round). Scratch: p S blocks.
Schedule alltoall_bruck(const CollectiveShape& shape, int rank);

// Bruck without the final reorder: output block k S + b holds block r S + b of rank (r - k) mod p,
// a permutation of the canonical output (VerifyOptions::allow_non_canonical). Same costs.
Schedule alltoall_bruck_noncanonical(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
