#pragma once
// dash::Run: global indices [global_begin, global_begin + length) that one unit stores at local
// offsets [local_begin, local_begin + length); the unit of bulk transfers and owner-computes loops.

#include <cstddef>

namespace dash {

struct Run {
  std::size_t unit = 0;
  std::size_t global_begin = 0;
  std::size_t local_begin = 0;
  std::size_t length = 0;

  friend constexpr bool operator==(const Run&, const Run&) noexcept = default;
};

}  // namespace dash
