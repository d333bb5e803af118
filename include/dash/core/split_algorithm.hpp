#pragma once
// How Team::split_by runs the team-split service (Sack 2011 ch. 2); the variants are selectable
// for measurement, the default is chosen by the library.

#include <string_view>

namespace dash {

enum class SplitAlgorithm {
  automatic,                 // merge_per_step up to 1024 members, parallel_sort_distributed_table beyond
  conventional,              // allgather of (color, key, rank), then one sort: what MPI libraries do
  merge_per_step,            // recursive doubling, merging the sorted partial tables after each exchange
  parallel_sort_full_table,  // collect lg(n/p) steps, exact-splitter sort among p sorters, allgather
  parallel_sort_distributed_table,  // as above, the sorters keep the table in slices read one-sidedly
};

std::string_view to_string(SplitAlgorithm algorithm) noexcept;

struct SplitOptions {
  SplitAlgorithm algorithm = SplitAlgorithm::automatic;
  // Sorters p of the parallel-sort variants, a power of two; 0: the library's choice. Clamped to
  // the largest power of two not above the team size.
  int sorters = 0;
  // Table holders P' of parallel_sort_distributed_table, in [1, n] for a team of n members; 0: the
  // sorters hold the table (P' = p). Groups of P' members each hold one copy of the table, a
  // member of a group at most ceil(n/P') rows; the other variants ignore it.
  int table_holders = 0;
};

}  // namespace dash
