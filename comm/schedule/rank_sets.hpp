#pragma once
// The schedule verifier's sets of contributing ranks (verifier.cpp), interned: each set has an id,
// and combining two ids is looked up after its first time.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <dash/comm/schedule/collective.hpp>

namespace dash::comm::schedule::verification {

struct Interval {
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

using RankList = std::vector<Interval>;

struct RankListHash {
  std::size_t operator()(const RankList& list) const noexcept {
    std::size_t hash = list.size();
    for (const Interval& interval : list) {
      hash = hash * 1000003u ^ (std::size_t{interval.lo} << 32 | interval.hi);
    }
    return hash;
  }
};

// Interned sets of contributing ranks. A set is an ordered list of disjoint rank intervals: the
// order in which contributions were combined (only meaningful for non-commutative operations,
// where it is kept to a single interval).
class RankSets {
public:
  // id of {rank}
  std::uint32_t single(std::uint32_t rank);

  // id of {0, ..., count - 1}
  std::uint32_t prefix(std::uint32_t count);

  // left ⊕ right, or an error message.
  std::optional<std::uint32_t> combine(std::uint32_t left, std::uint32_t right, const OpTraits& op,
                                       std::string& error);

  std::uint32_t intern(const RankList& list);

  std::string describe(std::uint32_t id) const;

private:
  static constexpr std::uint32_t no_set = std::numeric_limits<std::uint32_t>::max();

  std::vector<std::uint32_t> singles_;   // id of {rank}, by rank
  std::vector<std::uint32_t> prefixes_;  // id of {0, ..., count - 1}, by count
  std::vector<RankList> lists_;
  std::unordered_map<RankList, std::uint32_t, RankListHash> ids_;
  std::unordered_map<std::uint64_t, std::uint32_t> combined_;
};

}  // namespace dash::comm::schedule::verification
