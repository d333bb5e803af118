#pragma once
// Plans (schedule and dependency analysis) kept per call shape: the same call shape on the same
// rank reuses its plan instead of generating the schedule again.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/schedule/collective.hpp>

#include "engine/grid_hash.hpp"
#include "engine/plan.hpp"
#include "selection/registry.hpp"

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

// Hashes every field of the key, the grid by its value.
struct PlanKeyHash {
  std::size_t operator()(const PlanKey& key) const noexcept {
    std::size_t hash = std::hash<const void*>{}(key.algorithm);
    for (const std::size_t part : {static_cast<std::size_t>(key.size), static_cast<std::size_t>(key.rank),
                                   static_cast<std::size_t>(key.root), std::size_t{key.segments},
                                   std::size_t{key.commutative},
                                   static_cast<std::size_t>(grid_hash(key.grid.grid.get()))}) {
      hash = hash * 1000003u ^ part;
    }
    return hash;
  }
};

// The plan of `key.algorithm` on `shape` for `key.rank`, generated on first use. Inline: a loop of
// one call shape takes the first branch on every call, which costs less than the call would.
// Collectives are called from one thread at a time (docs/configuration.md), so no lock.
inline std::shared_ptr<const Plan> cached_plan(const PlanKey& key, const CollectiveShape& shape) {
  static std::unordered_map<PlanKey, std::shared_ptr<const Plan>, PlanKeyHash> plans;
  // A loop of one call shape (the common case) skips hashing.
  static std::optional<std::pair<PlanKey, std::shared_ptr<const Plan>>> last;
  if (last && last->first == key) {
    return last->second;
  }
  constexpr std::size_t capacity = 256;
  if (const auto found = plans.find(key); found != plans.end()) {
    last.emplace(key, found->second);
    return found->second;
  }
  if (plans.size() >= capacity) {
    plans.clear();
  }
  auto plan = make_plan(key.algorithm->generate(shape, key.rank), shape.output_blocks(key.rank));
  plans.emplace(key, plan);
  last.emplace(key, plan);
  return plan;
}

}  // namespace dash::comm::detail
