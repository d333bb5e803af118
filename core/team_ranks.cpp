#include <algorithm>
#include <utility>

#include <dash/core/detail/team_ranks.hpp>

namespace dash::detail {

std::optional<int> StridedRanks::from_base(int base) const {
  const int offset = base - first_;
  if (offset % stride_ != 0 || offset / stride_ < 0 || offset / stride_ >= size_) {
    return std::nullopt;
  }
  return offset / stride_;
}

std::optional<int> SubrangeRanks::from_base(int base) const {
  const std::optional<int> in_parent = parent_->from_base(base);
  if (!in_parent || *in_parent < first_ || *in_parent >= first_ + size_) {
    return std::nullopt;
  }
  return *in_parent - first_;
}

TableRanks::TableRanks(std::vector<int> base_of_rank) : base_of_rank_(std::move(base_of_rank)) {
  rank_of_base_.reserve(base_of_rank_.size());
  for (std::size_t rank = 0; rank < base_of_rank_.size(); ++rank) {
    rank_of_base_.emplace_back(base_of_rank_[rank], static_cast<int>(rank));
  }
  std::sort(rank_of_base_.begin(), rank_of_base_.end());
}

std::optional<int> TableRanks::from_base(int base) const {
  const auto found = std::lower_bound(rank_of_base_.begin(), rank_of_base_.end(), std::pair<int, int>(base, -1));
  if (found == rank_of_base_.end() || found->first != base) {
    return std::nullopt;
  }
  return found->second;
}

std::size_t TableRanks::bytes_held() const noexcept {
  return base_of_rank_.capacity() * sizeof(int) + rank_of_base_.capacity() * sizeof(std::pair<int, int>);
}

std::shared_ptr<const TeamRanks> compact_ranks(std::vector<int> base_of_rank) {
  const int size = static_cast<int>(base_of_rank.size());
  if (size == 0) {
    return std::make_shared<StridedRanks>(0, 1, 0);
  }
  const int stride = size == 1 ? 1 : base_of_rank[1] - base_of_rank[0];
  bool strided = stride != 0;
  for (int rank = 1; rank < size && strided; ++rank) {
    strided = base_of_rank[static_cast<std::size_t>(rank)] - base_of_rank[static_cast<std::size_t>(rank - 1)] == stride;
  }
  if (strided) {
    return std::make_shared<StridedRanks>(base_of_rank[0], stride, size);
  }
  return std::make_shared<TableRanks>(std::move(base_of_rank));
}

}  // namespace dash::detail
