#pragma once
// dash::LocalIndex: where a pattern stores a global element: the owning unit and the offset in
// that unit's local memory.

#include <cstddef>

namespace dash {

struct LocalIndex {
  std::size_t unit = 0;
  std::size_t index = 0;

  friend constexpr bool operator==(const LocalIndex&, const LocalIndex&) noexcept = default;
};

}  // namespace dash
