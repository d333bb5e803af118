#pragma once
// Exact splitters of distributed sorted data (Sack 2011 §2.3.1 step 2, Kowalewski 2021 §7.4.1 step
// 2): where each member must cut its locally sorted elements so that the pieces before cut j hold
// exactly target_j elements of the whole group.
//
// Elements are ordered by (key, member, local position), so every element has a distinct global
// rank and a partition is exact even when all keys are equal. The search narrows one bracket of
// global ranks per target by iterative histogramming: every round each member proposes a few of
// its own elements per unresolved target (an interpolated guess, the ends of its part of the
// bracket, and the middle of the widest gap between those), an allgather shares them, every
// member counts its elements below each proposal, an allreduce sums the counts into global ranks,
// and each bracket shrinks to the two proposals nearest its target. A proposal whose rank is target or target - 1 ends the
// search for that target. Each member's part of a bracket more than halves per round, so a search
// takes at most floor(lg n) + 1 rounds, n the largest local count; on random keys, skewed keys and
// contiguous key ranges it takes one to five (docs/sort.md).
//
// The pure parts (brackets, proposals, narrowing, balanced targets) are functions here and in
// core/exact_splitters.cpp, tested without MPI; exact_split_positions runs the rounds on a group.
//
// Map: the pure parts (SplitBracket and initial_bracket, Proposals and propose, CountedProposal and
// narrow, balanced_targets); SplitProposal and count_before (a member's count below a proposal);
// SplitterSearch, one member's rounds without communication; SplitPositions and
// exact_split_positions, the search over a group.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/ops.hpp>

namespace dash::detail {

// One target's search as one member sees it. Every member holds the same global bracket
// [global_first, global_last): the global ranks not yet known to lie before or after the target
// (global_first <= target <= global_last). [local_first, local_last) are this member's positions
// holding elements of those ranks. The search ends when the bracket is empty; local_first is then
// the number of this member's elements before the target.
struct SplitBracket {
  std::uint64_t target = 0;
  std::uint64_t global_first = 0;
  std::uint64_t global_last = 0;
  std::size_t local_first = 0;
  std::size_t local_last = 0;

  bool resolved() const noexcept { return global_first == global_last; }
  std::size_t local_width() const noexcept { return local_last - local_first; }
};

// The bracket before any round: everything is undetermined, unless the target is 0 or the
// global count, which need no search.
SplitBracket initial_bracket(std::uint64_t target, std::uint64_t global_count, std::size_t local_count);

inline constexpr std::size_t proposals_per_target = 4;

// Distinct local positions, ascending.
struct Proposals {
  std::array<std::size_t, proposals_per_target> positions{};
  std::size_t count = 0;
};

// This member's proposals for an unresolved bracket: its first and last undetermined element, the
// element at the target's relative place in the global bracket (exact when the bracket lies on
// one member), and the middle of the widest remaining gap, which bounds every gap by half the
// member's part of the bracket. None if this member holds no element of the bracket.
Proposals propose(const SplitBracket& bracket);

// A proposal after counting, as one member sees it.
struct CountedProposal {
  std::uint64_t global_below = 0;  // elements of the whole group before it: its global rank
  std::size_t local_below = 0;     // elements of this member before it
  bool is_local = false;           // it is one of this member's elements
};

// Narrows every unresolved bracket to the nearest counted proposals on either side of its target.
// `counted` must be sorted by global_below. Any proposal can narrow any bracket: counts are exact
// whichever bracket a proposal came from.
void narrow(std::span<SplitBracket> brackets, std::span<const CountedProposal> counted);

// The cuts of a balanced partition of global_count elements into `parts` slices: floor(k N / p)
// for k = 1 .. p - 1, so slice k holds the global ranks [floor(k N / p), floor((k + 1) N / p)) and
// slice sizes differ by at most one.
std::vector<std::uint64_t> balanced_targets(std::uint64_t global_count, int parts);

// A proposal on the wire: one of the proposing member's elements, named by its place in the
// order (key, member, local position).
template <class T>
struct SplitProposal {
  static constexpr std::uint64_t empty_slot = std::numeric_limits<std::uint64_t>::max();

  T key;
  std::uint64_t position = empty_slot;  // in the proposer's sorted elements
  std::int32_t member = 0;
};

// This member's elements before `proposal` in the order (key, member, local position), given
// that the answer lies in [first, last].
template <class T, class Less>
std::size_t count_before(std::span<const T> sorted, const Less& less, int me, const SplitProposal<T>& proposal,
                         std::size_t first, std::size_t last) {
  if (proposal.member == me) {
    return static_cast<std::size_t>(proposal.position);
  }
  const auto begin = sorted.begin() + static_cast<std::ptrdiff_t>(first);
  const auto end = sorted.begin() + static_cast<std::ptrdiff_t>(last);
  // Equal keys of lower members come first.
  const auto cut = me < proposal.member ? std::upper_bound(begin, end, proposal.key, less)
                                        : std::lower_bound(begin, end, proposal.key, less);
  return static_cast<std::size_t>(cut - sorted.begin());
}

// The rounds of the search on one member, without communication: the caller gathers every
// member's proposals (same slots on every member), has each member count, sums the counts, and
// feeds them back. exact_split_positions drives it over a group; tests drive all members in one
// process.
template <class T, class Less>
class SplitterSearch {
public:
  SplitterSearch(std::span<const T> sorted, Less less, int me, std::span<const std::uint64_t> targets,
                 std::uint64_t global_count)
      : sorted_(sorted), less_(std::move(less)), me_(me) {
    brackets_.reserve(targets.size());
    for (const std::uint64_t target : targets) {
      brackets_.push_back(initial_bracket(target, global_count, sorted.size()));
    }
    find_unresolved();
  }

  bool done() const noexcept { return unresolved_.empty(); }
  int rounds() const noexcept { return rounds_; }
  // False when the counts contradicted each other, which a strict weak ordering rules out (NaN
  // among floating-point keys): the cuts are then no partition by the targets. A search that
  // stalled is inconsistent on every member alike; a contradiction in this member's own counts
  // only here, and the caller has to spread the word (parallel_sort_into does, with its counts).
  bool consistent() const noexcept { return consistent_; }

  // Proposal slots per member this round; the same on every member.
  std::size_t slots() const noexcept { return unresolved_.size() * proposals_per_target; }

  // This member's proposals, slots() of them, empty slots marked.
  std::vector<SplitProposal<T>> proposals() const {
    std::vector<SplitProposal<T>> mine(slots());
    for (std::size_t u = 0; u < unresolved_.size(); ++u) {
      const Proposals chosen = propose(brackets_[unresolved_[u]]);
      for (std::size_t i = 0; i < chosen.count; ++i) {
        auto& slot = mine[u * proposals_per_target + i];
        slot.key = sorted_[chosen.positions[i]];
        slot.position = chosen.positions[i];
        slot.member = me_;
      }
    }
    return mine;
  }

  // This member's count of elements before each gathered proposal (all members' slots, packed by
  // member); 0 for empty slots.
  std::vector<std::uint64_t> count(std::span<const SplitProposal<T>> gathered) const {
    std::vector<std::uint64_t> below(gathered.size(), 0);
    for (std::size_t i = 0; i < gathered.size(); ++i) {
      if (gathered[i].position == SplitProposal<T>::empty_slot) {
        continue;
      }
      // A proposal lies inside the bracket it was made for, so the count does too.
      const SplitBracket& bracket = brackets_[unresolved_[(i % slots()) / proposals_per_target]];
      below[i] = count_before(sorted_, less_, me_, gathered[i], bracket.local_first, bracket.local_last);
    }
    return below;
  }

  // Ends the round: `local_below` is what count() returned here, `global_below` its sum over all
  // members.
  void narrow(std::span<const SplitProposal<T>> gathered, std::span<const std::uint64_t> local_below,
              std::span<const std::uint64_t> global_below) {
    std::vector<CountedProposal> counted;
    counted.reserve(gathered.size());
    for (std::size_t i = 0; i < gathered.size(); ++i) {
      if (gathered[i].position != SplitProposal<T>::empty_slot) {
        counted.push_back({global_below[i], static_cast<std::size_t>(local_below[i]), gathered[i].member == me_});
      }
    }
    std::sort(counted.begin(), counted.end(),
              [](const CountedProposal& a, const CountedProposal& b) { return a.global_below < b.global_below; });
    std::vector<std::pair<std::uint64_t, std::uint64_t>> before;
    for (const std::size_t j : unresolved_) {
      before.emplace_back(brackets_[j].global_first, brackets_[j].global_last);
    }
    detail::narrow(brackets_, counted);
    ++rounds_;
    // Under a strict weak ordering this member's part of a bracket never inverts, and every round
    // narrows some bracket (each member's part more than halves). Otherwise the search would read
    // past its elements or repeat the same proposals forever.
    for (SplitBracket& bracket : brackets_) {
      if (bracket.local_first > bracket.local_last) {
        bracket.local_last = bracket.local_first;
        consistent_ = false;
      }
    }
    bool narrowed = false;
    for (std::size_t u = 0; u < unresolved_.size(); ++u) {
      const SplitBracket& bracket = brackets_[unresolved_[u]];
      narrowed = narrowed || before[u] != std::pair{bracket.global_first, bracket.global_last};
    }
    if (!narrowed || rounds_ > max_rounds) {  // the global brackets are alike on every member
      for (const std::size_t j : unresolved_) {
        SplitBracket& bracket = brackets_[j];
        bracket.global_first = bracket.global_last = bracket.target;
        bracket.local_last = bracket.local_first;
      }
      consistent_ = false;
    }
    find_unresolved();
  }

  // This member's cut for each target, once done().
  std::vector<std::size_t> positions() const {
    std::vector<std::size_t> cuts;
    cuts.reserve(brackets_.size());
    for (const SplitBracket& bracket : brackets_) {
      cuts.push_back(bracket.local_first);
    }
    return cuts;
  }

private:
  void find_unresolved() {
    unresolved_.clear();
    for (std::size_t j = 0; j < brackets_.size(); ++j) {
      if (!brackets_[j].resolved()) {
        unresolved_.push_back(j);
      }
    }
  }

  std::span<const T> sorted_;
  Less less_;
  int me_;
  std::vector<SplitBracket> brackets_;
  std::vector<std::size_t> unresolved_;  // indices into brackets_, the same on every member
  int rounds_ = 0;
  bool consistent_ = true;
  // floor(lg n) + 1 rounds at most for n < 2^64 elements under a strict weak ordering.
  static constexpr int max_rounds = 65;
};

struct SplitPositions {
  // cuts[j]: this member's elements before target j, i.e. of global rank < targets[j].
  std::vector<std::size_t> cuts;
  // Search rounds; each is one allgather and one allreduce.
  int rounds = 0;
  // SplitterSearch::consistent() on this member.
  bool consistent = true;
};

// Collective over `group`. `sorted` is this member's elements, sorted by `less` (a strict weak
// order); global_count is the sum of all members' sizes; targets are global ranks, non-decreasing,
// at most global_count, the same on every member. Returns this member's cut for every target in
// the order (key, member, local position).
// Volume per round and member: an allgather of 4 u proposals (u unresolved targets; a key and 12
// bytes each, padded) and an allreduce of 4 u p counts (8 bytes each); at most floor(lg n) + 1 rounds, n
// the largest local count.
template <class T, class Less>
SplitPositions exact_split_positions(std::span<const T> sorted, Less less, std::span<const std::uint64_t> targets,
                                     std::uint64_t global_count, const comm::Group& group) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "dash::detail::exact_split_positions sends keys as bytes: T must be trivially copyable and "
                "default-constructible");
  constexpr std::string_view function = "dash::detail::exact_split_positions";
  for (std::size_t j = 0; j < targets.size(); ++j) {
    if (targets[j] > global_count) {
      throw out_of_range(function, "targets[" + std::to_string(j) + "]", targets[j],
                         "at most global_count = " + std::to_string(global_count));
    }
    if (j > 0 && targets[j] < targets[j - 1]) {
      throw invalid_argument(function, "targets[" + std::to_string(j) + "]", targets[j],
                             "at least targets[" + std::to_string(j - 1) + "] = " + std::to_string(targets[j - 1]) +
                                 " (targets must be non-decreasing)");
    }
  }
  if constexpr (check_enabled<CheckLevel::expensive>) {
    assert_that<CheckLevel::expensive>(std::is_sorted(sorted.begin(), sorted.end(), less),
                                       "dash::detail::exact_split_positions: local elements are not sorted");
  }
  SplitterSearch<T, Less> search(sorted, less, group.rank(), targets, global_count);
  while (!search.done()) {
    const std::vector<SplitProposal<T>> mine = search.proposals();
    std::vector<SplitProposal<T>> gathered(mine.size() * static_cast<std::size_t>(group.size()));
    comm::allgather(mine, gathered, group);
    const std::vector<std::uint64_t> local_below = search.count(gathered);
    std::vector<std::uint64_t> global_below(local_below.size());
    comm::allreduce(local_below, global_below, plus{}, group);
    search.narrow(gathered, local_below, global_below);
  }
  return {search.positions(), search.rounds(), search.consistent()};
}

}  // namespace dash::detail
