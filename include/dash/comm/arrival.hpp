#pragma once
// One block of a running collective's output that holds its final value (docs/design.md §2 "Partial
// aggregation is the public face of every non-blocking collective").

#include <cstddef>

namespace dash::comm {

template <class T>
struct Arrival {
  // The rank whose contribution the block is (allgather, gather, alltoall, neighbor_alltoall),
  // the root (bcast, scatter), or -1 for a combination of many ranks (reductions).
  int source = -1;
  // The segment of that contribution: 0 unless the collective was split into segments. For
  // neighbor_alltoall, the output block: the neighbour slot (times the segments, plus the segment).
  std::size_t block = 0;
  // Where the block lies in the output, and how many elements it has.
  T* data = nullptr;
  std::size_t count = 0;
};

}  // namespace dash::comm
