#pragma once
// The cross-rank comparison of a collective call's arguments (builds with
// DASH_CROSS_RANK_CHECKS; docs/configuration.md).

#include <memory>

#include <dash/comm/detail/collective_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

// Starts comparing the arguments every member must pass alike (operation, root, count, forced
// algorithm, segments, placement, grid) over the group's members; null in builds without
// DASH_CROSS_RANK_CHECKS and for the stages of a hierarchical call.
std::unique_ptr<PendingUniformCheck> start_argument_check(const CollectiveCall& call, const Group& group,
                                                          const Options& options);

}  // namespace dash::comm::detail
