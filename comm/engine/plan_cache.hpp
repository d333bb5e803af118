#pragma once
// Plans (schedule and dependency analysis) kept per call shape: the same call shape on the same
// rank reuses its plan instead of generating the schedule again.

#include <cstdint>
#include <memory>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/detail/execution.hpp>
#include <dash/comm/schedule/collective.hpp>

#include "../selection/registry.hpp"

namespace dash::comm::detail {

// A plan depends on the grid's value, not on which copy of it a call passed.
struct GridKey {
  std::shared_ptr<const CartesianGrid> grid;
  friend bool operator==(const GridKey& a, const GridKey& b) {
    return a.grid == b.grid || (a.grid && b.grid && *a.grid == *b.grid);
  }
};

// What a plan depends on.
struct PlanKey {
  const selection::Algorithm* algorithm;
  int size;
  int rank;
  int root;
  std::uint32_t segments;
  bool commutative;
  GridKey grid;
  friend bool operator==(const PlanKey&, const PlanKey&) = default;
};

// The plan of `key.algorithm` on `shape` for `key.rank`, generated on first use.
std::shared_ptr<const Plan> cached_plan(const PlanKey& key, const CollectiveShape& shape);

}  // namespace dash::comm::detail
