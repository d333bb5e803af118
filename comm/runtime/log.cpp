#include <atomic>
#include <string>

#include <unistd.h>

#include <dash/comm/log.hpp>

#include "runtime/log_identity.hpp"

namespace dash::comm {

namespace {
std::atomic<LogLevel> current_level{LogLevel::warn};
std::atomic<int> log_rank{-1};
std::atomic<int> log_size{-1};
}  // namespace

LogLevel log_level() noexcept { return current_level.load(std::memory_order_relaxed); }

void set_log_level(LogLevel level) noexcept { current_level.store(level, std::memory_order_relaxed); }

void write_log_line(LogLevel level, std::string_view message) {
  const int rank = log_rank.load(std::memory_order_relaxed);
  std::string line = "[dash ";
  if (rank < 0) {
    line += "-";
  } else {
    line += std::to_string(rank) + "/" + std::to_string(log_size.load(std::memory_order_relaxed));
  }
  line += " ";
  line += to_string(level);
  line += "] ";
  line += message;
  line += '\n';
  // One write(2) per line: lines from different ranks sharing a terminal stay whole.
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(STDERR_FILENO, line.data() + written, line.size() - written);
    if (n <= 0) {
      return;
    }
    written += static_cast<std::size_t>(n);
  }
}

namespace detail {

void set_log_identity(int rank, int size) noexcept {
  log_rank.store(rank, std::memory_order_relaxed);
  log_size.store(size, std::memory_order_relaxed);
}

void clear_log_identity() noexcept { set_log_identity(-1, -1); }

}  // namespace detail

}  // namespace dash::comm
