#include <cstring>

#include <dash/comm/table_window.hpp>
#include <dash/comm/environment.hpp>
#include <dash/core/detail/distributed_table.hpp>

namespace dash::detail {

BalancedSlice balanced_slice(std::uint64_t n, int parts, int part) noexcept {
  const auto p = static_cast<std::uint64_t>(parts);
  const auto k = static_cast<std::uint64_t>(part);
  const std::uint64_t first = k * n / p;
  return {first, (k + 1) * n / p - first};
}

int balanced_owner(std::uint64_t n, int parts, std::uint64_t item) noexcept {
  // The largest k with floor(k n / p) <= item: k = ceil((item + 1) p / n) - 1.
  const auto p = static_cast<std::uint64_t>(parts);
  return static_cast<int>(((item + 1) * p + n - 1) / n - 1);
}

std::size_t SplitTable::rows_held() const noexcept { return own_rows ? own_rows->bytes() / sizeof(TableRow) : 0; }

std::size_t SplitTable::bytes_held() const noexcept {
  return (own_rows ? own_rows->bytes() : 0) + offsets.capacity() * sizeof(std::uint64_t);
}

TableRow DistributedTableRanks::read_row(std::uint64_t item) const {
  const int holder = balanced_owner(table_->records, table_->holders, item);
  const BalancedSlice slice = balanced_slice(table_->records, table_->holders, holder);
  const std::uint64_t offset = table_->holder_offset(holder) + (item - slice.first) * sizeof(TableRow);
  const auto window = comm::TableWindow::current();
  const int owner = table_->holder_base_rank(holder);
  TableRow row{};
  if (owner == dash::myid()) {
    std::memcpy(&row, window.local().data() + offset, sizeof row);
  } else {
    window.read(owner, offset, &row, sizeof row);
  }
  return row;
}

int DistributedTableRanks::to_base(int rank) const {
  {
    const std::lock_guard lock(cache_lock_);
    if (const auto found = cache_.find(rank); found != cache_.end()) {
      return found->second;
    }
  }
  const int base = read_row(first_position_ + static_cast<std::uint64_t>(rank)).base_rank;
  const std::lock_guard lock(cache_lock_);
  if (cache_.size() >= max_cached) {
    cache_.clear();
  }
  cache_.emplace(rank, base);
  return base;
}

std::optional<int> DistributedTableRanks::from_base(int base) const {
  const std::optional<int> parent_rank = table_->parent_ranks->from_base(base);
  if (!parent_rank) {
    return std::nullopt;
  }
  const TableRow row = read_row(static_cast<std::uint64_t>(*parent_rank));
  if (row.color != color_) {
    return std::nullopt;
  }
  return row.rank;
}

std::size_t DistributedTableRanks::cache_entries() const noexcept {
  const std::lock_guard lock(cache_lock_);
  return cache_.size();
}

std::size_t DistributedTableRanks::bytes_held() const noexcept {
  return table_->bytes_held() + cache_entries() * (sizeof(int) * 2 + 2 * sizeof(void*));
}

}  // namespace dash::detail
