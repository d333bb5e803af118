#pragma once
// Minimal checks for the lifecycle programs, which cannot use the shared MPI test main.

#include <stdexcept>
#include <string>

#include <dash/comm/exception.hpp>

namespace dash::testing {

inline void expect_true(bool condition, const std::string& what) {
  if (!condition) {
    throw std::runtime_error("check failed: " + what);
  }
}

// Runs `call` and requires dash::InvalidState with exactly `message`.
template <class Call>
void expect_invalid_state(Call call, const std::string& message) {
  try {
    call();
  } catch (const dash::InvalidState& error) {
    if (error.what() != message) {
      throw std::runtime_error("wrong message:\n  got      '" + std::string(error.what()) +
                               "'\n  expected '" + message + "'");
    }
    return;
  }
  throw std::runtime_error("no dash::InvalidState thrown; expected '" + message + "'");
}

}  // namespace dash::testing
