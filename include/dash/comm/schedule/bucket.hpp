#pragma once
// Bucket schedules on a Cartesian process grid (Sack 2011 §3.3, §3.4.2, §3.4.4): allgather as rings
// along one grid dimension after another, each ring multiplying what a rank holds by the extent
// of its dimension; reduce-scatter as the exact reverse; allreduce as the two back to back.
//
// The grid is shape.grid (cartesian_grid.hpp); every generator throws dash::InvalidArgument
// unless it is set and has shape.size ranks. Ranks are numbered row-major, the LAST dimension
// varying fastest, so Sack's X (fastest), Y, Z are our dimensions k-1, k-2, ..., 0 of a
// k-dimensional grid, and a rank's number is the same in both. Any extents work (3x5x2 as well
// as 8x8x8). Every ring closes from the last coordinate back to the first; on a mesh (a
// dimension without wrap-around) that message travels the long way along the line, which keeps
// the schedule correct but shares that line's links.
//
// Costs per rank, with extents d_i, P = Π d_i ranks, S segments per contribution and
// D = Σ (d_i - 1) ring steps.
//
// Multi-port variants (`ways` = 3 or 6) cut the data into `ways` sections per contribution and
// run one bucket operation per section, all at once on different links: bucket b rings over the
// dimensions in the fastest-first order rotated by r (Sack's XYZ, YZX, ZXY for r = 0, 1, 2),
// r = b mod k for 3 ways and ⌊b/2⌋ mod k for 6 ways, where odd b run every ring in the opposite
// direction (Sack's XYZ+, XYZ-, YZX+, YZX-, ZXY+, ZXY-). On a 3-D torus every link of a rank
// then carries one bucket in each phase; with fewer dimensions several buckets share a ring
// (correct, with congestion). Phase q runs the q-th ring of every bucket, max over buckets of
// (extent - 1) rounds, and no bucket starts phase q + 1 before the rank finished phase q (Sack's
// per-dimension barrier, which keeps the buckets on separate links; here every round of
// the phases and of a reduce-scatter's final remap is fenced, schedule.hpp). On a non-cubic grid
// Sack charges a phase its busiest link's message train (§3.1); counted in lockstep rounds,
// a round costs its largest message, so short rings with large messages cost more than that.
//
// Sections: section j of rank i's contribution is its segments [⌊jS/w⌋, ⌊(j+1)S/w⌋) and has
// global number s = w·i + j; in the output it occupies its canonical blocks. Bucket b handles
// sections bP .. bP + P - 1, section bP + m at "slot" m, and a rank's slot in bucket b is its
// index in that bucket's dimension order (Sack's rotated coordinates, §3.4.2). Slots of one
// sub-grid are consecutive sections, so every ring message is one block range, and the
// concatenated bucket regions are the canonical output. Any S works: where Sack pads n to
// a multiple of w and shifts data to lower ranks (an extra stage, 3α + 8nδ on 8x16x32), sections
// here simply differ by at most one segment (S < w leaves some empty, and messages of no blocks
// are left out). The section remap (Sack's data shuffle) is one round: rank i sends its
// section j to the rank whose slot in bucket ⌊s/P⌋ is s mod P, at most w messages out and w in,
// at most 2w peers.
//
// With S >= w (allreduce: S >= wP) no section is empty and every rank has the same rounds, the
// lockstep network_cost.hpp assumes; otherwise rounds left without actions are dropped per rank.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// 1-port bucket allgather: a ring along the fastest dimension (messages of one contribution),
// then along the next (messages of d_{k-1} contributions), and so on. D rounds of one message
// each, (P-1)S blocks per rank, canonical output without scratch.
Schedule allgather_bucket(const CollectiveShape& shape, int rank);

// Multi-port bucket allgather with `ways` = 3 or 6 buckets (see above): the section remap round,
// then the phases. On a cube p^k with w | S: w(p-1) messages per phase and rank, rounds
// 1 + k(p-1), (P-1)S blocks in the phases plus at most S in the remap. Throws
// dash::InvalidArgument for other `ways`, and for 6 ways unless every dimension of extent > 1
// wraps around (the opposite rings would share the links of a mesh line; use 3 ways there).
Schedule allgather_bucket_multiport(const CollectiveShape& shape, int rank, int ways);

// Reduce-scatter, the exact reverse of allgather_bucket: rings along the slowest dimension first
// (the largest messages), the fastest last, each step combining the arriving partial sums into
// a scratch copy of the input (P·S blocks); D rounds, (P-1)S blocks per rank. Partial sums
// combine in ring order: commutative operations only (dash::InvalidArgument otherwise).
Schedule reduce_scatter_bucket(const CollectiveShape& shape, int rank);

// The exact reverse of allgather_bucket_multiport: the phases backwards, then the section remap
// sends every reduced section to its owner. Commutative operations only; `ways` as above.
Schedule reduce_scatter_bucket_multiport(const CollectiveShape& shape, int rank, int ways);

// Allreduce as bucket reduce-scatter then bucket allgather on the S-block vector cut into P
// near-equal sections (2D rounds; 2(P-1)S/P blocks per rank when P divides S). Both halves use
// the same slot of each rank, so the reorder stages cancel: no remap, no scratch. Commutative
// operations only.
Schedule allreduce_bucket(const CollectiveShape& shape, int rank);

// The same with `ways` buckets on w·P sections (2(P-1)S/P blocks per rank when wP divides S).
Schedule allreduce_bucket_multiport(const CollectiveShape& shape, int rank, int ways);

}  // namespace dash::comm::schedule
