// A team's fast paths: agreed when dash::Team makes it, released when it is freed (team_paths.hpp).

#include <dash/comm/team_paths.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/collective_arena.hpp"
#include "groups/group_paths.hpp"
#include "groups/group_state.hpp"
#include "groups/team_paths_state.hpp"
#include "topology/group_layout.hpp"
#include "topology/group_network.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm {

using namespace detail;  // the paths are built of the layer's internals

namespace {

// Rail r of a team of nodes of k members: team ranks r, k + r, 2k + r, ...
class TeamRailMap final : public RankMap {
public:
  TeamRailMap(std::shared_ptr<const RankMap> team, int node_size, int node_rank)
      : team_(std::move(team)), node_size_(node_size), node_rank_(node_rank) {}
  int to_base(int group_rank) const override { return team_->to_base(group_rank * node_size_ + node_rank_); }

private:
  std::shared_ptr<const RankMap> team_;
  int node_size_;
  int node_rank_;
};

// This process's node of DASH_TOPOLOGY's network: its own when the network names one node per
// rank (a grid of as many nodes as ranks, a Clos network over one machine), as the world group is
// priced; else its node's.
int network_node() {
  const Network& network = config().network;
  const Locality& place = locality();
  const bool node_per_rank =
      network.kind == NetworkKind::grid ? network.grid_nodes() != place.node_count : place.node_count == 1;
  return node_per_rank ? dash::myid() : place.node;
}

// Every member's node of DASH_TOPOLOGY's network, in group rank order (collective over `group`, on
// messages): O(group size) for the moment the team is made, and nothing without a network.
std::vector<int> network_nodes(const Group& group) {
  if (config().network.kind == NetworkKind::flat) {
    return {};
  }
  const std::array<int, 1> mine{network_node()};
  std::vector<int> all(static_cast<std::size_t>(group.size()));
  Options on_messages;
  on_messages.algorithm = "ring";
  allgather(mine, all, group, on_messages);
  return all;
}

std::unique_ptr<RankNetworkView> view_of(const Network& network) {
  auto view = std::make_unique<RankNetworkView>();
  view->generation = runtime_generation();
  view->network = network;
  if (network.kind == NetworkKind::grid) {
    view->grid = std::make_shared<const CartesianGrid>(network.dims, network.wrap);
  }
  return view;
}

// The team channels this process cannot offer: those its live teams hold, and those its arena lacks.
std::uint64_t channels_taken(const CollectiveArena* arena) {
  if (arena == nullptr) {
    return ~std::uint64_t{0};
  }
  const int channels = arena->team_channels();
  const std::uint64_t missing = channels >= CollectiveArena::max_team_channels ? 0 : ~std::uint64_t{0} << channels;
  return arena->taken_team_channels() | missing;
}

}  // namespace

void open_team_paths(const Group& group, const std::function<std::optional<int>(int)>& team_rank_of,
                     TagSpace rail_tags) {
  auto& state = GroupAccess::state(group);  // Group::State, whose name only the friend may spell
  CollectiveArena* arena = collective_arena();
  // The team's members on this node, in team rank order, with their node ranks.
  std::vector<std::pair<int, int>> here;
  const std::vector<int>& node_members = node_hierarchy().node_members;
  for (std::size_t node_rank = 0; node_rank < node_members.size(); ++node_rank) {
    if (const std::optional<int> rank = team_rank_of(node_members[node_rank])) {
      here.emplace_back(*rank, static_cast<int>(node_rank));
    }
  }
  std::sort(here.begin(), here.end());
  std::vector<int> ranks;
  std::vector<int> node_ranks;
  for (const auto& [rank, node_rank] : here) {
    ranks.push_back(rank);
    node_ranks.push_back(node_rank);
  }
  // Members alone on their nodes of the network are priced on the team's view of it (then the
  // arena steps aside, as for the world group).
  const std::vector<int> nodes = network_nodes(group);
  std::vector<int> distinct = nodes;
  std::sort(distinct.begin(), distinct.end());
  const bool alone = std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end();
  const PricedNetwork ranks_priced = alone ? priced_network(config().network, nodes) : PricedNetwork{};

  const std::array<LayoutFacts, 1> mine{member_facts(ranks, group.rank(), channels_taken(arena))};
  std::array<LayoutFacts, 1> all{};
  Options on_messages;  // the team has no channel yet
  on_messages.algorithm = "recursive_doubling";
  allreduce(mine, all, commutative([](const LayoutFacts& a, const LayoutFacts& b) { return combine(a, b); }), group,
            on_messages);

  auto paths = std::make_unique<TeamPaths>();
  paths->generation = runtime_generation();
  paths->layout = decide_layout(all[0], group.size(), arena != nullptr ? arena->team_channels() : 0,
                                ranks_priced.network ? ranks_are_nodes : shared_memory_off());
  const Layout& layout = paths->layout;
  if (layout.channel != 0) {
    const auto member = static_cast<int>(std::find(ranks.begin(), ranks.end(), group.rank()) - ranks.begin());
    paths->channel = std::make_unique<ArenaChannel>(*arena, layout.channel, std::move(node_ranks), member);
  }
  if (layout.no_hierarchy.empty()) {
    const int k = layout.node_size;
    const int node = group.rank() / k;
    const int node_rank = group.rank() % k;
    paths->rail.emplace(layout.nodes, node, std::make_shared<TeamRailMap>(state.map, k, node_rank), rail_tags);
    paths->hierarchy = Hierarchy{layout.nodes, k, node, node_rank, &*paths->rail, paths->channel.get()};
  }
  // The network: the team's ranks, else its rails (one member per node, node j's first at team rank j k).
  if (ranks_priced.network) {
    state.network = view_of(*ranks_priced.network);
  } else if (nodes.empty() || alone) {
    paths->no_network = nodes.empty() ? priced_network(config().network, nodes).why_not : ranks_priced.why_not;
  } else if (std::equal(nodes.begin() + 1, nodes.end(), nodes.begin())) {
    paths->no_network = "the team's members share one node of the network";
  } else if (!layout.no_hierarchy.empty()) {
    paths->no_network = "the team's members share nodes of the network, and no hierarchical algorithm serves it "
                        "(its rails would be priced there)";
  } else {
    std::vector<int> rail_nodes;
    for (int node = 0; node < layout.nodes; ++node) {
      rail_nodes.push_back(nodes[static_cast<std::size_t>(node * layout.node_size)]);
    }
    PricedNetwork rails_priced = priced_network(config().network, rail_nodes);
    if (rails_priced.network) {
      GroupAccess::state(*paths->rail).network = view_of(*rails_priced.network);
    } else {
      paths->no_network = "its rails: " + rails_priced.why_not;
    }
  }
  // Nothing below throws: the channel is taken only by a team that exists.
  if (layout.channel != 0) {
    arena->claim_team_channel(layout.channel);
  }
  state.paths = std::move(paths);
}

bool team_channel_busy(const Group& group) noexcept {
  const TeamPaths* paths = GroupAccess::state(group).paths.get();
  return paths != nullptr && paths->channel && paths->channel->running() > 0;
}

void release_team_paths(const Group& group) noexcept {
  std::shared_ptr<TeamPaths>& paths = GroupAccess::state(group).paths;
  CollectiveArena* arena = collective_arena();
  // Teams may outlive the library (Team::All()'s children at exit): their channel went with it.
  if (paths && paths->layout.channel != 0 && is_initialized() && paths->generation == runtime_generation() &&
      arena != nullptr) {
    arena->release_team_channel(paths->layout.channel);
  }
  paths.reset();
}

}  // namespace dash::comm
