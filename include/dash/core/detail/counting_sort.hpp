#pragma once
// The counting path of dash::sort (docs/sort.md, "Counting path"): integer keys in a narrow global
// range are sorted locally by a counting or radix sort, and the exact splitters come from key
// histograms in three small collectives instead of the iterated splitter search of
// detail/exact_splitters.hpp.
// The exchange and merge are parallel_sort_into's (exchange_sorted_runs). Elements are ranked by
// (key, member, position in the member's sorted elements), so the cuts are exact with any
// number of equal keys: equal keys fill the slices in member order.
//
// Map: countable and KeyCodes (keys as unsigned codes in the order asked for); global_code_range and
// counting_pays (the automatic rule); histogram_pays, write_keys_of_ranks and histogram_sort_into
// (elements that are their own keys: slices written from the global histogram);
// counting_sort_locally and radix_sort_locally; SortedCodes and counting_cuts; counting_sort_into.

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/detail/integer_bounds.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/detail/scratch_buffer.hpp>

namespace dash::detail {

// The key that comp compares: proj's result without cv or reference.
template <class T, class Proj>
using projected_key = std::remove_cvref_t<std::invoke_result_t<Proj&, const T&>>;

template <class Comp, class Key>
constexpr bool ascending_comparator =
    std::same_as<Comp, std::ranges::less> || std::same_as<Comp, std::less<>> || std::same_as<Comp, std::less<Key>>;

template <class Comp, class Key>
constexpr bool descending_comparator = std::same_as<Comp, std::ranges::greater> ||
                                       std::same_as<Comp, std::greater<>> || std::same_as<Comp, std::greater<Key>>;

// The counting path applies: integer keys of up to 64 bits compared by less or greater, whose order
// a counting sort of the key values reproduces.
template <class T, class Comp, class Proj>
constexpr bool countable =
    std::integral<projected_key<T, Proj>> && sizeof(projected_key<T, Proj>) <= sizeof(std::uint64_t) &&
    (ascending_comparator<Comp, projected_key<T, Proj>> || descending_comparator<Comp, projected_key<T, Proj>>);

// Integer keys as unsigned 64-bit codes that ascend in the order of the sort: signed keys with the
// sign bit flipped, and every code complemented for a descending order.
template <class T, class Proj, bool descending>
struct KeyCodes {
  using Key = projected_key<T, Proj>;
  // Elements that are their own keys are written back from the histogram instead of moved.
  static constexpr bool regenerate = std::same_as<T, Key> && std::same_as<Proj, std::identity>;
  static constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63U;

  Proj proj;

  std::uint64_t operator()(const T& element) const {
    const Key key = std::invoke(proj, element);
    std::uint64_t code = static_cast<std::uint64_t>(key);  // negative keys sign-extended
    if constexpr (std::is_signed_v<Key>) {
      code ^= sign_bit;
    }
    return descending ? ~code : code;
  }

  static Key key_of(std::uint64_t code) {
    code = descending ? ~code : code;
    if constexpr (std::is_signed_v<Key>) {
      return static_cast<Key>(static_cast<std::int64_t>(code ^ sign_bit));
    } else {
      return static_cast<Key>(code);
    }
  }
};

// What sort_range gets where the counting path does not apply.
struct NotCountable {};

template <class T, class Comp, class Proj>
auto counting_codes(const Proj& proj) {
  if constexpr (countable<T, Comp, Proj>) {
    return KeyCodes<T, Proj, descending_comparator<Comp, projected_key<T, Proj>>>{proj};
  } else {
    return NotCountable{};
  }
}

// The least and greatest code of all members' elements (the group holds at least one).
struct CodeRange {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
};

// Collective over `group`: one allreduce by min of (least code, complement of the greatest code);
// a member without elements sends the identity.
template <class T, class Codes>
CodeRange global_code_range(std::span<const T> local, const Codes& codes, const comm::Group& group) {
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  std::array<std::uint64_t, 2> mine{none, none};
  if constexpr (Codes::regenerate && fixed_width_integer<T>) {
    // The elements are the keys: their least and greatest, found by the vectorised pass, are
    // the ends of the codes (reversed for a descending order).
    if (!local.empty()) {
      const auto [least, greatest] = integer_bounds(local);
      const std::uint64_t first = std::min(codes(least), codes(greatest));
      const std::uint64_t last = std::max(codes(least), codes(greatest));
      mine = {first, ~last};
    }
  } else {
    for (const T& element : local) {
      const std::uint64_t code = codes(element);
      mine[0] = std::min(mine[0], code);
      mine[1] = std::min(mine[1], ~code);
    }
  }
  std::array<std::uint64_t, 2> all{};
  comm::allreduce(std::span<const std::uint64_t>(mine), std::span<std::uint64_t>(all), min{}, group);
  return {all[0], ~all[1]};
}

// Key ranges (max - min + 1) up to this always take the counting path where it applies: a
// histogram of 512 KiB costs less than any splitter round.
inline constexpr std::uint64_t counting_small_range = std::uint64_t{1} << 16U;
// The widest key range the counting path takes, forced or not: a local histogram of 128 MiB.
inline constexpr std::uint64_t counting_max_range = std::uint64_t{1} << 24U;

// The automatic rule: the key range is at most counting_max_range and either at most
// counting_small_range (a counting sort with its histogram in the cache) or at most N / p, the mean
// count per member, where the comparison path's local sort would be a scalar one (`vector_kernel`
// false). The radix sort of wider ranges beats pdqsort (uint32 keys in [0, 2^21), 2^23 per unit:
// local sort 60 ms against 190 ms) but not vqsort (uint64 keys in [1, 2^20], Zipf s = 1, 2^21 per
// unit: 11 ms against 8.5 ms; docs/sort.md, "Counting path").
inline bool counting_pays(const CodeRange& range, std::uint64_t global_count, std::size_t members,
                          bool vector_kernel) {
  const std::uint64_t span = range.last - range.first;  // range - 1, which cannot overflow
  return span < counting_max_range &&
         (span < counting_small_range || (!vector_kernel && span < global_count / members));
}

// The histogram path, for elements that are their own keys (KeyCodes::regenerate): one pass counts
// the codes, an allreduce sums the counts, and each member writes its slice from the global counts;
// no element moves. It pays where the histogram is no larger than the mean member's elements (the
// allreduce then moves about as many bytes as the exchange would: Rabenseifner's allreduce sends
// about twice its vector, the exchange (p - 1) / p of the elements; one counting pass replaces the
// local sort and the merge) and at most histogram_max_bytes. Measured at P = 2, uint32 keys, 2^23
// per unit: keys in [0, 2^22) (a 16 MiB histogram) 54 ms against 90 ms through the exchange; in
// [0, 2^23) (32 MiB) 202 against 101 ms, 121 of them in the allreduce of the fresh histogram
// (docs/sort.md, "Counting path").
inline constexpr std::size_t histogram_max_bytes = std::size_t{16} << 20U;

inline bool histogram_pays(std::size_t codes_in_range, std::size_t count_bytes, std::uint64_t global_count,
                           std::size_t members, std::size_t element_bytes) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(codes_in_range) * count_bytes;
  return bytes <= histogram_max_bytes && bytes <= global_count / members * element_bytes;
}

// The counts of the histogram path: 32 bits where they hold every element.
inline std::size_t histogram_count_bytes(std::uint64_t global_count) {
  return global_count <= std::numeric_limits<std::uint32_t>::max() ? sizeof(std::uint32_t) : sizeof(std::uint64_t);
}

// The histogram path applies to these elements (their own keys) and pays for this range.
template <class T, class Codes>
bool histogram_path(const CodeRange& range, std::uint64_t global_count, std::size_t members) {
  if constexpr (Codes::regenerate) {
    const auto codes_in_range = static_cast<std::size_t>(range.last - range.first) + 1;
    return range.last - range.first < counting_max_range &&
           histogram_pays(codes_in_range, histogram_count_bytes(global_count), global_count, members, sizeof(T));
  } else {
    return false;
  }
}

// Writes the keys of global ranks [first_rank, first_rank + out.size()) of the elements counted in
// `histogram` (counts of the codes first, first + 1, ...), which hold them all: elements that are
// their own keys are rebuilt from their counts.
template <class Codes, class Count, class T>
void write_keys_of_ranks(std::span<const Count> histogram, std::uint64_t first, std::uint64_t first_rank,
                         std::span<T> out) {
  auto next = out.begin();
  std::uint64_t skip = first_rank;  // ranks before `out` still to pass over
  std::size_t left = out.size();
  for (std::size_t code = 0; left > 0; ++code) {
    const std::uint64_t count = histogram[code];
    if (count <= skip) {
      skip -= count;
      continue;
    }
    const auto taken = static_cast<std::size_t>(std::min<std::uint64_t>(count - skip, left));
    next = std::fill_n(next, taken, Codes::key_of(first + code));
    left -= taken;
    skip = 0;
  }
}

// Collective over `group`: the histogram path for codes [first, first + range) (see histogram_pays).
// Counts of type Count must hold global_count. This member's slice holds the global ranks
// [slice_first, slice_first + slice_size). Phases: local_sort is the counting pass, exchange the
// allreduce, merge the writing of the slice.
template <class Count, class T, class Codes, class SliceMemory>
void histogram_sort_into(std::span<const T> local, const Codes& codes, std::uint64_t first, std::size_t range,
                         std::uint64_t slice_first, std::size_t slice_size, const comm::Group& group,
                         SliceMemory slice_memory, SortPhases& phases) {
  using Clock = std::chrono::steady_clock;
  auto phase_start = Clock::now();
  // Scratch memory: a histogram of megabytes, fresh on every sort, costs a page fault per 4 KiB
  // page otherwise (detail/scratch_buffer.hpp).
  const Scratch<Count> counts = make_scratch<Count>(range);
  const std::span<Count> histogram(counts.get(), range);
  std::fill(histogram.begin(), histogram.end(), Count{0});
  for (const T& element : local) {
    ++histogram[codes(element) - first];
  }
  phases.local_sort = seconds_since(phase_start);
  phase_start = Clock::now();
  comm::allreduce(std::span<const Count>(histogram), histogram, plus{}, group);
  phases.exchange = seconds_since(phase_start);
  phase_start = Clock::now();
  write_keys_of_ranks<Codes>(std::span<const Count>(histogram), first, slice_first, slice_memory(slice_size));
  phases.merge = seconds_since(phase_start);
}

// Sorts `local` by code with a counting sort over the codes [first, first + range): one pass counts;
// a second either writes the elements back from the counts (elements that are their own keys) or
// scatters them, stably, to their prefix offsets in scratch memory. For ranges up to
// counting_small_range, whose histogram stays in the second-level cache.
template <class T, class Codes>
void counting_sort_locally(std::span<T> local, const Codes& codes, std::uint64_t first, std::size_t range) {
  std::vector<std::size_t> histogram(range, 0);
  for (const T& element : local) {
    ++histogram[codes(element) - first];
  }
  if constexpr (Codes::regenerate) {
    write_keys_of_ranks<Codes>(std::span<const std::size_t>(histogram), first, 0, local);
  } else {
    std::exclusive_scan(histogram.begin(), histogram.end(), histogram.begin(), std::size_t{0});
    const Scratch<T> sorted = make_scratch<T>(local.size());
    for (const T& element : local) {
      sorted[histogram[codes(element) - first]++] = element;
    }
    std::copy_n(sorted.get(), local.size(), local.begin());
  }
}

// Digits of the radix sort: at most 2^11 counts per pass, which stay in the first-level cache.
inline constexpr unsigned radix_digit_bits = 11;

// Sorts `local` by code, codes in [first, first + range), with a least-significant-digit radix sort
// through scratch memory: one pass counts every digit, then one scattering pass per digit of at most
// radix_digit_bits (two for a range of 2^22, three for 2^24), skipped where all elements share the
// digit. For wider ranges, whose histogram would miss the caches on every count (a counting sort of
// uint32 keys in [0, 2^21) took 22 ns per key at P = 2; docs/sort.md, "Counting path").
template <class T, class Codes>
void radix_sort_locally(std::span<T> local, const Codes& codes, std::uint64_t first, std::size_t range) {
  if (local.size() < 2) {
    return;
  }
  const auto bits = static_cast<unsigned>(std::bit_width(range - 1));
  const unsigned passes = (bits + radix_digit_bits - 1) / radix_digit_bits;
  const unsigned digit_bits = (bits + passes - 1) / passes;
  const std::size_t digits = std::size_t{1} << digit_bits;
  const std::uint64_t digit_mask = digits - 1;
  std::vector<std::size_t> offsets(passes * digits, 0);
  for (const T& element : local) {
    const std::uint64_t code = codes(element) - first;
    for (unsigned pass = 0; pass < passes; ++pass) {
      ++offsets[pass * digits + ((code >> (pass * digit_bits)) & digit_mask)];
    }
  }
  const Scratch<T> scratch = make_scratch<T>(local.size());
  T* from = local.data();
  T* to = scratch.get();
  for (unsigned pass = 0; pass < passes; ++pass) {
    const std::span<std::size_t> pass_offsets(offsets.data() + pass * digits, digits);
    const unsigned shift = pass * digit_bits;
    if (pass_offsets[((codes(*from) - first) >> shift) & digit_mask] == local.size()) {
      continue;
    }
    std::exclusive_scan(pass_offsets.begin(), pass_offsets.end(), pass_offsets.begin(), std::size_t{0});
    for (std::size_t i = 0; i < local.size(); ++i) {
      to[pass_offsets[((codes(from[i]) - first) >> shift) & digit_mask]++] = from[i];
    }
    std::swap(from, to);
  }
  if (from != local.data()) {
    std::copy_n(from, local.size(), local.data());
  }
}

// A member's elements sorted by code, as counting_cuts reads them: how many have a code (relative
// to the group's least code) below a given one, by binary search.
template <class T, class Codes>
struct SortedCodes {
  std::span<const T> elements;
  const Codes& codes;
  std::uint64_t first;

  std::size_t below(std::uint64_t relative_code, std::size_t from = 0) const {
    const auto at = std::partition_point(elements.begin() + static_cast<std::ptrdiff_t>(from), elements.end(),
                                         [&](const T& element) { return codes(element) - first < relative_code; });
    return static_cast<std::size_t>(at - elements.begin());
  }
  std::uint64_t relative(std::size_t i) const { return codes(elements[i]) - first; }
};

// Buckets of the coarse global histogram: 32 KiB per allreduce.
inline constexpr std::size_t counting_coarse_buckets = 4096;

// Collective over `group`: this member's cut for each target (global ranks, non-decreasing, at most
// global_count, the same on every member) in the order (key, member, position in the member's
// sorted elements), from its elements sorted by code, codes relative to the global least code
// below `range`. Counts come from binary searches in the sorted elements.
// 1. An allreduce of a coarse histogram (buckets of 2^s codes, at most counting_coarse_buckets)
//    finds the bucket holding the element of each target's rank.
// 2. An allreduce of the members' histograms of those buckets (none when buckets are single codes)
//    finds that element's code K and the number L of the group's elements below K.
// 3. An allgather of each member's count of each K gives the number E of elements with code K on
//    the members before this one. Its own elements of code K have the global ranks L + E onwards,
//    so clamp(target - L - E, 0, count of K) of them lie before the target.
template <class T, class Codes>
std::vector<std::size_t> counting_cuts(const SortedCodes<T, Codes>& sorted, std::size_t range,
                                       std::span<const std::uint64_t> targets, std::uint64_t global_count,
                                       const comm::Group& group) {
  if (targets.empty()) {
    return {};
  }
  unsigned shift = 0;
  while (((range - 1) >> shift) + 1 > counting_coarse_buckets) {
    ++shift;
  }
  const std::size_t width = std::size_t{1} << shift;
  std::vector<std::uint64_t> coarse(((range - 1) >> shift) + 1, 0);
  std::size_t bucket_begin = 0;
  for (std::size_t b = 0; b < coarse.size(); ++b) {
    const std::size_t bucket_end = sorted.below((b + 1) << shift, bucket_begin);
    coarse[b] = bucket_end - bucket_begin;
    bucket_begin = bucket_end;
  }
  comm::allreduce(coarse, coarse, plus{}, group);
  std::vector<std::uint64_t> below(coarse.size() + 1, 0);  // the group's elements in earlier buckets
  std::partial_sum(coarse.begin(), coarse.end(), below.begin() + 1);

  // Targets 0 and N cut before or after everything and need no bucket.
  const std::size_t count = targets.size();
  constexpr std::size_t no_bucket = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> bucket(count, no_bucket);
  for (std::size_t k = 0; k < count; ++k) {
    if (targets[k] > 0 && targets[k] < global_count) {
      bucket[k] = static_cast<std::size_t>(std::upper_bound(below.begin(), below.end(), targets[k]) - below.begin()) - 1;
    }
  }
  std::vector<std::uint64_t> fine(count * width, 0);
  if (width == 1) {
    for (std::size_t k = 0; k < count; ++k) {
      fine[k] = bucket[k] == no_bucket ? 0 : coarse[bucket[k]];
    }
  } else {
    for (std::size_t k = 0; k < count; ++k) {
      if (bucket[k] == no_bucket) {
        continue;
      }
      const std::uint64_t bucket_first = bucket[k] * width;
      const std::size_t end = sorted.below(bucket_first + width);
      for (std::size_t i = sorted.below(bucket_first); i < end; ++i) {
        ++fine[k * width + (sorted.relative(i) - bucket_first)];
      }
    }
    comm::allreduce(fine, fine, plus{}, group);
  }
  std::vector<std::uint64_t> key(count, 0);
  std::vector<std::uint64_t> key_below(count, 0);
  std::vector<std::uint64_t> mine(count, 0);
  std::vector<std::size_t> mine_below(count, 0);  // this member's elements below key[k]
  for (std::size_t k = 0; k < count; ++k) {
    if (bucket[k] == no_bucket) {
      continue;
    }
    std::uint64_t ranks_below = below[bucket[k]];
    std::size_t j = 0;
    while (ranks_below + fine[k * width + j] <= targets[k]) {
      ranks_below += fine[k * width + j];
      ++j;
    }
    key[k] = bucket[k] * width + j;
    key_below[k] = ranks_below;
    mine_below[k] = sorted.below(key[k]);
    mine[k] = sorted.below(key[k] + 1, mine_below[k]) - mine_below[k];
  }
  const auto members = static_cast<std::size_t>(group.size());
  std::vector<std::uint64_t> gathered(count * members);
  comm::allgather(mine, gathered, group);

  std::vector<std::size_t> cuts(count, 0);
  for (std::size_t k = 0; k < count; ++k) {
    if (targets[k] >= global_count) {
      cuts[k] = sorted.elements.size();
    } else if (bucket[k] != no_bucket) {
      std::uint64_t before_me = 0;
      for (std::size_t member = 0; member < static_cast<std::size_t>(group.rank()); ++member) {
        before_me += gathered[member * count + k];
      }
      const std::uint64_t ahead = key_below[k] + before_me;
      const std::uint64_t taken = targets[k] > ahead ? std::min<std::uint64_t>(targets[k] - ahead, mine[k]) : 0;
      cuts[k] = mine_below[k] + static_cast<std::size_t>(taken);
    }
  }
  return cuts;
}

// Collective over `group`: the counting path. Sorts all members' `local` elements (global_count of
// them, at least one) by their codes, the order `less` gives them, and receives member k's slice
// into slice_memory like parallel_sort_into, ending at settings.slice_ends (p - 1 of them). `range`
// is the group's code range (global_code_range), at most counting_max_range codes wide.
// Elements that are their own keys take the histogram path where histogram_pays: O(n + R) and an
// allreduce of R counts. Otherwise, cost per member with n elements: O(n + R) for the counting
// sort (R the key range, at most 2^16) or O(n) per digit for the radix sort, about 4096 + 2p
// binary searches and a scan of p - 1 buckets for the histograms, three collectives of at most
// 4096, (p - 1) 2^s and p - 1 counts, and the exchange and merge of parallel_sort_into.
template <class T, class Codes, class Less, class SliceMemory>
void counting_sort_into(std::span<T> local, const Codes& codes, Less less, const CodeRange& range,
                        std::uint64_t global_count, const comm::Group& group, const ParallelSortSettings& settings,
                        SliceMemory slice_memory) {
  using Clock = std::chrono::steady_clock;
  SortPhases phases;
  phases.counting = true;
  const auto codes_in_range = static_cast<std::size_t>(range.last - range.first) + 1;
  if constexpr (Codes::regenerate) {
    const auto members = static_cast<std::size_t>(group.size());
    if (histogram_path<T, Codes>(range, global_count, members)) {
      const auto me = static_cast<std::size_t>(group.rank());
      const std::uint64_t slice_first = me == 0 ? 0 : settings.slice_ends[me - 1];
      const std::uint64_t slice_end = me + 1 == members ? global_count : settings.slice_ends[me];
      const auto slice_size = static_cast<std::size_t>(slice_end - slice_first);
      const std::span<const T> elements(local);
      phases.from_histogram = true;
      if (histogram_count_bytes(global_count) == sizeof(std::uint32_t)) {
        histogram_sort_into<std::uint32_t>(elements, codes, range.first, codes_in_range, slice_first, slice_size, group,
                                           slice_memory, phases);
      } else {
        histogram_sort_into<std::uint64_t>(elements, codes, range.first, codes_in_range, slice_first, slice_size, group,
                                           slice_memory, phases);
      }
      if (settings.phases != nullptr) {
        *settings.phases = phases;
      }
      return;
    }
  }
  auto phase_start = Clock::now();
  if (codes_in_range <= counting_small_range) {
    counting_sort_locally(local, codes, range.first, codes_in_range);
  } else {
    radix_sort_locally(local, codes, range.first, codes_in_range);
  }
  phases.local_sort = seconds_since(phase_start);

  phase_start = Clock::now();
  const SortedCodes<T, Codes> sorted{std::span<const T>(local), codes, range.first};
  const std::vector<std::size_t> cuts = counting_cuts(sorted, codes_in_range, settings.slice_ends, global_count, group);
  phases.splitters = seconds_since(phase_start);

  exchange_sorted_runs(local, std::span<const std::size_t>(cuts), true, less, group, settings, slice_memory, phases);
  if (settings.phases != nullptr) {
    *settings.phases = phases;
  }
}

}  // namespace dash::detail
