#pragma once
// reduce-scatter schedules. Each returns rank `rank`'s schedule for `shape`.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

}  // namespace dash::comm::schedule
