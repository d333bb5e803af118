#pragma once
// Which algorithm a call runs: the forced one (Options::algorithm, DASH_COLL_<OP>) or the
// library's choice, kept per call shape (docs/collectives.md "Algorithms and selection").

#include <string_view>

#include <dash/comm/schedule/collective.hpp>

#include "selection/call_facts.hpp"
#include "selection/registry.hpp"

namespace dash::comm::selection {

struct Selected {
  const Algorithm* algorithm = nullptr;
  std::string_view reason;  // a literal: selection allocates nothing on the way to a collective
  bool by_cost_model = false;
};

// The library's own choice, kept per call shape: pricing a call allocates.
const Algorithm* library_choice(std::string_view function, Coll collective, const CallFacts& facts);

using Chooser = const Algorithm* (*)(std::string_view function, Coll collective, const CallFacts& facts);

// The algorithm DASH_COLL_<OP> forces on `collective`; empty where it is not set.
std::string_view environment_algorithm(Coll collective);

// The forced algorithm, else the one `choose` picks (library_choice; explain() prices afresh
// with cheapest rather than touch the collectives' cache from whatever thread it runs on).
// Throws dash::InvalidArgument, naming `function`, for a forced algorithm that is unknown or
// cannot serve the call.
Selected select(std::string_view function, Coll collective, const CallFacts& facts, std::string_view forced,
                Chooser choose = library_choice, bool honour_environment = true);

}  // namespace dash::comm::selection
