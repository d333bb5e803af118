#pragma once
// Leveled logging to standard error with a per-rank prefix, e.g. "[dash 3/8 warn] ...".
// The level comes from DASH_LOG_LEVEL (default: warn). Each message is written with a single
// write so that lines of different ranks do not interleave mid-line.

#include <sstream>
#include <string_view>

#include <dash/comm/config.hpp>

namespace dash::comm {

LogLevel log_level() noexcept;
void set_log_level(LogLevel level) noexcept;

inline bool log_enabled(LogLevel level) noexcept {
  return level != LogLevel::off && level <= log_level();
}

// Writes one line with the rank prefix; the caller has already checked log_enabled.
void write_log_line(LogLevel level, std::string_view message);

template <class... Parts>
void log(LogLevel level, const Parts&... parts) {
  if (!log_enabled(level)) {
    return;
  }
  std::ostringstream message;
  (message << ... << parts);
  write_log_line(level, message.str());
}

}  // namespace dash::comm
