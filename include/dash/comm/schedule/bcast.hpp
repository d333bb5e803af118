#pragma once
// Broadcast schedules (Coll::bcast). Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Binomial tree: the root first serves the largest subtree; ⌈lg p⌉ rounds on the critical path,
// the whole message (all segments) per edge.
Schedule bcast_binomial(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
