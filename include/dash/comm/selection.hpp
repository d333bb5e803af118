#pragma once
// The algorithms each collective can run, and which one a call would use (docs/design.md §2
// "Selection never falls back silently").
//
// A call runs the algorithm forced by Options::algorithm, else the one named by the environment
// variable DASH_COLL_<OP> (e.g. DASH_COLL_ALLREDUCE=ring), else the library's choice: of the
// operation's algorithms that can serve the call, the one the cost model (cost_model.hpp)
// predicts fastest for the group size and the bytes per contribution; a tie goes to the one
// listed first. An algorithm that cannot serve a call (a non-commutative operation, a group size
// it does not support, arrival-order output the caller did not allow, scratch space a
// variable-size call cannot use) is never chosen for it; forcing it throws dash::InvalidArgument
// naming the algorithm and the reason.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/schedule/collective.hpp>

namespace dash::comm {

// The names of the algorithms of `collective`, in the order that breaks ties of the cost model.
std::vector<std::string_view> algorithms(Coll collective);

// An algorithm of the operation as the library's choice weighs it.
struct Candidate {
  std::string algorithm;
  std::string unfit;            // why it is no candidate for the call; empty when it is (then it is priced)
  bool forcible = false;        // forcing it (Options::algorithm) would serve the call
  std::uint32_t segments = 0;   // S: the blocks per contribution it would run with
  std::size_t block_bytes = 0;  // bytes per block: the largest segment
  CostTerms terms;              // its critical path and copies, in blocks
  double predicted_seconds = 0;
};

// Whether one of the paths beyond plain message schedules serves a group: what it is, or why not.
struct PathVerdict {
  bool serves = false;
  std::string detail;
};

struct Choice {
  std::string algorithm;
  std::string reason;
  std::vector<Candidate> candidates;  // every algorithm of the operation, in the order of algorithms()
  // The group's paths (docs/collectives.md "Teams on the fast paths"): the node arena's collectives
  // in a channel of its members' regions, the hierarchical ones over its nodes, and prices on
  // DASH_TOPOLOGY's network (its ranks standing for the network's nodes, or its rails).
  PathVerdict arena;
  PathVerdict hierarchy;
  PathVerdict network;
  // The group spans nodes: its messages (a hierarchical run's rails always) are priced with the
  // cost model's alpha_net and beta_net (cost_model.hpp).
  bool between_nodes = false;
};

// The algorithm a call of `collective` with `bytes` per contribution (of one-byte elements) on
// `group` would run, why, how the cost model priced each algorithm, and which paths serve the
// group. Local: no communication.
Choice explain(Coll collective, std::size_t bytes, const Group& group, bool commutative = true);

}  // namespace dash::comm
