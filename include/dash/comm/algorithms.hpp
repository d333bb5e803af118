#pragma once
// The algorithms each collective can run, and which one a call would use (DESIGN.md §2
// "Selection never falls back silently").
//
// A call runs the algorithm forced by Options::algorithm, else the one named by the environment
// variable DASH_COLL_<OP> (e.g. DASH_COLL_ALLREDUCE=ring), else the library's choice for the
// operation, the message size, the group size and the operation's commutativity. An algorithm
// that cannot serve a call (a non-commutative operation, a group size it does not support) is
// never chosen for it; forcing it throws dash::InvalidArgument naming the algorithm and the
// reason.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <dash/comm/group.hpp>
#include <dash/comm/schedule/collective.hpp>

namespace dash::comm {

// The names of the algorithms of `collective`, the default candidates first.
std::vector<std::string_view> algorithms(Coll collective);

struct Choice {
  std::string algorithm;
  std::string reason;
};

// The algorithm a call of `collective` with `bytes` per contribution on `group` would run, and
// why. Local: no communication.
Choice explain(Coll collective, std::size_t bytes, const Group& group, bool commutative = true);

}  // namespace dash::comm
