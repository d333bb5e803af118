#pragma once
// The schedule verifier's sets of contributing ranks (verifier.cpp), interned: each set has an id,
// and combining two ids is looked up after its first time. The sets live in one flat array and
// the lookups in KeyIndex tables (key_index.hpp): a sweep at P = 1024 interns about a million sets.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <dash/comm/schedule/collective.hpp>

#include "schedule/key_index.hpp"

namespace dash::comm::schedule::verification {

struct Interval {
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
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

  std::uint32_t intern(std::span<const Interval> list);

  std::string describe(std::uint32_t id) const;

private:
  static constexpr std::uint32_t no_set = std::numeric_limits<std::uint32_t>::max();

  std::span<const Interval> list(std::uint32_t id) const noexcept {
    return {intervals_.data() + starts_[id], starts_[id + 1] - starts_[id]};
  }

  std::vector<std::uint32_t> singles_;   // id of {rank}, by rank
  std::vector<std::uint32_t> prefixes_;  // id of {0, ..., count - 1}, by count
  std::vector<Interval> intervals_;      // every set's intervals, set after set
  std::vector<std::size_t> starts_{0};   // set id's intervals: [starts_[id], starts_[id + 1])
  KeyIndex first_with_hash_;             // a set's hash -> the first id with that hash
  std::vector<std::uint32_t> same_hash_; // by id: the next id with its hash, or no_set
  KeyIndex combined_;                    // (left << 32 | right) -> id of left ⊕ right
  std::vector<Interval> merged_;         // combine's scratch
};

}  // namespace dash::comm::schedule::verification
