#pragma once
// The exact-splitter parallel sort (Sack 2011 §2.3.1 after Cheng, Edelman, Gilbert & Shah;
// Kowalewski 2021 §7.4.1): local sort, exact splitters (detail/exact_splitters.hpp), one
// alltoallv, and a merge of the received runs while they land (detail/run_merge_tree.hpp). The team-split service sorts
// its tables with it inside each group of sorters; dash::sort sorts containers with it.
//
// Map: LocalSortKernel and sort_locally (the local sort); SliceInfo, SortPhases and
// ParallelSortSettings; exchange_sorted_runs (the exchange and merge, which the counting path of
// detail/counting_sort.hpp shares); parallel_sort_into and parallel_sort.

#include <algorithm>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/sort/pdqsort/pdqsort.hpp>
#include <boost/sort/spreadsort/integer_sort.hpp>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/alltoall.hpp>
#include <dash/comm/alltoallv.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/detail/exact_splitters.hpp>
#include <dash/core/detail/run_merge_tree.hpp>
#include <dash/core/detail/scratch_buffer.hpp>
#include <dash/core/detail/vqsort.hpp>

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

// The local sort kernel (docs/sort.md, "Local sort kernel", has the measurements): std::stable_sort
// keeps equal elements in input order (what the split service needs); pdqsort (Boost.Sort,
// pattern-defeating quicksort) is faster and unstable; its branchless partitioning is faster again
// for cheap comparisons of scalar keys and slower for expensive comparisons.
// spreadsort (Boost.Sort's integer_sort, a hybrid radix sort, unstable) sorts by the
// elements' values alone: it needs radix_sortable elements and a `less` that is their operator<;
// it was slower than pdqsort_branchless.
// vqsort (Google Highway's vectorised quicksort, detail/vqsort.hpp, unstable) also ignores `less`: it
// sorts vqsort_key elements by operator<, faster than pdqsort_branchless, in builds that have it.
enum class LocalSortKernel { stable, pdqsort, pdqsort_branchless, spreadsort, vqsort };

// Element types whose operator< order spreadsort reproduces: integers up to 64 bits but bool, and
// IEEE float and double (sorted as unsigned integers of the same width, spreadsort_values). Two
// differences from operator< do not matter to a sort by it: -0.0 lands before 0.0 (the two are
// equivalent under <), and NaN, which < does not order, lands by its sign bit.
template <class T>
concept radix_sortable =
    (std::integral<T> && !std::same_as<T, bool> && sizeof(T) <= sizeof(std::uint64_t)) ||
    (std::floating_point<T> && std::numeric_limits<T>::is_iec559 &&
     (sizeof(T) == sizeof(std::uint32_t) || sizeof(T) == sizeof(std::uint64_t)));

// Boost's integer_sort and float_sort subtract keys as signed integers, which overflows (undefined
// behaviour, which UBSan reports) for keys far apart, e.g. full-range int32 or -0.0 next to large
// doubles; so every key goes through integer_sort as the unsigned integer of the same width and
// order: signed integers with the sign bit flipped, floating-point bit patterns with the
// negatives' bits reversed below the positives'.
template <class T>
  requires radix_sortable<T>
void spreadsort_values(std::span<T> local) {
  if constexpr (std::unsigned_integral<T>) {
    boost::sort::spreadsort::integer_sort(local.begin(), local.end());
  } else {
    using Bits = std::conditional_t<sizeof(T) == sizeof(std::uint8_t), std::uint8_t,
                 std::conditional_t<sizeof(T) == sizeof(std::uint16_t), std::uint16_t,
                 std::conditional_t<sizeof(T) == sizeof(std::uint32_t), std::uint32_t, std::uint64_t>>>;
    constexpr Bits sign = static_cast<Bits>(Bits{1} << (8 * sizeof(T) - 1));
    std::vector<Bits> keys(local.size());
    std::transform(local.begin(), local.end(), keys.begin(), [](T value) {
      const auto bits = std::bit_cast<Bits>(value);
      if constexpr (std::floating_point<T>) {
        return (bits & sign) != 0 ? static_cast<Bits>(~bits) : static_cast<Bits>(bits | sign);
      } else {
        return static_cast<Bits>(bits ^ sign);
      }
    });
    boost::sort::spreadsort::integer_sort(keys.begin(), keys.end());
    std::transform(keys.begin(), keys.end(), local.begin(), [](Bits key) {
      if constexpr (std::floating_point<T>) {
        return std::bit_cast<T>((key & sign) != 0 ? static_cast<Bits>(key & ~sign) : static_cast<Bits>(~key));
      } else {
        return std::bit_cast<T>(static_cast<Bits>(key ^ sign));
      }
    });
  }
}

// Sorts `local` by `less` with `kernel`. spreadsort and vqsort ignore `less`: the caller guarantees
// that it is T's operator< (parallel_sort_into rejects them for other element types).
template <class T, class Less>
void sort_locally(std::span<T> local, Less less, LocalSortKernel kernel) {
  switch (kernel) {
    case LocalSortKernel::stable:
      std::stable_sort(local.begin(), local.end(), less);
      break;
    case LocalSortKernel::pdqsort:
      boost::sort::pdqsort(local.begin(), local.end(), less);
      break;
    case LocalSortKernel::pdqsort_branchless:
      boost::sort::pdqsort_branchless(local.begin(), local.end(), less);
      break;
    case LocalSortKernel::spreadsort:
      if constexpr (radix_sortable<T>) {
        spreadsort_values(local);
      }
      break;
    case LocalSortKernel::vqsort:
      if constexpr (vqsort_key<T>) {
        vqsort(local);
      }
      break;
  }
}

// The caller's slice of a parallel sort: global ranks [global_first, global_first + its size).
struct SliceInfo {
  std::uint64_t global_first = 0;
  std::uint64_t global_count = 0;  // elements on all members together
  int splitter_rounds = 0;         // rounds the splitter search took
};

// Seconds the calling member spent in each phase of one parallel sort.
struct SortPhases {
  double local_sort = 0;
  double splitters = 0;  // total count and splitter search
  double exchange = 0;   // counts and the alltoallv, up to the last arrival
  double merge = 0;      // merging received runs (inside the exchange when merging while landing)
  int splitter_rounds = 0;
  // dash::sort took the counting path (detail/counting_sort.hpp): splitters from key histograms.
  bool counting = false;
  // ... and wrote the slice from the global histogram of the keys, moving no element
  // (histogram_sort_into): local_sort is then the counting pass, exchange the histogram's allreduce,
  // merge the writing of the slice.
  bool from_histogram = false;
};

// Seconds of the steady clock since `start`: the phase times of SortPhases.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct ParallelSortSettings {
  LocalSortKernel kernel = LocalSortKernel::stable;
  // Merge runs as they land (partial aggregation); false merges after the exchange has ended.
  bool merge_while_landing = true;
  // The global ranks where member k's slice ends, for k < p - 1 (non-decreasing, the same on every
  // member); empty: balanced slices floor(k N / p).
  std::vector<std::uint64_t> slice_ends;
  // Filled with the phase times when set.
  SortPhases* phases = nullptr;
  // `local` is already sorted by `less`, so the local sort is skipped. The split service's blocks
  // come out of the collection sorted (Sack 2011 §2.3.1 step 1: the local sort is free); sorting
  // them again took as long as collecting them.
  bool presorted = false;
};

// The exchange and merge of a parallel sort (steps 4 and 5 of docs/sort.md), once `local` is sorted
// by `less` and cut: cuts[k] is the number of local elements that go to members 0 .. k (p - 1 cuts).
// `consistent` false (from this member's splitter search) makes every member throw before the data
// moves. Adds the exchange and merge times to `phases`.
template <class T, class Less, class SliceMemory>
void exchange_sorted_runs(std::span<T> local, std::span<const std::size_t> cuts, bool consistent, Less less,
                          const comm::Group& group, const ParallelSortSettings& settings, SliceMemory slice_memory,
                          SortPhases& phases) {
  using Clock = std::chrono::steady_clock;
  const auto p = static_cast<std::size_t>(group.size());
  const auto phase_start = Clock::now();
  // Cuts out of order, or a splitter search whose counts contradicted each other, mean that `less`
  // is no strict weak ordering of these elements (NaN among floating-point keys, say). A member
  // that finds either sends a sentinel for every count, so that every member learns it from the
  // count exchange and all throw before the data exchange.
  constexpr std::size_t disordered = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> send_counts(p);
  std::size_t cut = 0;
  bool ordered = consistent;
  for (std::size_t k = 0; k < p; ++k) {
    const std::size_t next = k + 1 < p ? cuts[k] : local.size();
    ordered = ordered && cut <= next && next <= local.size();
    send_counts[k] = next - cut;
    cut = next;
  }
  if (!ordered) {
    std::fill(send_counts.begin(), send_counts.end(), disordered);
  }
  std::vector<std::size_t> receive_counts(p);
  comm::alltoall(send_counts, receive_counts, group);
  for (std::size_t member = 0; member < p; ++member) {
    if (receive_counts[member] == disordered) {
      throw InvalidArgument("dash::sort: the comparison is not a strict weak ordering of member " +
                            std::to_string(member) +
                            "'s elements (NaN among floating-point keys?), so the splitters cut them out of "
                            "order; each member's elements are left permuted");
    }
  }

  const std::size_t slice_size = std::accumulate(receive_counts.begin(), receive_counts.end(), std::size_t{0});
  const std::span<T> slice_span = slice_memory(slice_size);
  const bool in_place = slice_span.data() == local.data() && slice_size != 0;
  assert_that(!in_place || slice_size == local.size(),
              "dash::detail::parallel_sort_into: in-place slice memory must have the size of the local elements");
  // Received runs land in scratch memory, laid out like the slice. In place, the member's own run
  // stays where it is when it lies at one end of `local` and at the same offset in the slice: it is
  // then left out of the exchange (as with two members, or the first or last member).
  const auto me = static_cast<std::size_t>(group.rank());
  const auto before_me = [me](const std::vector<std::size_t>& counts) {
    return std::accumulate(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(me), std::size_t{0});
  };
  const std::size_t own_offset = before_me(send_counts);
  const std::size_t own_count = send_counts[me];
  const bool own_resident = in_place && own_count != 0 && own_offset == before_me(receive_counts) &&
                            (own_offset == 0 || own_offset + own_count == local.size());
  const Scratch<T> received_memory = make_scratch<T>(slice_size);
  const std::span<T> received(received_memory.get(), slice_size);
  RunMergePlacement placement;
  placement.destination_busy = in_place;
  std::span<const T> send = local;
  std::span<T> landing = received;
  if (own_resident) {
    placement.resident = me;
    send_counts[me] = 0;
    receive_counts[me] = 0;
    const std::size_t others = slice_size - own_count;
    send = own_offset == 0 ? send.subspan(own_count) : send.first(others);
    landing = own_offset == 0 ? landing.subspan(own_count) : landing.first(others);
  }
  std::vector<std::size_t> run_sizes = receive_counts;
  run_sizes[me] += own_resident ? own_count : 0;
  RunMergeTree<T, Less> merge(received, slice_span, run_sizes, less, placement);
  auto exchange = comm::ialltoallv(send, send_counts, landing, receive_counts, group);
  if (settings.merge_while_landing) {
    exchange.for_each_arrival([&](const comm::Arrival<T>& arrival) {
      const auto merge_start = Clock::now();
      merge.landed(static_cast<std::size_t>(arrival.source), arrival.count);
      phases.merge += seconds_since(merge_start);
    });
    phases.exchange = seconds_since(phase_start) - phases.merge;
    const auto finish_start = Clock::now();
    merge.finish();
    phases.merge += seconds_since(finish_start);
  } else {
    exchange.wait();
    phases.exchange = seconds_since(phase_start);
    const auto merge_start = Clock::now();
    for (std::size_t source = 0; source < p; ++source) {
      merge.landed(source, receive_counts[source]);
    }
    merge.finish();
    phases.merge = seconds_since(merge_start);
  }
}

// Collective over `group` (p members). Sorts all members' `local` elements together by `less`, a
// strict weak order, and receives member k's slice into `slice_memory(size)` (a callable returning a
// std::span<T> of exactly `size` elements): the elements of global ranks
// [floor(k N / p), floor((k + 1) N / p)), N the total, so every slice has floor(N / p) or
// ceil(N / p) elements (or the slices settings.slice_ends asks for). `local` is sorted in place and
// is the send buffer. The slice memory either does not overlap it or is `local` itself (in place;
// the slice must then have local.size() elements): the received runs are merged into it once the
// exchange has completed. Elements are ranked by (key, member, position in the member's locally
// sorted input); with the stable kernel that makes the sort stable: equal elements keep the order
// of the members' concatenated inputs.
// Cost per member with n elements: O(n lg n) to sort locally (nothing when presorted), the
// splitter search (a few rounds typically, floor(lg n_max) + 1 at most for the largest local count
// n_max, each moving O(p u) proposals and counts for u unresolved splitters), an alltoall of p
// counts, an alltoallv moving each element at most once, and O(n lg p) to merge, with scratch
// memory for up to 2 n elements.
template <class T, class Less, class SliceMemory>
SliceInfo parallel_sort_into(std::span<T> local, Less less, const comm::Group& group,
                             const ParallelSortSettings& settings, SliceMemory slice_memory) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "dash::detail::parallel_sort moves elements as bytes: T must be trivially copyable and "
                "default-constructible");
  using Clock = std::chrono::steady_clock;
  if (settings.kernel == LocalSortKernel::spreadsort && !radix_sortable<T>) {
    throw invalid_argument("dash::detail::parallel_sort_into", "settings.kernel", "spreadsort",
                           "a comparison kernel: spreadsort sorts only integers and IEEE float and double by <");
  }
  if (settings.kernel == LocalSortKernel::vqsort) {
    if (!vqsort_key<T>) {
      throw invalid_argument("dash::detail::parallel_sort_into", "settings.kernel", "vqsort",
                             "a comparison kernel: vqsort sorts only int16, uint16, int64, uint64 and double by <");
    }
    if (!vqsort_built()) {
      throw invalid_argument("dash::detail::parallel_sort_into", "settings.kernel", "vqsort", vqsort_missing);
    }
  }
  SortPhases phases;
  auto phase_start = Clock::now();
  if (!settings.presorted) {
    sort_locally(local, less, settings.kernel);
    phases.local_sort = seconds_since(phase_start);
  }

  phase_start = Clock::now();
  const std::uint64_t local_count = local.size();
  SliceInfo slice;
  comm::allreduce(std::span<const std::uint64_t>(&local_count, 1), std::span<std::uint64_t>(&slice.global_count, 1),
                  plus{}, group);
  const std::vector<std::uint64_t> targets =
      settings.slice_ends.empty() ? balanced_targets(slice.global_count, group.size()) : settings.slice_ends;
  slice.global_first = group.rank() == 0 ? 0 : targets[static_cast<std::size_t>(group.rank()) - 1];
  const SplitPositions split =
      exact_split_positions(std::span<const T>(local), less, targets, slice.global_count, group);
  slice.splitter_rounds = split.rounds;
  phases.splitter_rounds = split.rounds;
  phases.splitters = seconds_since(phase_start);

  exchange_sorted_runs(local, std::span<const std::size_t>(split.cuts), split.consistent, less, group, settings,
                       slice_memory, phases);
  if (settings.phases != nullptr) {
    *settings.phases = phases;
  }
  return slice;
}

// parallel_sort_into with the slice returned in a vector.
template <class T, class Less>
SortedSlice<T> parallel_sort(std::vector<T> local, Less less, const comm::Group& group,
                             const ParallelSortSettings& settings = {}) {
  SortedSlice<T> slice;
  const SliceInfo info = parallel_sort_into(std::span<T>(local), less, group, settings, [&](std::size_t size) {
    slice.elements.resize(size);
    return std::span<T>(slice.elements);
  });
  slice.global_first = info.global_first;
  slice.global_count = info.global_count;
  slice.splitter_rounds = info.splitter_rounds;
  return slice;
}

}  // namespace dash::detail
