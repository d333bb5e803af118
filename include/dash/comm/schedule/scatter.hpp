#pragma once
// Scatter schedules (Coll::scatter). Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Linear: the root sends each rank its S blocks directly, one rank per round in relative order;
// p - 1 messages, all from the root; p - 1 start-ups and (p - 1) S blocks on the critical path.
Schedule scatter_linear(const CollectiveShape& shape, int rank);

// Binomial tree over relative ranks, largest subtree first; each edge carries its subtree's blocks
// in one message (inner ranks stage them in scratch). ⌈lg p⌉ start-ups and (p - 1) S blocks on
// the critical path, the root sends ⌈lg p⌉ messages (Kowalewski 2021 §4.2.2, Eq. 4.4).
Schedule scatter_binomial(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
