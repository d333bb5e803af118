// Interned sets of contributing ranks (rank_sets.hpp).

#include "schedule/rank_sets.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace dash::comm::schedule::verification {

std::uint32_t RankSets::single(std::uint32_t rank) {
  if (rank >= singles_.size()) {
    singles_.resize(rank + 1, no_set);
  }
  if (singles_[rank] == no_set) {
    singles_[rank] = intern(RankList{{rank, rank + 1}});
  }
  return singles_[rank];
}

std::uint32_t RankSets::prefix(std::uint32_t count) {
  if (count >= prefixes_.size()) {
    prefixes_.resize(count + 1, no_set);
  }
  if (prefixes_[count] == no_set) {
    prefixes_[count] = intern(RankList{{0, count}});
  }
  return prefixes_[count];
}

std::optional<std::uint32_t> RankSets::combine(std::uint32_t left, std::uint32_t right, const OpTraits& op,
                                                 std::string& error) {
  const std::uint64_t key = std::uint64_t{left} << 32 | right;
  if (auto found = combined_.find(key); found != combined_.end()) {
    return found->second;
  }
  const RankList& a = lists_[left];
  const RankList& b = lists_[right];
  RankList result;
  if (!op.commutative) {
    // Non-commutative: both sides are single intervals and must abut in rank order.
    if (a.size() != 1 || b.size() != 1 || a.front().hi != b.front().lo) {
      error = "combines ranks " + describe(left) + " (left) with " + describe(right) +
              " (right), which breaks rank order of a non-commutative operation";
      return std::nullopt;
    }
    result = {{a.front().lo, b.front().hi}};
  } else {
    result.reserve(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(result),
               [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
    RankList merged;
    for (const Interval& interval : result) {
      if (!merged.empty() && interval.lo < merged.back().hi) {
        if (!op.idempotent) {
          error = "combines ranks " + describe(left) + " with " + describe(right) +
                  ", counting some contributions twice";
          return std::nullopt;
        }
        merged.back().hi = std::max(merged.back().hi, interval.hi);
      } else if (!merged.empty() && interval.lo == merged.back().hi) {
        merged.back().hi = interval.hi;
      } else {
        merged.push_back(interval);
      }
    }
    result = std::move(merged);
  }
  const std::uint32_t id = intern(result);
  combined_.emplace(key, id);
  return id;
}

std::uint32_t RankSets::intern(const RankList& list) {
  if (const auto found = ids_.find(list); found != ids_.end()) {
    return found->second;
  }
  const auto id = static_cast<std::uint32_t>(lists_.size());
  ids_.emplace(list, id);
  lists_.push_back(list);
  return id;
}

std::string RankSets::describe(std::uint32_t id) const {
  std::string text = "{";
  for (const Interval& interval : lists_[id]) {
    text += text.size() > 1 ? "," : "";
    text += interval.hi == interval.lo + 1
                ? std::to_string(interval.lo)
                : std::to_string(interval.lo) + ".." + std::to_string(interval.hi - 1);
  }
  return text + "}";
}

}  // namespace dash::comm::schedule::verification
