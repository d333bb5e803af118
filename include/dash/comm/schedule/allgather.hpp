#pragma once
// Allgather schedules (Coll::allgather). Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Ring: p - 1 rounds; in round k rank r forwards rank (r - k)'s contribution to r + 1.
Schedule allgather_ring(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
