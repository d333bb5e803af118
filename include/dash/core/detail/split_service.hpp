#pragma once
// The team-split service (Sack 2011 ch. 2): computes the teams of Team::split_by(color, key)
// without MPI_Comm_split, MPI_Comm_create* or MPI_Group_incl. The result orders each color's
// members by (key, parent rank), exactly as MPI_Comm_split does.
//
// Variants (selectable for measurement, dash::SplitAlgorithm):
// - conventional: allgather of every member's (color, key, rank), then one sort (what MPICH and
//   Open MPI do): Θ(n) memory and communication, O(n lg n) computation per process;
// - merge_per_step: recursive doubling in which each process keeps its partial table sorted and
//   merges what it receives after every exchange (Sack's technique 1): O(n) computation;
// - parallel_sort_full_table: the doubling stops lg(n/p) steps early, groups of p sorters sort
//   the blocks with exact splitters (detail/parallel_sort.hpp), an allgather of the sorted slices
//   rebuilds the table (technique 2);
// - parallel_sort_distributed_table: as above, but the sorted slices become rows of a distributed
//   table (technique 3, detail/distributed_table.hpp): a scan over the sorters gives each color's
//   offset and size, each sorter tells the members of its group their new rank, and the rows stay
//   with the sorters or go to groups of P' holders (SplitOptions::table_holders).
// The first three leave a full table of the caller's team; teams whose members are contiguous or strided
// in the base communicator keep a formula instead (detail/team_ranks.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <dash/comm/group.hpp>
#include <dash/core/detail/distributed_table.hpp>
#include <dash/core/detail/team_ranks.hpp>
#include <dash/core/split_algorithm.hpp>

namespace dash::detail {

// One member's request, ordered by (color, key, parent_rank) as MPI_Comm_split orders them.
struct SplitRecord {
  int color = 0;
  int key = 0;
  int parent_rank = 0;
  int base_rank = 0;

  friend bool operator<(const SplitRecord& a, const SplitRecord& b) noexcept {
    if (a.color != b.color) {
      return a.color < b.color;
    }
    if (a.key != b.key) {
      return a.key < b.key;
    }
    return a.parent_rank < b.parent_rank;
  }
};

struct SplitResult {
  bool member = false;  // false for an undefined color
  int rank = -1;
  int size = 0;
  std::shared_ptr<const TeamRanks> ranks;
  std::size_t peak_rows = 0;  // table rows the caller held at once while splitting
  // Rows the caller holds for the split's distributed table, which the parent must keep until
  // it is freed (other members' teams read them); null for the other variants.
  std::shared_ptr<const SplitTable> retained;
};

// The rows of a split's distributed table that the caller holds, taken from its segment of the
// table window before the split communicates: a segment without room is then found before any
// member waits for another in the split (Team::split_by agrees on it), not while rows are moving.
struct TableReservation {
  std::unique_ptr<TableRows> rows;  // null when the caller holds no rows, or they did not fit
  bool no_room = false;
  std::uint64_t row_count = 0;     // the caller's rows, also when they did not fit
  std::uint64_t bytes_in_use = 0;  // of the caller's segment, when they did not fit
};

// Local: the caller's reservation for split_by with valid `options` on a team of `size` members,
// in which it has rank `rank`; nothing for the variants without a distributed table.
TableReservation reserve_table_rows(int size, int rank, const SplitOptions& options);

// Collective over `parent`, after every member learnt that member `member` had no room: throws the
// same dash::BadAlloc on every member, naming that member and its rows, its segment and how to
// make room; `mine` is the caller's reservation.
[[noreturn]] void throw_no_room_for_table(const comm::Group& parent, int member, const TableReservation& mine);

// Collective over `parent`: the caller's team for `color` (a negative color: none). The
// parallel-sort variants run their sort groups on `scratch_tags`, a tag space no member of
// `parent` uses (the split's new block: the groups are disjoint and finish before it returns).
// `parent_ranks` translates the parent's ranks (the distributed table keeps it). `reserved` is the
// caller's reserve_table_rows for the same call, which every member made without running out.
SplitResult split_service(const comm::Group& parent, std::shared_ptr<const TeamRanks> parent_ranks, int color,
                          int key, const SplitOptions& options, comm::TagSpace scratch_tags,
                          TableReservation reserved);

// The number of sorters p the library picks for a team of `group_size` members.
int default_sorters(int group_size) noexcept;

// The merge after each step: two tables sorted by (color, key, parent_rank), merged into a new one.
std::vector<SplitRecord> merge_records(const std::vector<SplitRecord>& a, const std::vector<SplitRecord>& b);

// Collective over `group`: every member's record, sorted, by recursive doubling with a merge after
// every exchange; a non-power-of-two group first folds the extra members into the others.
std::vector<SplitRecord> collect_sorted(const comm::Group& group, const SplitRecord& mine);

}  // namespace dash::detail
