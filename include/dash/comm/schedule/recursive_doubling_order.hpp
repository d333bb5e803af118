#pragma once
// Recursive doubling with its stages in any order of the rank bits (Sack 2011 §3.4.1, §3.4.4
// "Composites"): non-minimal allgather, reduce-scatter and allreduce schedules for P = 2^L ranks.
//
// A stage order S is a permutation of the bit indices 0..L-1: stage s pairs rank i with
// i ^ 2^{S[s]} and moves 2^s contributions. Distance doubling, S = {0, ..., L-1}, is the classic
// minimal algorithm; other orders put the big late stages on near partners (the same leaf
// switch of a Clos network, nearest neighbours on a torus). They would leave the output in a
// permuted order, which one extra stage restores, so a rank whose data moves sends P instead of
// P - 1 contributions (Sack 2011 §3.4).
//
// The remap R(S, i) = Σ_r 2^r·bit_{S[r]}(i) (bits numbered from 0, the least significant; Sack
// writes 2^{r-1} with r from 1) puts bit S[r] of i at bit r. After stages 0..s-1 rank i holds
// the output positions that agree with R(S, i) in bits s and up: one contiguous range, into which
// the partner's range fits below when bit S[s] of i is 1 and above when it is 0. Hence a rank
// that starts with the contribution of R(S, i), at its own position, ends with the canonical
// output. For distance halving R is bit reversal; for distance doubling the identity.
//
// The generators take P = shape.size, a power of two, and the order (throwing
// dash::InvalidArgument otherwise); counts below are for n = shape.segments blocks per
// contribution. Messages of empty block sets are left out, so with n = 0 no rank sends anything.

#include <span>
#include <vector>

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// {0, 1, ..., lg p - 1} for a power of two p >= 1: R is the identity.
std::vector<int> distance_doubling_order(int p);

// {lg p - 1, ..., 1, 0}: the first stage pairs the farthest ranks, the last the nearest (Sack 2011
// §3.4.1).
std::vector<int> distance_halving_order(int p);

// The order for a torus of `dims` (each a power of two; numbered like network.hpp's grids,
// row-major with the last dimension fastest, so that dimension holds the lowest rank bits): the
// highest remaining bit of each dimension in turn, starting with the dimensions that have the most
// bits left (Sack 2011 §3.4.1). Within a turn the dimensions with more bits come first: bit j of a
// dimension (counted from 0) congests its links 2^j-fold, except the top bit, which crosses half
// the ring in both directions: 2^{j-1}-fold. Congestion then never grows from one stage to the next
// while the messages double, which minimises the exchanges' Σ_s 2^s·congestion(s) (Sack 2011 §3.3).
// Taking each turn's bits in ascending order instead, which costs more on non-cubic tori (1172
// against 1160 nδ on its 8x8x16, 4744 against 4688 on 8x16x32). Equal dimensions go lowest bits
// first, which reproduces its table for cubes, {2, 5, 8, 1, 4, 7, 0, 3, 6} on 8x8x8. On a mesh
// every bit j congests 2^j-fold, so the order suits meshes as well.
std::vector<int> torus_order(std::span<const int> dims);

// R(S, rank) and its inverse for rank in [0, 2^{|order|}) (dash::OutOfRange otherwise); `order`
// must be a permutation of 0 .. |order| - 1 (dash::InvalidArgument otherwise).
int remap(std::span<const int> order, int rank);
int remap_inverse(std::span<const int> order, int rank);

// Allgather: a pre-swap round in which rank i receives the contribution of R(S, i) (ranks with
// R(S, i) = i copy their own; the swaps form a permutation, one send and one receive per rank),
// then lg P rounds exchanging with i ^ 2^{S[s]}. With R ≠ identity: lg P + 1 rounds, P·n blocks
// sent per swapping rank instead of (P-1)n, P(P-1)n + (ranks moved)·n in all. No scratch.
Schedule allgather_recursive_doubling_ordered(const CollectiveShape& shape, int rank, std::span<const int> order);

// Reduce-scatter, the allgather's exact reverse: lg P recursive-halving rounds with partner bit
// S[s] for s = lg P - 1, ..., 0 (the rank keeps the lower half where its bit is 0) leave rank i
// with chunk R(S, i) combined over all ranks, which a post-swap sends to rank R(S, i). The first
// round sends straight from the input; scratch holds the P·n-block vector. Counts as for the
// allgather. Reorders combinations: commutative operations only (dash::InvalidArgument otherwise).
Schedule reduce_scatter_recursive_halving_ordered(const CollectiveShape& shape, int rank,
                                                  std::span<const int> order);

// Allreduce as reduce-scatter + allgather over P near-equal parts of the vector (Rabenseifner),
// both in order S: the reduce-scatter leaves rank i with part R(S, i), exactly where the
// allgather's pre-swap would put it, so neither swap is needed (Sack 2011 §3.4.4). 2 lg P rounds;
// for n a multiple of P, 2(1 - 1/P)n blocks sent and (1 - 1/P)n combined per rank. Commutative
// operations only.
Schedule allreduce_rabenseifner_ordered(const CollectiveShape& shape, int rank, std::span<const int> order);

// Broadcast as scatter + allgather over P near-equal parts of the vector (Sack 2011 §3.4.4's bcast
// = scatter + AG), both in order S: the scatter halves the root's vector in stages S[lg P - 1],
// ..., S[0] (in stage s every rank that holds data sends its partner i ^ 2^{S[s]} the half the
// partner keeps) and leaves rank i with part R(S, i), exactly where the allgather's pre-swap would
// put it, so no swap is needed; partners are the same for every root. At most 2 lg P rounds; for n
// a multiple of P, the root sends (1 - 1/P)n blocks in the scatter, and every rank sends as many in
// the allgather. Every round is fenced: a rank's sends leave one stage at a time.
Schedule bcast_scatter_allgather_ordered(const CollectiveShape& shape, int rank, std::span<const int> order);

// Reduce as reduce-scatter + gather over P near-equal parts (Rabenseifner; Sack 2011 §3.4.4's
// reduce = RS + gather), both in order S: the reduce-scatter leaves rank i with part R(S, i)
// combined, and the gather, the broadcast's scatter above run backwards, collects the parts at the
// root; no swap. At most 2 lg P rounds; for n a multiple of P, (1 - 1/P)n blocks sent and combined
// per rank in the reduce-scatter, and received by the root in the gather. Commutative operations
// only.
Schedule reduce_rabenseifner_ordered(const CollectiveShape& shape, int rank, std::span<const int> order);

}  // namespace dash::comm::schedule
