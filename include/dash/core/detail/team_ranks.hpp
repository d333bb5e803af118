#pragma once
// How a team translates its ranks to base-communicator ranks and back.
//
// Structured teams need no table: a contiguous or strided run of base ranks, or a contiguous run
// of a parent team's ranks (Team::split), translate by formula in O(1) memory. Teams of arbitrary
// membership (Team::split_by) keep a table; what a process holds of it is reported by stats().

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <dash/comm/group.hpp>

namespace dash::detail {

class TeamRanks : public comm::RankMap {
public:
  // The team rank of base rank `base`, or nothing when that process is not a member.
  virtual std::optional<int> from_base(int base) const = 0;
  virtual std::string_view representation() const noexcept = 0;
  virtual std::size_t rows_held() const noexcept { return 0; }
  virtual std::size_t bytes_held() const noexcept { return 0; }
  virtual std::size_t cache_entries() const noexcept { return 0; }
  virtual std::size_t cache_capacity() const noexcept { return 0; }
};

// Base ranks first, first + stride, ... (stride != 0; negative for reversed orders).
class StridedRanks final : public TeamRanks {
public:
  StridedRanks(int first, int stride, int size) : first_(first), stride_(stride), size_(size) {}
  int to_base(int rank) const override { return first_ + rank * stride_; }
  std::optional<int> from_base(int base) const override;
  std::string_view representation() const noexcept override { return stride_ == 1 ? "contiguous" : "strided"; }

private:
  int first_;
  int stride_;
  int size_;
};

// Ranks first .. first + size - 1 of a parent team.
class SubrangeRanks final : public TeamRanks {
public:
  SubrangeRanks(std::shared_ptr<const TeamRanks> parent, int first, int size)
      : parent_(std::move(parent)), first_(first), size_(size) {}
  int to_base(int rank) const override { return parent_->to_base(first_ + rank); }
  std::optional<int> from_base(int base) const override;
  std::string_view representation() const noexcept override { return "subrange of parent"; }

private:
  std::shared_ptr<const TeamRanks> parent_;
  int first_;
  int size_;
};

// A full table: base rank of every team rank, plus its inverse sorted by base rank.
class TableRanks final : public TeamRanks {
public:
  explicit TableRanks(std::vector<int> base_of_rank);
  int to_base(int rank) const override { return base_of_rank_[static_cast<std::size_t>(rank)]; }
  std::optional<int> from_base(int base) const override;
  std::string_view representation() const noexcept override { return "table"; }
  std::size_t rows_held() const noexcept override { return base_of_rank_.size(); }
  std::size_t bytes_held() const noexcept override;

private:
  std::vector<int> base_of_rank_;
  std::vector<std::pair<int, int>> rank_of_base_;  // (base, rank), sorted
};

// The cheapest representation of the base ranks `base_of_rank`: a formula when they are
// contiguous or strided, else a table.
std::shared_ptr<const TeamRanks> compact_ranks(std::vector<int> base_of_rank);

}  // namespace dash::detail
