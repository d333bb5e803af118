#pragma once
// The cost model's prediction for an algorithm on a call, and the cheapest candidate
// (docs/collectives.md "Algorithms and selection").

#include <cstddef>
#include <string_view>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/schedule/collective.hpp>

#include "selection/call_facts.hpp"
#include "selection/registry.hpp"

namespace dash::comm::selection {

struct Pricing {
  std::size_t block_bytes = 0;
  CostTerms terms;
  double seconds = 0;
};

// Blocks are priced at the largest segment, ⌈n / S⌉ elements. Variable-size calls are priced by
// their start-ups alone: their sizes differ between ranks, and every rank must choose alike. A
// group on several nodes pays the network's start-ups and bytes.
Pricing price(const Algorithm& algorithm, const CallFacts& facts, const CostParameters& machine);

// The candidate with the lowest predicted time; a tie goes to the one registered first. Throws
// dash::InvalidArgument naming `function` and every algorithm's refusal when none fits.
const Algorithm* cheapest(std::string_view function, Coll collective, const CallFacts& facts);

}  // namespace dash::comm::selection
