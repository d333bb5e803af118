#pragma once
// The exact-splitter parallel sort (seed 000 §1.4 after Cheng, Edelman, Gilbert & Shah; seed 004
// §5.4): local sort, exact splitters (detail/exact_splitters.hpp), one alltoallv, and a merge of
// the received runs while they land (detail/run_merge_tree.hpp). The team-split service sorts
// its tables with it inside each group of sorters; dash::sort sorts containers with it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/alltoall.hpp>
#include <dash/comm/alltoallv.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/detail/exact_splitters.hpp>
#include <dash/core/detail/run_merge_tree.hpp>

namespace dash::detail {

template <class T>
struct SortedSlice {
  // The caller's slice of the sorted sequence: global ranks [global_first, global_first + size).
  std::vector<T> elements;
  std::uint64_t global_first = 0;
  // Elements on all members together.
  std::uint64_t global_count = 0;
  // Rounds the splitter search took (one allgather and one allreduce each).
  int splitter_rounds = 0;
};

// Collective over `group` (p members). Sorts all members' `local` elements together by `less`, a
// strict weak order, and returns member k's slice: the elements of global ranks
// [floor(k N / p), floor((k + 1) N / p)), N the total, so every slice has floor(N / p) or
// ceil(N / p) elements. The sort is stable: equal elements keep the order of the members'
// concatenated inputs (member 0's first, each member's in its input order).
// Cost per member with n elements: O(n lg n) to sort locally, the splitter search (a few rounds
// typically, floor(lg n_max) + 1 at most for the largest local count n_max, each moving O(p u)
// proposals and counts for u unresolved splitters), an alltoall of p counts, an alltoallv moving
// each element at most once, and O(n lg p) to merge.
template <class T, class Less>
SortedSlice<T> parallel_sort(std::vector<T> local, Less less, const comm::Group& group) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "dash::detail::parallel_sort moves elements as bytes: T must be trivially copyable and "
                "default-constructible");
  std::stable_sort(local.begin(), local.end(), less);
  const auto p = static_cast<std::size_t>(group.size());
  const std::uint64_t local_count = local.size();
  SortedSlice<T> slice;
  comm::allreduce(std::span<const std::uint64_t>(&local_count, 1), std::span<std::uint64_t>(&slice.global_count, 1),
                  plus{}, group);
  const std::vector<std::uint64_t> targets = balanced_targets(slice.global_count, group.size());
  slice.global_first = group.rank() == 0 ? 0 : targets[static_cast<std::size_t>(group.rank()) - 1];
  const SplitPositions split =
      exact_split_positions(std::span<const T>(local), less, targets, slice.global_count, group);
  slice.splitter_rounds = split.rounds;

  std::vector<std::size_t> send_counts(p);
  std::size_t cut = 0;
  for (std::size_t k = 0; k < p; ++k) {
    const std::size_t next = k + 1 < p ? split.cuts[k] : local.size();
    send_counts[k] = next - cut;
    cut = next;
  }
  std::vector<std::size_t> receive_counts(p);
  comm::alltoall(send_counts, receive_counts, group);

  slice.elements.resize(std::accumulate(receive_counts.begin(), receive_counts.end(), std::size_t{0}));
  RunMergeTree<T, Less> merge(slice.elements, receive_counts, less);
  auto exchange = comm::ialltoallv(local, send_counts, slice.elements, receive_counts, group);
  exchange.for_each_arrival([&](const comm::Arrival<T>& arrival) {
    merge.landed(static_cast<std::size_t>(arrival.source), arrival.count);
  });
  merge.finish();
  return slice;
}

}  // namespace dash::detail
