#pragma once
// Internal: keeps one member's local argument error from hanging the others, in builds with
// DASH_CROSS_RANK_CHECKS (docs/configuration.md).
//
// A collective compares its arguments across its group's members once it starts
// (start_argument_check, comm/engine/argument_check.cpp). A member whose call throws before that (a
// buffer of the wrong size, a root out of range) would leave the others waiting for its part of
// the comparison. Each front end therefore holds a LocalFailureReport while it checks and starts
// its call: when the call leaves by an exception before this member's comparison started, the
// member takes part in the comparison with a hash no valid call produces, so that the others'
// calls throw dash::InvalidArgument as for differing arguments, and then lets its own exception
// go on.

#include <cstdint>
#include <exception>
#include <string_view>

#include <dash/comm/group.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

// How many argument comparisons this process started (collectives are called from one thread at a
// time, docs/configuration.md).
std::uint64_t argument_checks_started() noexcept;

// Takes part, with the hash of a failed call, in the comparison the other members of `group`
// start for their call of `function`, and waits until it completes. Never throws: it runs while
// the member's own exception propagates.
void report_failed_call(std::string_view function, const Group& group) noexcept;

class LocalFailureReport {
public:
  LocalFailureReport(std::string_view function, const Group& group) noexcept
      : function_(function),
        group_(group),
        exceptions_(cross_rank_checks_enabled ? std::uncaught_exceptions() : 0),
        checks_(cross_rank_checks_enabled ? argument_checks_started() : 0) {}
  ~LocalFailureReport() {
    if constexpr (cross_rank_checks_enabled) {
      if (std::uncaught_exceptions() > exceptions_ && argument_checks_started() == checks_) {
        report_failed_call(function_, group_);
      }
    }
  }
  LocalFailureReport(const LocalFailureReport&) = delete;
  LocalFailureReport& operator=(const LocalFailureReport&) = delete;

private:
  std::string_view function_;
  const Group& group_;
  int exceptions_;
  std::uint64_t checks_;
};

}  // namespace dash::comm::detail
