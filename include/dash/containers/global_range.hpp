#pragma once
// dash::GlobalRange: a contiguous piece of a container in global order (e.g. a matrix row or a
// band of rows), as a pair of global iterators that algorithms take.

#include <cstddef>

namespace dash {

template <class Iterator>
struct GlobalRange {
  Iterator first;
  Iterator last;
  Iterator begin() const { return first; }
  Iterator end() const { return last; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
  auto operator[](std::size_t i) const { return first[static_cast<std::ptrdiff_t>(i)]; }
};

}  // namespace dash
