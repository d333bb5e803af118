#pragma once
// Per-call options of the collectives.

#include <cstdint>
#include <string>

namespace dash::comm {

struct Options {
  // Forces an algorithm by name (see dash::comm::algorithms(Coll)); empty: the library chooses,
  // unless DASH_COLL_<OP> names one. Forcing one that cannot serve the call throws
  // dash::InvalidArgument naming the algorithm and the reason.
  std::string algorithm;
  // Segments per contribution; 0: the algorithm's default. More segments let pipelined and
  // partial-aggregation consumers start earlier, at a cost per message.
  std::uint32_t segments = 0;
  // false: the output may be filled in arrival order (Kowalewski 2021 §5.2.3), which lets
  // algorithms skip a final reordering copy; for_each_arrival still names each block's source. Only
  // for consumers that do not depend on where blocks lie (e.g. merging sorted runs).
  bool canonical_placement = true;
  // Sliding window: sends and receives of later rounds allowed in flight (M > N pre-posts).
  std::uint32_t window_sends = 8;
  std::uint32_t window_receives = 16;
};

}  // namespace dash::comm
