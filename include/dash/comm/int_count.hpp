#pragma once
// The one checked conversion from a C++ size to an MPI `int` count (docs/design.md §2).
//
// MPI-3 counts are `int`. Every size the library hands to MPI goes through to_int_count, which
// throws dash::OutOfRange instead of silently truncating. Messages larger than the limit are sent
// as derived datatypes (see message_count.hpp). The limit is INT_MAX; tests lower it with
// ScopedIntCountLimit so that the large-count path runs on small buffers.

#include <cstddef>
#include <string_view>

namespace dash::comm {

// The largest count to_int_count accepts: INT_MAX unless a ScopedIntCountLimit is active.
int int_count_limit() noexcept;

// Lowers the count limit for its lifetime (tests of the large-count path). Not thread-safe
// against concurrent communication: install it before the code under test runs.
class ScopedIntCountLimit {
public:
  explicit ScopedIntCountLimit(int limit);
  ~ScopedIntCountLimit();
  ScopedIntCountLimit(const ScopedIntCountLimit&) = delete;
  ScopedIntCountLimit& operator=(const ScopedIntCountLimit&) = delete;

private:
  int previous_;
};

// `n` as an int, or dash::OutOfRange naming `function` and `argument` when n exceeds the limit.
int to_int_count(std::size_t n, std::string_view function, std::string_view argument);

}  // namespace dash::comm
