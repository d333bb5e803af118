#pragma once
// dash::sort: sorts a global range of a container across the units of its team (seed 004 §5.4,
// histogram sort with exact splitters and partial aggregation).
//
//   dash::sort(a.begin(), a.end());                         // ascending by operator<
//   dash::sort(a.begin(), a.end(), std::greater<>{});       // any strict weak order
//   dash::sort(a.begin(), a.end(), std::less<>{}, &Particle::energy);   // with a projection
//
// Steps (detail/parallel_sort.hpp): each unit sorts its part of the range locally (Boost.Sort's
// spreadsort for arithmetic types in their natural order, pdqsort otherwise), the units find exact splitters by iterated global histograms (an allgather and an
// allreduce per round; only unsettled splitters are refined), exchange the pieces with one
// alltoallv, and merge the received runs as they land. Every unit ends with exactly as many
// elements of the range as it started with (perfect partitioning), also with heavy duplicates:
// equal keys are told apart by the unit and position they came from.
//
// Collective over the team of the range's container. Communication per unit: counts (an allgather
// of one count per unit), the splitter rounds, and each element at most once in the exchange; when
// the pattern does not keep each unit's part of the range contiguous and in unit order (e.g. CYCLIC),
// a second bulk exchange moves the sorted slices to their positions. Ends with the container's barrier.
// DASH_SORT_TRACE=1 prints each unit's phase times to standard error.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

#include <dash/algorithms/copy.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/environment.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Where each phase of a sort spent the calling unit's time.
using SortPhases = detail::SortPhases;

struct SortOptions {
  // Equal elements keep their order in the range (like std::stable_sort). Costs 8 bytes per
  // element more in the exchange.
  bool stable = false;
  // Merge received runs while the exchange runs (partial aggregation); false merges after it ends
  // (for measuring what the overlap gains).
  bool partial_merge = true;
  // When set, receives the calling unit's phase times.
  SortPhases* phases = nullptr;
};

namespace detail {

// An element with its position in the range: the tie-break that makes a stable order total.
template <class T>
struct Positioned {
  T value;
  std::uint64_t position;
};

inline void print_sort_trace(const SortPhases& phases, std::size_t elements) {
  std::fprintf(stderr,
               "[dash %d sort] %zu elements: local sort %.6f s, splitters %.6f s (%d rounds), exchange %.6f s, "
               "merge %.6f s\n",
               dash::myid(), elements, phases.local_sort, phases.splitters, phases.splitter_rounds, phases.exchange,
               phases.merge);
}

// True when comp(proj(a), proj(b)) is T's natural order, which a radix kernel may sort by.
template <class T, class Comp, class Proj>
constexpr bool natural_order =
    std::is_arithmetic_v<T> && std::is_same_v<Proj, std::identity> &&
    (std::is_same_v<Comp, std::ranges::less> || std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<T>>);

template <class T, class PatternT, class Less>
void sort_range(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Less less, bool natural,
                const SortOptions& options) {
  constexpr const char* function = "dash::sort";
  const std::size_t n = check_collective_range(first, last, function);
  if (n == 0) {
    return;
  }
  const GlobalSegment& segment = *first.segment();
  const comm::Group& group = segment.team().group();
  const LocalPart<T, PatternT> part(first, last);

  // Unit k's slice of the sorted range is [prefix_k, prefix_k + count_k): as many elements as it holds.
  const std::uint64_t mine = part.size();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(group.size()));
  comm::allgather(std::span<const std::uint64_t>(&mine, 1), std::span<std::uint64_t>(counts), group);
  ParallelSortSettings settings;
  settings.kernel = natural ? LocalSortKernel::spreadsort : LocalSortKernel::pdqsort;
  settings.merge_while_landing = options.partial_merge;
  settings.slice_ends.resize(counts.size() - 1);
  std::partial_sum(counts.begin(), counts.end() - 1, settings.slice_ends.begin());
  SortPhases phases;
  settings.phases = &phases;

  // The sorted slice, packed in part order.
  std::vector<T> slice;
  if (options.stable) {
    std::vector<Positioned<T>> local;
    local.reserve(part.size());
    part.for_each_piece([&](const LocalPiece& piece) {
      for (std::size_t i = 0; i < piece.length; ++i) {
        local.push_back(Positioned<T>{part.memory()[piece.local_begin + i], piece.global_begin + i});
      }
    });
    const auto by_key_then_position = [&less](const Positioned<T>& a, const Positioned<T>& b) {
      return less(a.value, b.value) || (!less(b.value, a.value) && a.position < b.position);
    };
    settings.kernel = LocalSortKernel::pdqsort;
    SortedSlice<Positioned<T>> sorted = parallel_sort(std::move(local), by_key_then_position, group, settings);
    slice.reserve(sorted.elements.size());
    for (const Positioned<T>& element : sorted.elements) {
      slice.push_back(element.value);
    }
  } else {
    std::vector<T> local(part.size());
    part.for_each_stretch([&](const LocalStretch& stretch) {
      std::copy_n(part.memory() + stretch.local_begin, stretch.length, local.begin() + static_cast<std::ptrdiff_t>(stretch.part_offset));
    });
    slice = std::move(parallel_sort(std::move(local), less, group, settings).elements);
  }

  // Where the slice goes: straight back into the unit's own memory when its part of the range is
  // the contiguous stretch of positions the slice covers, else to those positions in bulk.
  const std::uint64_t slice_first = group.rank() == 0 ? 0 : settings.slice_ends[static_cast<std::size_t>(group.rank()) - 1];
  bool in_place = true;
  std::size_t pieces = 0;
  part.for_each_piece([&](const LocalPiece& piece) {
    in_place = in_place && pieces == 0 && piece.global_begin == first.pos() + slice_first && piece.length == part.size();
    ++pieces;
  });
  std::size_t stretches = 0;
  part.for_each_stretch([&](const LocalStretch&) { ++stretches; });
  if (in_place && stretches <= 1) {
    part.for_each_stretch(
        [&](const LocalStretch& stretch) { std::copy(slice.begin(), slice.end(), part.memory() + stretch.local_begin); });
  } else {
    // Safe without a barrier first: the exchange completed only after every unit had packed its part.
    copy(slice.data(), slice.data() + slice.size(), first + static_cast<std::ptrdiff_t>(slice_first));
  }
  segment.barrier();
  if (options.phases != nullptr) {
    *options.phases = phases;
  }
  if (comm::config().sort_trace) {
    print_sort_trace(phases, slice.size());
  }
}

}  // namespace detail

// Collective over the range's team: sorts [first, last) by comp applied to proj of the elements.
template <class T, class PatternT, class Comp = std::ranges::less, class Proj = std::identity>
  requires(!std::is_const_v<T>)
void sort(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Comp comp = {}, Proj proj = {},
          const SortOptions& options = {}) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "dash::sort: the element type must be trivially copyable and default-constructible");
  static_assert(std::is_invocable_r_v<bool, Comp&, std::invoke_result_t<Proj&, const T&>,
                                      std::invoke_result_t<Proj&, const T&>>,
                "dash::sort: comp must compare two projected elements and return bool");
  detail::sort_range(first, last,
                     [&comp, &proj](const T& a, const T& b) {
                       return std::invoke(comp, std::invoke(proj, a), std::invoke(proj, b));
                     },
                     detail::natural_order<T, Comp, Proj>, options);
}

// Anything but a container's global iterators: a clear error instead of a failed overload.
template <class Iterator, class... Rest>
void sort(Iterator, Iterator, Rest&&...)
  requires(!requires(Iterator it) { it.segment(); it.pattern(); })
{
  static_assert(sizeof(Iterator) == 0,
                "dash::sort sorts global ranges of dash containers (dash::Array, dash::Matrix iterators); "
                "use std::sort for local ranges");
}

}  // namespace dash
