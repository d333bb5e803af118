#pragma once
// The subtree a rank roots in the binomial tree over relative ranks (rank - root mod p), which
// gather and scatter walk in opposite directions.

#include <algorithm>
#include <bit>
#include <cstdint>

namespace dash::comm::schedule {

struct BinomialSubtree {
  // The subtree of relative rank `relative` spans relative ranks [relative, relative + span),
  // cut at p; its children are relative + m for m = 1, 2, ..., span/2.
  BinomialSubtree(int p, int relative_rank)
      : group_size(p),
        relative(relative_rank),
        span(relative_rank == 0 ? static_cast<int>(std::bit_ceil(static_cast<std::uint32_t>(p)))
                                : relative_rank & -relative_rank),
        size(std::min(span, p - relative_rank)) {}

  // Ranks in the subtree of child relative + m.
  int child_size(int m) const noexcept { return std::min(m, group_size - relative - m); }

  int group_size;
  int relative;
  int span;
  int size;
};

}  // namespace dash::comm::schedule
