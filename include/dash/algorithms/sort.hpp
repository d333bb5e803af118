#pragma once
// dash::sort: sorts a global range of a container across the units of its team (Kowalewski 2021 §7.4.1,
// histogram sort with exact splitters and partial aggregation).
//
//   dash::sort(a.begin(), a.end());                         // ascending by operator<
//   dash::sort(a.begin(), a.end(), std::greater<>{});       // any strict weak order
//   dash::sort(a.begin(), a.end(), std::less<>{}, &Particle::energy);   // with a projection
//
// Steps (detail/parallel_sort.hpp): each unit sorts its part of the range locally (Highway's vqsort
// where it applies, else Boost.Sort's pdqsort, branchless for scalar keys; SortOptions::kernel chooses
// another), the units find exact
// splitters by iterated global histograms (an allgather and an allreduce per round; only unsettled
// splitters are refined), exchange the pieces with one alltoallv, and merge the received runs as
// they land. Every unit ends with exactly as many elements of the range as it started with (perfect
// partitioning), also with heavy duplicates: equal keys are told apart by the unit and position they
// came from.
//
// Collective over the team of the range's container. Communication per unit: counts (an allgather
// of one count per unit), the splitter rounds, and each element at most once in the exchange; when
// the pattern does not keep each unit's part of the range contiguous and in unit order (e.g. CYCLIC),
// a second bulk exchange moves the sorted slices to their positions. Ends with the container's barrier.
// DASH_SORT_TRACE=1 prints each unit's phase times to standard error.
//
// Counting path (detail/counting_sort.hpp, docs/sort.md "Counting path"): integer keys (or
// projections to integers) compared by less or greater, not stable, whose global range max - min + 1
// is at most 2^16 (counting-sorted locally), or at most 2^24 and N / p where the comparison path
// would not sort with vqsort (radix-sorted locally), are cut by exact splitters from key histograms
// (three small collectives) instead of the splitter search; one more allreduce finds the range.
// Integers sorted as their own keys, whose histogram is no larger than a unit's mean part and at
// most 16 MiB, take it too, and move no element: each unit writes its slice from the global
// histogram (one allreduce). SortOptions::path forces either path.
//
// Map: SortKernel, SortPath and SortOptions; in detail, the choice of the local kernel
// (local_kernel) and of the path (counting_candidate), sort_range, which gathers the unit's part,
// runs the chosen path and puts the slice back, and canonical_order and sort_by, which instantiate it
// once per order; then dash::sort itself.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <dash/algorithms/copy.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/environment.hpp>
#include <dash/core/detail/counting_sort.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/detail/scratch_buffer.hpp>
#include <dash/core/detail/vqsort.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

// Where each phase of a sort spent the calling unit's time.
using SortPhases = detail::SortPhases;

// The local sort kernel (docs/sort.md, "Local sort kernel"). spreadsort (Boost.Sort's radix sort,
// integer_sort) takes only integers, float and double (not bool or long double) sorted
// unstably in their natural order: comp std::ranges::less, std::less<> or std::less<T> and no
// projection. vqsort (Google Highway's vectorised quicksort, an optional dependency) takes the same
// orders of int16_t, uint16_t, int64_t, uint64_t and double only, the keys where it beats branchless
// pdqsort. Where a kernel does not apply, or vqsort is missing from the build, dash::sort throws
// dash::InvalidArgument. automatic picks vqsort where it applies and is built, else pdqsort,
// branchless for scalar keys; never spreadsort, which measured slower than branchless pdqsort.
enum class SortKernel { automatic, pdqsort, pdqsort_branchless, std_stable_sort, spreadsort, vqsort };

// How the splitters are found (docs/sort.md, "Counting path"). automatic takes the counting path where
// it applies (integer keys of up to 64 bits after the projection, comp std::ranges::less, std::less<>,
// std::less<Key>, std::ranges::greater, std::greater<> or std::greater<Key>, stable false, kernel
// automatic) and the key range is narrow (counting_pays), else the comparison path. counting forces
// it: dash::InvalidArgument where it does not apply (before any communication; kernel is then
// ignored) or where the key range is wider than 2^24 (on every unit, after the range's allreduce).
enum class SortPath { automatic, comparison, counting };

struct SortOptions {
  // Equal elements keep their order in the range (like std::stable_sort). Costs 8 bytes per
  // element more in the exchange.
  bool stable = false;
  // Merge received runs while the exchange runs (partial aggregation); false merges after it ends
  // (for measuring what the overlap gains).
  bool partial_merge = true;
  // The local sort kernel (for measurement; the result does not depend on it).
  SortKernel kernel = SortKernel::automatic;
  // The comparison path (exact-splitter search) or the counting path (integer keys).
  SortPath path = SortPath::automatic;
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
               "[dash %d sort] %zu elements: local sort %.6f s, splitters %.6f s (%s), exchange %.6f s, "
               "merge %.6f s\n",
               dash::myid(), elements, phases.local_sort, phases.splitters,
               phases.from_histogram ? "counting path, slice from the histogram"
               : phases.counting     ? "counting path"
                                     : (std::to_string(phases.splitter_rounds) + " rounds").c_str(),
               phases.exchange, phases.merge);
}

// True when the compared keys are scalars: then pdqsort's branchless partitioning pays.
template <class T, class Proj>
constexpr bool scalar_keys = std::is_scalar_v<std::remove_cvref_t<std::invoke_result_t<Proj&, const T&>>>;

// True when comp applied to proj of the elements is T's operator<: then a radix sort of the values
// gives the order comp asks for.
template <class T, class Comp, class Proj>
constexpr bool natural_order =
    radix_sortable<T> && std::same_as<Proj, std::identity> &&
    (std::same_as<Comp, std::ranges::less> || std::same_as<Comp, std::less<>> || std::same_as<Comp, std::less<T>>);

// What the choice of a local kernel depends on besides the options.
struct KernelFit {
  bool scalar = false;          // scalar_keys: branchless partitioning pays
  bool natural = false;         // natural_order: spreadsort gives the order asked for
  bool vqsort_natural = false;  // natural and the elements are vqsort keys: vqsort gives it
  bool vqsort_built = false;    // this build has Highway's vqsort
};

template <class T, class Comp, class Proj>
KernelFit kernel_fit() {
  return KernelFit{scalar_keys<T, Proj>, natural_order<T, Comp, Proj>,
                   natural_order<T, Comp, Proj> && vqsort_key<T>, vqsort_built()};
}

// What the local sort runs. Throws dash::InvalidArgument for spreadsort or vqsort where they cannot
// give the order asked for, and for vqsort when the build lacks it.
inline LocalSortKernel local_kernel(const SortOptions& options, const KernelFit& fit) {
  switch (options.kernel) {
    case SortKernel::automatic:
      if (fit.vqsort_natural && fit.vqsort_built && !options.stable) {
        return LocalSortKernel::vqsort;
      }
      return fit.scalar ? LocalSortKernel::pdqsort_branchless : LocalSortKernel::pdqsort;
    case SortKernel::pdqsort:
      return LocalSortKernel::pdqsort;
    case SortKernel::pdqsort_branchless:
      return LocalSortKernel::pdqsort_branchless;
    case SortKernel::std_stable_sort:
      return LocalSortKernel::stable;
    case SortKernel::spreadsort:
      if (!fit.natural || options.stable) {
        throw invalid_argument("dash::sort", "options.kernel", "spreadsort",
                               "a comparison kernel unless the elements are integers, float or double, comp is "
                               "std::ranges::less, std::less<> or std::less<T>, proj is std::identity and "
                               "options.stable is false");
      }
      return LocalSortKernel::spreadsort;
    case SortKernel::vqsort:
      if (!fit.vqsort_natural || options.stable) {
        throw invalid_argument("dash::sort", "options.kernel", "vqsort",
                               "a comparison kernel unless the elements are int16_t, uint16_t, int64_t, uint64_t or "
                               "double, comp is std::ranges::less, std::less<> or std::less<T>, proj is "
                               "std::identity and options.stable is false");
      }
      if (!fit.vqsort_built) {
        throw invalid_argument("dash::sort", "options.kernel", "vqsort", vqsort_missing);
      }
      return LocalSortKernel::vqsort;
  }
  throw invalid_argument("dash::sort", "options.kernel", static_cast<int>(options.kernel),
                         "a dash::SortKernel enumerator");
}

// Whether to look at the key range for the counting path. Throws dash::InvalidArgument where
// options.path forces the counting path and it cannot apply.
inline bool counting_candidate(const SortOptions& options, bool countable) {
  switch (options.path) {
    case SortPath::automatic:
      return countable && !options.stable && options.kernel == SortKernel::automatic;
    case SortPath::comparison:
      return false;
    case SortPath::counting:
      if (!countable || options.stable) {
        throw invalid_argument("dash::sort", "options.path", "counting",
                               "the comparison path unless the projected keys are integers, comp is "
                               "std::ranges::less, std::less, std::ranges::greater or std::greater and "
                               "options.stable is false");
      }
      return true;
  }
  throw invalid_argument("dash::sort", "options.path", static_cast<int>(options.path), "a dash::SortPath enumerator");
}

template <class T, class PatternT, class Less, class Codes>
void sort_range(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Less less, const KernelFit& fit,
                const Codes& codes, const SortOptions& options) {
  constexpr const char* function = "dash::sort";
  // Before any communication, so that every unit throws.
  ParallelSortSettings settings;
  settings.kernel = local_kernel(options, fit);
  const bool counting = counting_candidate(options, !std::same_as<Codes, NotCountable>);
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
  settings.merge_while_landing = options.partial_merge;
  settings.slice_ends.resize(counts.size() - 1);
  std::partial_sum(counts.begin(), counts.end() - 1, settings.slice_ends.begin());
  SortPhases phases;
  settings.phases = &phases;
  const std::uint64_t slice_first =
      group.rank() == 0 ? 0 : settings.slice_ends[static_cast<std::size_t>(group.rank()) - 1];

  // The slice can land straight in the unit's memory when its part of the range is one stretch of
  // local memory holding exactly the positions the slice covers.
  std::size_t pieces = 0;
  bool in_place = true;
  T* own = nullptr;
  part.for_each_piece([&](const LocalPiece& piece) {
    in_place = in_place && pieces == 0 && piece.global_begin == first.pos() + slice_first && piece.length == part.size();
    own = part.memory() + piece.local_begin;
    ++pieces;
  });
  const std::size_t size = part.size();
  // Every path sorts in place: the slice goes back where the sorted elements were.
  const auto same_memory = [](auto elements) { return [elements](std::size_t) { return elements; }; };
  const auto sort_elements = [&](std::span<T> elements) {
    if constexpr (!std::same_as<Codes, NotCountable>) {
      if (counting) {
        const CodeRange range = global_code_range(std::span<const T>(elements), codes, group);
        if (range.first == range.last) {
          // One key on every unit: the elements are sorted as they lie and each unit's slice is its
          // own elements (the path is not stable: any order of equal keys is the sorted one).
          phases.counting = true;
          return;
        }
        if (options.path == SortPath::counting
                ? range.last - range.first < counting_max_range
                : counting_pays(range, n, counts.size(), settings.kernel == LocalSortKernel::vqsort) ||
                      histogram_path<T, Codes>(range, n, counts.size())) {
          counting_sort_into(elements, codes, less, range, n, group, settings, same_memory(elements));
          return;
        }
        if (options.path == SortPath::counting) {
          throw invalid_argument(function, "options.path", "counting",
                                 "the comparison path for keys whose range max - min = " +
                                     std::to_string(range.last - range.first) +
                                     " is not below 2^24 (the widest range the counting path histograms)");
        }
      }
    }
    parallel_sort_into(elements, less, group, settings, same_memory(elements));
  };
  // Scratch memory (detail/scratch_buffer.hpp) is not initialised: every element is written before
  // it is read.
  Scratch<T> placed;
  if (options.stable) {
    auto local = std::make_unique_for_overwrite<Positioned<T>[]>(size);
    std::size_t next = 0;
    part.for_each_piece([&](const LocalPiece& piece) {
      for (std::size_t i = 0; i < piece.length; ++i) {
        local[next++] = Positioned<T>{part.memory()[piece.local_begin + i], piece.global_begin + i};
      }
    });
    const auto by_key_then_position = [&less](const Positioned<T>& a, const Positioned<T>& b) {
      return less(a.value, b.value) || (!less(b.value, a.value) && a.position < b.position);
    };
    const std::span<Positioned<T>> elements(local.get(), size);
    parallel_sort_into(elements, by_key_then_position, group, settings, same_memory(elements));
    T* target = own;
    if (!in_place) {
      placed = make_scratch<T>(size);
      target = placed.get();
    }
    for (std::size_t i = 0; i < size; ++i) {
      target[i] = local[i].value;
    }
  } else if (in_place) {
    // The part is the slice's memory: sorted, sent and merged right there, without a copy.
    sort_elements(std::span<T>(own, size));
  } else {
    placed = make_scratch<T>(size);
    part.for_each_stretch([&](const LocalStretch& stretch) {
      std::copy_n(part.memory() + stretch.local_begin, stretch.length, placed.get() + stretch.part_offset);
    });
    sort_elements(std::span<T>(placed.get(), size));
  }
  if (!in_place) {
    // Safe without a barrier first: the exchange completed only after every unit had packed its part.
    copy(placed.get(), placed.get() + size, first + static_cast<std::ptrdiff_t>(slice_first));
  }
  segment.barrier();
  if (options.phases != nullptr) {
    *options.phases = phases;
  }
  if (comm::config().sort_trace) {
    print_sort_trace(phases, size);
  }
}

// std::less<>, std::less<Key> and std::ranges::less order arithmetic keys alike, and so do the three
// greaters: each family is sorted by one instantiation, so a program that spells the order two ways
// compiles the sort once.
template <class T, class Comp, class Proj>
auto canonical_order(const Comp& comp) {
  using Key = projected_key<T, Proj>;
  if constexpr (std::is_arithmetic_v<Key> && ascending_comparator<Comp, Key>) {
    return std::ranges::less{};
  } else if constexpr (std::is_arithmetic_v<Key> && descending_comparator<Comp, Key>) {
    return std::ranges::greater{};
  } else {
    return comp;
  }
}

template <class T, class PatternT, class Comp, class Proj>
void sort_by(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, const Comp& comp, const Proj& proj,
             const SortOptions& options) {
  sort_range(first, last,
             [&comp, &proj](const T& a, const T& b) {
               return std::invoke(comp, std::invoke(proj, a), std::invoke(proj, b));
             },
             kernel_fit<T, Comp, Proj>(), counting_codes<T, Comp>(proj), options);
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
  detail::sort_by(first, last, detail::canonical_order<T, Comp, Proj>(comp), proj, options);
}

// Frees the scratch blocks (2 MiB and more) that dash::sort and Team::split's sorter keep between
// calls, at most detail::scratch_cache_blocks of them (docs/sort.md, "Scratch memory"). Thread-safe.
inline void sort_release_scratch() noexcept { detail::release_cached_scratch(); }

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
