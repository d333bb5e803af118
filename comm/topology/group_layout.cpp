#include <algorithm>
#include <string>

#include "topology/group_layout.hpp"

namespace dash::comm::detail {

LayoutFacts member_facts(std::span<const int> node_members, int rank, std::uint64_t channels_taken) noexcept {
  LayoutFacts facts;
  facts.channels_taken = channels_taken;
  const auto count = static_cast<std::int32_t>(node_members.size());
  facts.fewest = count;
  facts.most = count;
  const int first = node_members.empty() ? rank : node_members.front();
  const int last = node_members.empty() ? rank : node_members.back();
  facts.aligned = count > 0 && last - first == count - 1 && first % count == 0 ? 1 : 0;
  facts.nodes = rank == first ? 1 : 0;
  return facts;
}

LayoutFacts combine(const LayoutFacts& a, const LayoutFacts& b) noexcept {
  return LayoutFacts{a.channels_taken | b.channels_taken, std::min(a.fewest, b.fewest), std::max(a.most, b.most),
                     std::min(a.aligned, b.aligned), a.nodes + b.nodes};
}

Layout decide_layout(const LayoutFacts& all, int size, int team_channels, std::string_view no_shared_memory) {
  Layout layout;
  layout.nodes = std::max(all.nodes, 1);
  layout.node_size = all.fewest == all.most ? all.most : 0;
  if (!no_shared_memory.empty()) {
    layout.no_arena = no_shared_memory;
    layout.no_hierarchy = no_shared_memory;
    return layout;
  }
  const bool one_node = layout.nodes == 1;
  if (one_node) {
    layout.no_hierarchy = "it needs a team on several nodes (the team's members share one, where the node arena "
                          "serves it)";
    if (size < 2) {
      layout.no_arena = "the team has one member (its calls copy locally)";
    }
  } else {
    layout.no_arena = "the team's members span " + std::to_string(layout.nodes) +
                      " nodes (the hierarchical algorithms serve teams on several)";
    if (all.most < 2) {
      layout.no_hierarchy = "the team's members are alone on their nodes, so no node has two to combine in shared "
                            "memory (its calls run between the nodes on messages)";
    } else if (all.fewest != all.most) {
      layout.no_hierarchy = "the team's nodes hold different numbers of its members (" + std::to_string(all.fewest) +
                            " to " + std::to_string(all.most) + ")";
    } else if (all.aligned == 0) {
      layout.no_hierarchy = "the team's members on each node must hold consecutive team ranks, its j-th node ranks "
                            "j k .. j k + k - 1 (k = " + std::to_string(all.most) + " per node)";
    }
  }
  std::string& wanting = one_node ? layout.no_arena : layout.no_hierarchy;
  if (!wanting.empty()) {
    return layout;
  }
  for (int channel = 1; channel <= team_channels; ++channel) {
    if ((all.channels_taken >> (channel - 1) & 1U) == 0) {
      layout.channel = channel;
      return layout;
    }
  }
  wanting = "no arena channel was free on every member when the team was made (each process has " +
            std::to_string(team_channels) +
            " for teams, DASH_ARENA_CHANNELS, and its live teams hold them: free teams no longer needed)";
  return layout;
}

}  // namespace dash::comm::detail
