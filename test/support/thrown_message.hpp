#pragma once
// What a call threw, as text: for tests in which some members of a group fail and the others
// must not, each checking its own outcome.

#include <string>
#include <string_view>

#include <dash/comm/exception.hpp>

namespace dash::testing {

// The message of the dash::Exception the call threw on this member, or "" if it returned.
template <class Call>
std::string thrown_message(Call&& call) {
  try {
    call();
  } catch (const dash::Exception& error) {
    return error.what();
  }
  return "";
}

inline bool mentions(std::string_view message, std::string_view part) {
  return message.find(part) != std::string_view::npos;
}

}  // namespace dash::testing
