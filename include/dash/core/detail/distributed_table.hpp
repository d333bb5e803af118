#pragma once
// The distributed rank table of a split (Sack 2011 §2.3.2).
//
// The members of the parent form table groups of stride s: group g is parent ranks g, g + s,
// g + 2s, ... (below n), and each group shares one copy of the table. Its first P' members hold
// the rows, in balanced slices: holder k holds items [floor(k n / P'), floor((k + 1) n / P')) in its
// segment of the table window; the other members of the group only read. Row i holds two things
// about item i: the base rank of the member sorted to that position (forward: team rank ->
// process) and the color and new rank of the parent's member of rank i (reverse: process -> team
// rank). A team of the split translates ranks by reading the row from the holder of its own group,
// one-sidedly, and caches what it read. The parent team keeps the split's rows until it is freed:
// other processes' teams read them.
//
// By default the sort groups hold the table (P' = p, s = m / p for the power of two m <= n); with
// SplitOptions::table_holders = P', s = floor(n / P') (detail/split_service.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include <dash/core/detail/table_space.hpp>
#include <dash/core/detail/team_ranks.hpp>

namespace dash::detail {

// The slice [first, first + count) of n items that part k of p holds.
struct BalancedSlice {
  std::uint64_t first;
  std::uint64_t count;
};
BalancedSlice balanced_slice(std::uint64_t n, int parts, int part) noexcept;
// The part whose slice holds item q.
int balanced_owner(std::uint64_t n, int parts, std::uint64_t item) noexcept;

struct TableRow {
  int base_rank;  // of the member at this sorted position
  int color;      // of the parent's member of this rank (-1: none)
  int rank;       // of that member in its new team
};

// What one process knows of a split's table: where every row lives.
struct SplitTable {
  std::uint64_t records = 0;  // n: members of the parent
  int holders = 1;            // P'
  int group_first = 0;        // parent rank of holder 0 of the caller's table group
  int stride = 1;             // parent ranks of that group's holders: group_first + k * stride
  std::shared_ptr<const TeamRanks> parent_ranks;
  // Of each holder's rows in its segment; a single entry when every holder uses the same offset.
  std::vector<std::uint64_t> offsets;
  // This process's rows (none for a member that only reads).
  std::unique_ptr<TableRows> own_rows;

  int holder_base_rank(int holder) const { return parent_ranks->to_base(group_first + holder * stride); }
  std::uint64_t holder_offset(int holder) const {
    return offsets.size() == 1 ? offsets.front() : offsets[static_cast<std::size_t>(holder)];
  }
  std::size_t rows_held() const noexcept;
  std::size_t bytes_held() const noexcept;
};

class DistributedTableRanks final : public TeamRanks {
public:
  DistributedTableRanks(std::shared_ptr<const SplitTable> table, std::uint64_t first_position, int size, int color)
      : table_(std::move(table)), first_position_(first_position), size_(size), color_(color) {}

  int to_base(int rank) const override;
  std::optional<int> from_base(int base) const override;
  std::string_view representation() const noexcept override { return "distributed table"; }
  std::size_t rows_held() const noexcept override { return table_->rows_held(); }
  std::size_t bytes_held() const noexcept override;
  std::size_t cache_entries() const noexcept override;
  std::size_t cache_capacity() const noexcept override { return max_cached; }

private:
  // Row `item` of the table, from the holder of the caller's group.
  TableRow read_row(std::uint64_t item) const;

  static constexpr std::size_t max_cached = 4096;
  std::shared_ptr<const SplitTable> table_;
  std::uint64_t first_position_;
  int size_;
  int color_;
  mutable std::mutex cache_lock_;  // the progress thread translates ranks too
  mutable std::unordered_map<int, int> cache_;
};

}  // namespace dash::detail
