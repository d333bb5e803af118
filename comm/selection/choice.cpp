// Selection of a call's algorithm: forced, or the library's choice kept per call shape.

#include "selection/choice.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/runtime.hpp>

#include "selection/pricing.hpp"

namespace dash::comm::selection {

namespace {

constexpr std::string_view cost_model_reason = "lowest predicted time (cost model)";

std::string upper(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

// The call shapes a choice depends on (a variable-size call's sizes do not count, see price()).
struct ChoiceKey {
  Coll collective;
  int size;
  std::size_t bytes;
  std::size_t elements;
  std::uint32_t segments;
  bool commutative;
  bool variable;
  bool canonical;
  bool output_varies;
  // Groups of one size differ in whether the arena serves them, and whether they run
  // hierarchically, on nodes of how many members.
  bool arena;
  bool hierarchy;
  int node_size;
  bool between_nodes;
  CostParameters parameters;
  // The descriptors of the networks the group's ranks and its rails are priced on ("" for none).
  std::string network;
  std::string rail_network;
  friend bool operator==(const ChoiceKey&, const ChoiceKey&) = default;
};

struct ChoiceKeyHash {
  std::size_t operator()(const ChoiceKey& key) const noexcept {
    std::size_t hash = static_cast<std::size_t>(key.collective);
    for (const std::size_t part :
         {static_cast<std::size_t>(key.size), key.bytes, key.elements, std::size_t{key.segments},
          std::size_t{key.commutative} | std::size_t{key.variable} << 1 | std::size_t{key.canonical} << 2 |
              std::size_t{key.output_varies} << 3 | std::size_t{key.arena} << 4 |
              std::size_t{key.hierarchy} << 5 | std::size_t{key.between_nodes} << 6,
          static_cast<std::size_t>(key.node_size)}) {
      hash = hash * 1000003u ^ part;
    }
    return hash;
  }
};

// The descriptor of `network` ("" for none), formatted once per network rather than once per call:
// a few recent ones are kept (a team's view and its rails' differ from the world group's).
const std::string& network_descriptor(const Network* network) {
  static const std::string none;
  if (network == nullptr) {
    return none;
  }
  static std::array<std::optional<std::pair<Network, std::string>>, 4> recent;
  static std::size_t next = 0;
  for (const auto& entry : recent) {
    if (entry && entry->first == *network) {
      return entry->second;
    }
  }
  std::optional<std::pair<Network, std::string>>& entry = recent[next++ % recent.size()];
  entry.emplace(*network, to_string(*network));
  return entry->second;
}

}  // namespace

// Pricing a call allocates (error texts of unfit candidates, binary blocks' per-rank clocks), so
// choices are kept per call shape; calls on a grid are priced afresh (neighbor_alltoall has one
// algorithm, and the grid is not part of the key).
const Algorithm* library_choice(std::string_view function, Coll collective, const CallFacts& facts) {
  if (facts.grid != nullptr) {
    return cheapest(function, collective, facts);
  }
  // Collectives are called from one thread at a time (docs/configuration.md), so no lock.
  static std::unordered_map<ChoiceKey, const Algorithm*, ChoiceKeyHash> choices;
  // A loop of one call shape (the common case) skips hashing.
  static std::optional<std::pair<ChoiceKey, const Algorithm*>> last;
  constexpr std::size_t capacity = 256;
  const ChoiceKey key{collective,
                      facts.size,
                      facts.variable ? 0 : facts.bytes,
                      facts.variable ? 0 : facts.elements,
                      facts.segments,
                      facts.commutative,
                      facts.variable,
                      facts.canonical,
                      facts.output_varies,
                      facts.no_shared_memory.empty(),
                      facts.no_hierarchy.empty(),
                      facts.no_hierarchy.empty() ? facts.node_size : 0,
                      facts.between_nodes,
                      config().cost_parameters,
                      network_descriptor(facts.network),
                      network_descriptor(facts.rail_network.network)};
  if (last && last->first == key) {
    return last->second;
  }
  const Algorithm* choice = nullptr;
  if (const auto found = choices.find(key); found != choices.end()) {
    choice = found->second;
  } else {
    if (choices.size() >= capacity) {
      choices.clear();
    }
    choice = cheapest(function, collective, facts);
    choices.emplace(key, choice);
  }
  last.emplace(key, choice);
  return choice;
}

std::string_view environment_algorithm(Coll collective) {
  if (config().forced_algorithms.empty()) {
    return {};
  }
  const std::string variable = "DASH_COLL_" + upper(to_string(collective));
  std::string_view name;
  for (const auto& [setting, algorithm] : config().forced_algorithms) {
    if (setting == variable) {
      name = algorithm;
    }
  }
  return name;
}

Selected select(std::string_view function, Coll collective, const CallFacts& facts, std::string_view forced,
                Chooser choose, bool honour_environment) {
  std::string_view name = forced;
  if (name.empty() && honour_environment) {
    name = environment_algorithm(collective);
  }
  if (!name.empty()) {
    const bool from_options = !forced.empty();
    const Algorithm* algorithm = find(collective, name);
    const auto origin = [&] {
      return from_options ? std::string("forced by Options::algorithm")
                          : "forced by DASH_COLL_" + upper(to_string(collective));
    };
    if (algorithm == nullptr) {
      throw invalid_argument(function, "algorithm (" + origin() + ")", name, "one of " + known_names(collective));
    }
    if (const std::string why = why_unfit(*algorithm, facts); !why.empty()) {
      throw InvalidArgument(std::string(function) + ": algorithm '" + std::string(name) + "' (" + origin() +
                            ") cannot serve this call: " + why);
    }
    return {algorithm, from_options ? "forced by Options::algorithm" : "forced by DASH_COLL_<OP>"};
  }
  return {choose(function, collective, facts), cost_model_reason, true};
}

}  // namespace dash::comm::selection
