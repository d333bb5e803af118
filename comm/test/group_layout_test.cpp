// The verdict a team's members reach from their combined facts (comm/topology/group_layout.hpp): which
// team is served by the node arena, which by the hierarchical algorithms, which by neither and
// why, and which channel each takes. Every case lays a team's members out on nodes (the team ranks
// each node holds), states each member's facts and combines them in two different orders, as an
// allreduce may.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "topology/group_layout.hpp"

namespace {

using dash::comm::detail::combine;
using dash::comm::detail::decide_layout;
using dash::comm::detail::Layout;
using dash::comm::detail::LayoutFacts;
using dash::comm::detail::member_facts;

using Nodes = std::vector<std::vector<int>>;  // the team ranks on each node

// The facts of every member of a team laid out as `nodes`, each process holding `taken` channels,
// combined forwards and backwards (both must agree).
LayoutFacts facts_of(const Nodes& nodes, std::uint64_t taken = 0) {
  std::vector<LayoutFacts> each;
  for (std::vector<int> members : nodes) {
    std::sort(members.begin(), members.end());
    for (const int rank : members) {
      each.push_back(member_facts(members, rank, taken));
    }
  }
  LayoutFacts forwards = each.front();
  for (std::size_t i = 1; i < each.size(); ++i) {
    forwards = combine(forwards, each[i]);
  }
  LayoutFacts backwards = each.back();
  for (std::size_t i = each.size() - 1; i-- > 0;) {
    backwards = combine(each[i], backwards);
  }
  EXPECT_EQ(forwards.channels_taken, backwards.channels_taken);
  EXPECT_EQ(forwards.fewest, backwards.fewest);
  EXPECT_EQ(forwards.most, backwards.most);
  EXPECT_EQ(forwards.aligned, backwards.aligned);
  EXPECT_EQ(forwards.nodes, backwards.nodes);
  return forwards;
}

int size_of(const Nodes& nodes) {
  int size = 0;
  for (const auto& members : nodes) {
    size += static_cast<int>(members.size());
  }
  return size;
}

Layout layout_of(const Nodes& nodes, std::uint64_t taken = 0, int channels = 4) {
  return decide_layout(facts_of(nodes, taken), size_of(nodes), channels, "");
}

TEST(GroupLayout, ATeamOnOneNodeTakesTheLowestFreeChannelForTheArena) {
  const Layout layout = layout_of({{0, 1, 2}}, 0b0101);
  EXPECT_EQ(layout.nodes, 1);
  EXPECT_EQ(layout.node_size, 3);
  EXPECT_EQ(layout.channel, 2);
  EXPECT_EQ(layout.no_arena, "");
  EXPECT_EQ(layout.no_hierarchy,
            "it needs a team on several nodes (the team's members share one, where the node arena serves it)");
}

TEST(GroupLayout, AnAlignedTeamOnSeveralNodesRunsHierarchically) {
  // A 2 x 2 grid's column on 2 nodes of 2 team members each, or a 3 x 2 team.
  for (const Nodes& nodes : {Nodes{{0, 1}, {2, 3}}, Nodes{{2, 3}, {0, 1}}, Nodes{{4, 5}, {0, 1}, {2, 3}}}) {
    const Layout layout = layout_of(nodes);
    EXPECT_EQ(layout.nodes, static_cast<int>(nodes.size()));
    EXPECT_EQ(layout.node_size, 2);
    EXPECT_EQ(layout.channel, 1);
    EXPECT_EQ(layout.no_hierarchy, "");
    EXPECT_EQ(layout.no_arena, "the team's members span " + std::to_string(nodes.size()) +
                                   " nodes (the hierarchical algorithms serve teams on several)");
  }
}

TEST(GroupLayout, TeamsTheHierarchyCannotServeSayWhyAndTakeNoChannel) {
  const Layout alone = layout_of({{0}, {1}, {2}});
  EXPECT_EQ(alone.channel, 0);
  EXPECT_EQ(alone.no_hierarchy, "the team's members are alone on their nodes, so no node has two to combine in "
                                "shared memory (its calls run between the nodes on messages)");
  const Layout uneven = layout_of({{0, 1}, {2, 3, 4}});
  EXPECT_EQ(uneven.channel, 0);
  EXPECT_EQ(uneven.node_size, 0);
  EXPECT_EQ(uneven.no_hierarchy, "the team's nodes hold different numbers of its members (2 to 3)");
  // Round robin over the nodes, and blocks that do not start at a multiple of the node size.
  for (const Nodes& nodes : {Nodes{{0, 2}, {1, 3}}, Nodes{{1, 2}, {0, 3}}}) {
    const Layout layout = layout_of(nodes);
    EXPECT_EQ(layout.channel, 0);
    EXPECT_EQ(layout.no_hierarchy, "the team's members on each node must hold consecutive team ranks, its j-th node "
                                   "ranks j k .. j k + k - 1 (k = 2 per node)");
  }
  const Layout single = layout_of({{0}});
  EXPECT_EQ(single.channel, 0);
  EXPECT_EQ(single.no_arena, "the team has one member (its calls copy locally)");
}

TEST(GroupLayout, NoFreeChannelIsAReasonNeverASilentFallback) {
  const std::string reason = "no arena channel was free on every member when the team was made (each process has 2 "
                             "for teams, DASH_ARENA_CHANNELS, and its live teams hold them: free teams no longer "
                             "needed)";
  // Channel 1 held on one node's processes, channel 2 on the other's: none is free on all.
  std::vector<LayoutFacts> each{member_facts(std::vector<int>{0, 1}, 0, 0b01), member_facts(std::vector<int>{0, 1}, 1, 0b01),
                                member_facts(std::vector<int>{2, 3}, 2, 0b10), member_facts(std::vector<int>{2, 3}, 3, 0b10)};
  LayoutFacts all = each[0];
  for (std::size_t i = 1; i < each.size(); ++i) {
    all = combine(all, each[i]);
  }
  const Layout spanning = decide_layout(all, 4, 2, "");
  EXPECT_EQ(spanning.channel, 0);
  EXPECT_EQ(spanning.no_hierarchy, reason);
  const Layout one_node = layout_of({{0, 1}}, 0b11, 2);
  EXPECT_EQ(one_node.channel, 0);
  EXPECT_EQ(one_node.no_arena, reason);
  EXPECT_EQ(layout_of({{0, 1}}, 0, 0).channel, 0);
  // Channels a process lacks count as taken (its DASH_ARENA_CHANNELS is lower).
  EXPECT_EQ(layout_of({{0, 1}}, ~std::uint64_t{0} << 1, 4).channel, 1);
  EXPECT_EQ(layout_of({{0, 1}}, std::uint64_t{1} << 63, 64).channel, 1);
  EXPECT_EQ(layout_of({{0, 1}}, ~(std::uint64_t{1} << 63), 64).channel, 64);
}

TEST(GroupLayout, WithoutSharedMemoryNothingServesAndNothingIsTaken) {
  const Layout layout = decide_layout(facts_of({{0, 1}, {2, 3}}), 4, 4, "it needs shared memory");
  EXPECT_EQ(layout.channel, 0);
  EXPECT_EQ(layout.no_arena, "it needs shared memory");
  EXPECT_EQ(layout.no_hierarchy, "it needs shared memory");
}

}  // namespace
