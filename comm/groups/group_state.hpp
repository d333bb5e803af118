#pragma once
// Private to dash_comm: what a Group shares among its copies (group.hpp), including the fast
// paths a team agreed on when it was made (groups/group_paths.hpp).

#include <cstdint>
#include <memory>

#include <dash/comm/group.hpp>

namespace dash::comm {

namespace detail {

// A group's extras, defined in team_paths_state.hpp: only what makes and reads them needs them.
struct RankNetworkView;
struct TeamPaths;

}  // namespace detail

struct Group::State {
  int size = 0;
  int rank = 0;
  std::shared_ptr<const RankMap> map;
  TagSpace tags;
  mutable unsigned long long sequence = 0;
  bool world = false;  // Group::world()'s (shared by Team::All()): is_world() asks on every call
  // Never shared by two groups of one process: what selection keeps per group (engine/launch.cpp) is
  // keyed on it, not on the state's address, which a later group may reuse.
  std::uint64_t serial = 0;
  // Shared pointers: each is destroyed with the deleter of the code that made it, which knows its type.
  std::shared_ptr<detail::TeamPaths> paths;
  std::shared_ptr<detail::RankNetworkView> network;
};

namespace detail {

// The state of a group, for the layer's own code.
struct GroupAccess {
  static Group::State& state(const Group& group) noexcept { return *group.state_; }
};

}  // namespace detail

}  // namespace dash::comm
