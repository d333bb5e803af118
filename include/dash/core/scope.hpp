#pragma once
// The levels of the machine that Team::split_by_locality groups processes by.

namespace dash {

enum class Scope {
  Node,  // processes that share memory (MPI_COMM_TYPE_SHARED)
  NUMA,  // processes on the same node whose binding starts in the same NUMA domain
  Core,  // processes on the same node whose binding starts on the same core
};

}  // namespace dash
