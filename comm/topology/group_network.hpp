#pragma once
// Internal: the network a team's ranks, or its rails, are priced on (docs/collectives.md "Teams on
// the network"). A group whose members sit alone on their nodes of DASH_TOPOLOGY's network is
// priced, as the world group of one rank per node is, on its view of that network (topology.hpp,
// "A group's view"), rank i on node i of the view: where its ranks follow the view's node order. On
// a Clos network the view keeps the leaves the group fills: as many of its members on each, at
// consecutive ranks, and the leaf's uplinks for them. Pure.

#include <optional>
#include <span>
#include <string>

#include <dash/comm/network.hpp>

namespace dash::comm::detail {

struct PricedNetwork {
  std::optional<Network> network;  // rank i is its node i; empty when the group is not priced on one
  std::string why_not;             // then why
};

// A group whose rank i sits alone on node nodes[i] of `network` (distinct nodes).
PricedNetwork priced_network(const Network& network, std::span<const int> nodes);

}  // namespace dash::comm::detail
