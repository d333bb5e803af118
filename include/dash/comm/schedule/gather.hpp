#pragma once
// Gather schedules (Coll::gather). Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Linear: every rank sends its S blocks to the root, which receives them one rank per round in
// relative order; p - 1 messages; p - 1 start-ups and (p - 1) S blocks on the critical path.
Schedule gather_linear(const CollectiveShape& shape, int rank);

// Binomial tree over relative ranks (scatter_binomial reversed): a rank collects its subtree,
// smallest child first, and sends it to its parent in one message (inner ranks stage it in
// scratch). ⌈lg p⌉ start-ups and (p - 1) S blocks on the critical path, one message per non-root
// (Kowalewski 2021 §4.2.2, Eq. 4.4).
Schedule gather_binomial(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
