// explain(): the algorithm a call would run, every candidate's price, and the group's paths.

#include <array>
#include <cstdio>
#include <string>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/runtime.hpp>
#include <dash/comm/selection.hpp>

#include "arena/collective_arena.hpp"
#include "groups/group_paths.hpp"
#include "selection/call_facts.hpp"
#include "selection/choice.hpp"
#include "selection/pricing.hpp"
#include "selection/registry.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm {

namespace {

using selection::CallFacts;

// "1.23 us"
std::string microseconds(double seconds) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.3g us", seconds * 1e6);
  return text.data();
}

// Why neither the group's ranks nor its rails are priced on DASH_TOPOLOGY's network.
std::string network_unfit(const Group& group, const CallFacts& facts) {
  if (config().network.kind == NetworkKind::flat) {
    return "DASH_TOPOLOGY names no network (flat): every candidate is priced by its closed form";
  }
  if (group.is_world() || detail::is_rail(group)) {
    return "the group's ranks are not the network's nodes (a grid of as many nodes as it has ranks, or a Clos "
           "network with one rank per node)" +
           std::string(facts.no_hierarchy.empty() ? "" : ", and no rails of a hierarchical collective serve it");
  }
  if (const std::string_view why = detail::team_network_unfit(group); !why.empty()) {
    return std::string(why);
  }
  return "only the world group, teams and their rails are priced on the network (a group of listed ranks is not)";
}

// What explain() says of the group's paths beyond the message schedules.
void add_path_verdicts(Choice& choice, const CallFacts& facts, const Group& group) {
  choice.arena.serves = facts.no_shared_memory.empty();
  if (choice.arena.serves) {
    const detail::ArenaChannel& channel = *detail::arena_channel_of(group);
    choice.arena.detail = "arena channel " + std::to_string(channel.channel()) + " of the node, where the group's " +
                          std::to_string(channel.size()) + " members meet";
  } else {
    choice.arena.detail = std::string(facts.no_shared_memory);
  }
  choice.hierarchy.serves = facts.no_hierarchy.empty();
  if (choice.hierarchy.serves) {
    const detail::Hierarchy hierarchy = *detail::hierarchy_of(group);
    choice.hierarchy.detail = std::to_string(hierarchy.nodes) + " nodes of " + std::to_string(hierarchy.node_size) +
                              " members: each node's members meet in arena channel " +
                              std::to_string(hierarchy.channel->channel()) +
                              " of their node, and rails of one member per node carry the inter-node stage";
  } else {
    choice.hierarchy.detail = std::string(facts.no_hierarchy);
  }
  if (facts.network != nullptr) {
    choice.network = {true, "its ranks are priced as the nodes of " + to_string(*facts.network)};
  } else if (choice.hierarchy.serves && facts.rail_network.network != nullptr) {
    choice.network = {true, "its rails are priced as the nodes of " + to_string(*facts.rail_network.network)};
  } else {
    choice.network = {false, network_unfit(group, facts)};
  }
}

}  // namespace

Choice explain(Coll collective, std::size_t bytes, const Group& group, bool commutative) {
  CallFacts facts{.size = group.size(), .bytes = bytes, .elements = bytes, .commutative = commutative};
  selection::add_group_facts(facts, group);
  const selection::Selected selected =
      selection::select("dash::comm::explain", collective, facts, {}, selection::cheapest);
  const CostParameters& parameters = config().cost_parameters;
  Choice choice;
  choice.algorithm = std::string(selected.algorithm->name);
  double chosen_seconds = 0;
  std::size_t fitting = 0;
  for (const selection::Algorithm& algorithm : selection::registry()) {
    if (algorithm.collective != collective) {
      continue;
    }
    Candidate candidate;
    candidate.algorithm = std::string(algorithm.name);
    candidate.segments = selection::segments_of(algorithm, facts);
    candidate.unfit = selection::why_no_candidate(algorithm, facts);
    candidate.forcible = selection::why_unfit(algorithm, facts).empty();
    if (candidate.unfit.empty()) {
      const selection::Pricing pricing = selection::price(algorithm, facts, parameters);
      candidate.block_bytes = pricing.block_bytes;
      candidate.terms = pricing.terms;
      candidate.predicted_seconds = pricing.seconds;
      ++fitting;
    }
    if (&algorithm == selected.algorithm) {
      chosen_seconds = candidate.predicted_seconds;
    }
    choice.candidates.push_back(std::move(candidate));
  }
  choice.reason = selected.by_cost_model
                      ? "lowest predicted time of the " + std::to_string(fitting) +
                            " algorithms that can serve the call: " + microseconds(chosen_seconds) + " (cost model " +
                            to_string(parameters) +
                            (facts.between_nodes ? "; the group spans nodes: messages priced with alpha_net, beta_net)"
                                                 : ")")
                      : std::string(selected.reason);
  choice.between_nodes = facts.between_nodes;
  add_path_verdicts(choice, facts, group);
  return choice;
}

}  // namespace dash::comm
