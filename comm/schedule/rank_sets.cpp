// Interned sets of contributing ranks (rank_sets.hpp).

#include "schedule/rank_sets.hpp"

#include <algorithm>
#include <utility>

namespace dash::comm::schedule::verification {

namespace {

std::uint64_t hash_of(std::span<const Interval> list) noexcept {
  std::uint64_t hash = list.size();
  for (const Interval& interval : list) {
    hash = (hash * 1000003u) ^ (std::uint64_t{interval.lo} << 32 | interval.hi);
  }
  return hash == KeyIndex::reserved_key ? 0 : hash;  // the one key KeyIndex cannot store
}

}  // namespace

std::uint32_t RankSets::single(std::uint32_t rank) {
  if (rank >= singles_.size()) {
    singles_.resize(rank + 1, no_set);
  }
  if (singles_[rank] == no_set) {
    const Interval only{rank, rank + 1};
    singles_[rank] = intern({&only, 1});
  }
  return singles_[rank];
}

std::uint32_t RankSets::prefix(std::uint32_t count) {
  if (count >= prefixes_.size()) {
    prefixes_.resize(count + 1, no_set);
  }
  if (prefixes_[count] == no_set) {
    const Interval all{0, count};
    prefixes_[count] = intern({&all, 1});
  }
  return prefixes_[count];
}

std::optional<std::uint32_t> RankSets::combine(std::uint32_t left, std::uint32_t right, const OpTraits& op,
                                                 std::string& error) {
  const std::uint64_t key = std::uint64_t{left} << 32 | right;
  if (const std::uint32_t* found = combined_.find(key)) {
    return *found;
  }
  const std::span<const Interval> a = list(left);
  const std::span<const Interval> b = list(right);
  merged_.clear();
  if (!op.commutative) {
    // Non-commutative: both sides are single intervals and must abut in rank order.
    if (a.size() != 1 || b.size() != 1 || a.front().hi != b.front().lo) {
      error = "combines ranks " + describe(left) + " (left) with " + describe(right) +
              " (right), which breaks rank order of a non-commutative operation";
      return std::nullopt;
    }
    merged_.push_back({a.front().lo, b.front().hi});
  } else {
    // Both lists are ordered by lower bound: walk them in merge order (the left one's first on
    // ties), joining intervals that touch and rejecting overlaps unless the operation is idempotent.
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
      const Interval next = j == b.size() || (i < a.size() && !(b[j].lo < a[i].lo)) ? a[i++] : b[j++];
      if (!merged_.empty() && next.lo < merged_.back().hi) {
        if (!op.idempotent) {
          error = "combines ranks " + describe(left) + " with " + describe(right) +
                  ", counting some contributions twice";
          return std::nullopt;
        }
        merged_.back().hi = std::max(merged_.back().hi, next.hi);
      } else if (!merged_.empty() && next.lo == merged_.back().hi) {
        merged_.back().hi = next.hi;
      } else {
        merged_.push_back(next);
      }
    }
  }
  const std::uint32_t id = intern(merged_);
  combined_.insert(key, id);
  return id;
}

std::uint32_t RankSets::intern(std::span<const Interval> list) {
  const std::uint64_t hash = hash_of(list);
  const auto id = static_cast<std::uint32_t>(same_hash_.size());
  if (const std::uint32_t* first = first_with_hash_.find(hash)) {
    // Sets of equal hash chain behind the first; distinct sets rarely share a 64-bit hash.
    std::uint32_t last = *first;
    for (std::uint32_t other = *first; other != no_set; other = same_hash_[other]) {
      if (std::ranges::equal(this->list(other), list)) {
        return other;
      }
      last = other;
    }
    same_hash_[last] = id;
  } else {
    first_with_hash_.insert(hash, id);
  }
  intervals_.insert(intervals_.end(), list.begin(), list.end());
  starts_.push_back(intervals_.size());
  same_hash_.push_back(no_set);
  return id;
}

std::string RankSets::describe(std::uint32_t id) const {
  std::string text = "{";
  for (const Interval& interval : list(id)) {
    text += text.size() > 1 ? "," : "";
    text += interval.hi == interval.lo + 1
                ? std::to_string(interval.lo)
                : std::to_string(interval.lo) + ".." + std::to_string(interval.hi - 1);
  }
  return text + "}";
}

}  // namespace dash::comm::schedule::verification
