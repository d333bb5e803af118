#pragma once
// Allreduce schedules (Coll::allreduce). Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Recursive doubling on full vectors (seed 001 §2.2). For p not a power of two, the first 2r
// ranks (r = p - p') pair up: even ranks hand their vector to the odd neighbour before, and
// receive the result after, the lg p' exchange steps. Keeps rank order, so it also serves
// non-commutative operations.
Schedule allreduce_recursive_doubling(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
