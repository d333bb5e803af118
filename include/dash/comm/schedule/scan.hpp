#pragma once
// Inclusive and exclusive prefix reductions (Coll::scan, Coll::exscan). Each returns rank
// `rank`'s schedule for `shape`. All keep rank order (lower ranks on the left), so they serve
// non-commutative operations. The published works behind this layer (docs/references.md) do not treat scans; the counts below are derived for
// these constructions under the verifier's α-β-γ critical path.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Recursive doubling (Hillis-Steele): in round j rank r sends its prefix of ranks r - 2^j + 1 .. r
// to r + 2^j and combines the one from r - 2^j on its left; ⌈lg p⌉ rounds, at most ⌈lg p⌉
// messages of S blocks per rank, ⌈lg p⌉ p - 2^⌈lg p⌉ + 1 in all; ⌈lg p⌉ start-ups, ⌈lg p⌉ S
// blocks and ⌈lg p⌉ S combined blocks on the critical path.
Schedule scan_recursive_doubling(const CollectiveShape& shape, int rank);

// Linear chain: rank r combines the prefix of r - 1 with its input and passes it on; p - 1
// messages of S blocks; p - 1 start-ups, (p - 1) S blocks and (p - 1) S combined blocks on the
// critical path.
Schedule scan_linear(const CollectiveShape& shape, int rank);

// Exclusive recursive doubling: as scan_recursive_doubling, but a rank keeps the prefix it
// forwards (own input included) apart from its output (own input excluded). Same messages,
// start-ups and blocks; ⌈lg p⌉ S combined blocks on the critical path (⌈lg p⌉ - 1 for p <= 3,
// where no rank forwards a combined prefix). Rank 0's output is left undefined.
Schedule exscan_recursive_doubling(const CollectiveShape& shape, int rank);

// Exclusive linear chain: rank r receives its output from r - 1 and forwards it combined with its
// input; p - 1 messages of S blocks; p - 1 start-ups, (p - 1) S blocks and (p - 2) S combined
// blocks on the critical path. Rank 0's output is left undefined.
Schedule exscan_linear(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
