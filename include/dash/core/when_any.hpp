#pragma once
// dash::when_any: blocks until one of several futures is done and returns its position (counted
// from 0, in argument or vector order). The futures stay with the caller: the one reported can be
// waited for at once, the others later.
//
// Each round tests every future in order (running their continuations, see future.hpp) and stops
// at the first one done, also when it is done with an error. After a round in which none is done it
// calls dash::comm::yield_to_peers(), so the wait drives MPI progress for the peers and never spins
// without it.

#include <cstddef>
#include <string>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/comm/peer_progress.hpp>
#include <dash/core/future.hpp>

namespace dash {

// Throws dash::InvalidState (naming the argument, counted from 1) if a future holds no operation.
template <class... Ts>
std::size_t when_any(Future<Ts>&... futures) {
  static_assert(sizeof...(Ts) > 0, "dash::when_any: needs at least one future");
  std::size_t argument = 0;
  (detail::require_operation(futures.valid(), "dash::when_any", "argument " + std::to_string(++argument)), ...);
  while (true) {
    std::size_t index = 0;  // counts the futures tested and not done, up to the first done
    if (((futures.test() || (++index, false)) || ...)) {
      return index;
    }
    comm::yield_to_peers();
  }
}

// Throws dash::InvalidArgument if `futures` is empty, dash::InvalidState (naming the element) if a
// future holds no operation.
template <class T>
std::size_t when_any(std::vector<Future<T>>& futures) {
  if (futures.empty()) {
    throw InvalidArgument("dash::when_any: the vector of futures is empty; expected at least one future");
  }
  for (std::size_t i = 0; i < futures.size(); ++i) {
    detail::require_operation(futures[i].valid(), "dash::when_any", "futures[" + std::to_string(i) + "]");
  }
  while (true) {
    for (std::size_t i = 0; i < futures.size(); ++i) {
      if (futures[i].test()) {
        return i;
      }
    }
    comm::yield_to_peers();
  }
}

}  // namespace dash
