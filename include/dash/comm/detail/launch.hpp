#pragma once
// Internal: turns a typed collective call into a running execution: checks the arguments agree
// across ranks (in builds with DASH_CROSS_RANK_CHECKS), selects the algorithm, generates this
// rank's schedule and starts it.

#include <cstddef>
#include <memory>
#include <string_view>

#include <dash/comm/detail/collective_call.hpp>
#include <dash/comm/detail/execution.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/request.hpp>
#include <dash/comm/schedule/collective.hpp>

namespace dash::comm::detail {

struct Launched {
  Execution execution;
  BlockLayout layout;
  ArrivalMap map;
};

Launched launch(const CollectiveCall& call, const Group& group, const Options& options);

// Runs the call to completion (the blocking collectives): no request to build, and an arena run
// lives on the stack.
void run(const CollectiveCall& call, const Group& group, const Options& options);

}  // namespace dash::comm::detail
