#include <atomic>
#include <climits>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>

namespace dash::comm {

namespace {
std::atomic<int> count_limit{INT_MAX};
}  // namespace

int int_count_limit() noexcept { return count_limit.load(std::memory_order_relaxed); }

ScopedIntCountLimit::ScopedIntCountLimit(int limit) : previous_(int_count_limit()) {
  if (limit < 1) {
    throw invalid_argument("dash::comm::ScopedIntCountLimit", "limit", limit, "at least 1");
  }
  count_limit.store(limit, std::memory_order_relaxed);
}

ScopedIntCountLimit::~ScopedIntCountLimit() {
  count_limit.store(previous_, std::memory_order_relaxed);
}

int to_int_count(std::size_t n, std::string_view function, std::string_view argument) {
  const int limit = int_count_limit();
  if (n > static_cast<std::size_t>(limit)) {
    throw out_of_range(function, argument, n,
                       "at most " + std::to_string(limit) + " (the MPI int count limit)");
  }
  return static_cast<int>(n);
}

}  // namespace dash::comm
