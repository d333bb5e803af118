#pragma once
// The result of a variable-size collective that exchanged its counts itself: the received
// elements packed by source rank, and how many came from each.

#include <cstddef>
#include <span>
#include <vector>

namespace dash::comm {

template <class T>
struct Packed {
  std::vector<T> data;
  std::vector<std::size_t> counts;  // counts[r]: elements from rank r

  // The elements that came from rank `source`.
  std::span<const T> from(int source) const {
    std::size_t offset = 0;
    for (int r = 0; r < source; ++r) {
      offset += counts[static_cast<std::size_t>(r)];
    }
    return std::span<const T>(data).subspan(offset, counts[static_cast<std::size_t>(source)]);
  }
};

}  // namespace dash::comm
