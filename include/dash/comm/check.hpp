#pragma once
// Leveled internal assertions.
//
// Checks stay on in release builds: the build-time DASH_ASSERT_LEVEL selects which ones are
// compiled, not NDEBUG. Level `cheap` (the default) guards O(1) invariants on every call; level
// `expensive` adds checks whose cost is comparable to the work they guard (e.g. verifying that a
// buffer is sorted). A failed check throws dash::AssertionFailure with the source location, so it
// is reported like any other error instead of aborting the job.

#include <concepts>
#include <source_location>
#include <string>
#include <string_view>

#ifndef DASH_ASSERT_LEVEL
#define DASH_ASSERT_LEVEL 1
#endif

namespace dash {

enum class CheckLevel : int { off = 0, cheap = 1, expensive = 2 };

inline constexpr CheckLevel compiled_check_level = static_cast<CheckLevel>(DASH_ASSERT_LEVEL);

template <CheckLevel Level>
inline constexpr bool check_enabled =
    Level != CheckLevel::off && static_cast<int>(Level) <= static_cast<int>(compiled_check_level);

namespace detail {
[[noreturn]] void throw_assertion_failure(std::string_view message, const std::source_location& where);
}  // namespace detail

// Throws dash::AssertionFailure when `condition` is false and `Level` is compiled in. `message`
// is a string or a callable returning one; a callable is evaluated only on failure.
template <CheckLevel Level = CheckLevel::cheap, class Message>
void assert_that(bool condition, const Message& message,
                 std::source_location where = std::source_location::current()) {
  if constexpr (check_enabled<Level>) {
    if (!condition) [[unlikely]] {
      if constexpr (std::invocable<const Message&>) {
        detail::throw_assertion_failure(std::string(message()), where);
      } else {
        detail::throw_assertion_failure(std::string_view(message), where);
      }
    }
  }
}

}  // namespace dash
