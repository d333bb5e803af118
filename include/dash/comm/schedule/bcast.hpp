#pragma once
// Broadcast schedules (Coll::bcast). Each returns rank `rank`'s schedule for `shape`. Trees are
// laid over ranks relative to the root; a rank sends to one child per round (one port), so the
// verifier's critical path charges a sender for each copy it sends, as the LogGP costs of
// Kowalewski 2021 ch. 4 do.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Binomial tree: the root first serves the largest subtree; ⌈lg p⌉ rounds on the critical path, the
// whole message (all segments) per edge (Kowalewski 2021 §4.2.2, Eq. 4.3).
Schedule bcast_binomial(const CollectiveShape& shape, int rank);

// k-ary heap tree (children of relative rank v: kv+1 .. kv+k, served left to right), whole message
// per edge; p - 1 messages of S blocks; critical path T_k(p) start-ups, the largest sum of child
// positions on a root-to-node path: k per level for a complete tree, k ⌊log_k p⌋ start-ups
// (Kowalewski 2021 §4.2.1, Eq. 4.1). Throws dash::InvalidArgument unless k >= 2.
Schedule bcast_kary_tree(const CollectiveShape& shape, int rank, int k);

// Linear pipeline: relative rank i forwards each of the S blocks to i + 1 as its own message;
// (p - 1) S messages, p + S - 2 start-ups and blocks on the critical path (Kowalewski 2021 §4.3,
// Eq. 4.5).
Schedule bcast_pipelined_chain(const CollectiveShape& shape, int rank);

// Pipelined binary heap tree: each block travels down the tree as its own message, a node sends
// block j to its left, then its right child; (p - 1) S messages, T_2(p) + 2 (S - 1) start-ups on
// the critical path (p > 2) (Kowalewski 2021 §4.3, Eq. 4.6).
Schedule bcast_pipelined_binary_tree(const CollectiveShape& shape, int rank);

// Scatter + allgather (van de Geijn; Kowalewski 2021 §4.5): the S blocks are split into p parts
// (part i: blocks ⌊iS/p⌋ .. ⌊(i+1)S/p⌋ - 1, empty when S < p), scattered down a binomial tree and
// collected by a ring allgather; messages of empty parts are left out. For S a multiple of p:
// ⌈lg p⌉ + p - 1 start-ups and 2 (p - 1) S / p blocks on the critical path.
Schedule bcast_scatter_allgather(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
