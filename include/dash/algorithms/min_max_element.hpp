#pragma once
// dash::min_element and dash::max_element: a global iterator to the first smallest / largest element
// of a global range, the same on every unit. Each unit finds its own candidate; one allreduce picks the
// winner, ties going to the smaller global index, as std::min_element / std::max_element do.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

#include <dash/algorithms/detail/partial.hpp>
#include <dash/algorithms/detail/range_check.hpp>
#include <dash/algorithms/local_part.hpp>
#include <dash/core/glob_iter.hpp>

namespace dash {

namespace detail {

template <class V>
struct Candidate {
  V value;
  std::uint64_t index;  // global index
};

// The better of two candidates: the one `first_wins(a, b)` prefers, else (equivalent values) the one
// with the smaller global index. Commutative and associative for a strict weak order.
template <class V, class FirstWins>
struct PickCandidate {
  static constexpr bool is_commutative = true;
  FirstWins first_wins;

  Candidate<V> operator()(const Candidate<V>& a, const Candidate<V>& b) const {
    if (first_wins(a.value, b.value)) {
      return a;
    }
    if (first_wins(b.value, a.value)) {
      return b;
    }
    return b.index < a.index ? b : a;
  }
};

// The first element x of the range for which no other y has first_wins(y, x).
template <class T, class PatternT, class FirstWins>
GlobIter<T, PatternT> extreme_element(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, FirstWins first_wins,
                                      const char* function) {
  using V = std::remove_const_t<T>;
  if (check_collective_range(first, last, function) == 0) {
    return last;
  }
  const LocalPart<T, PatternT> part(first, last);
  Partial<Candidate<V>> mine;
  part.for_each_piece([&](const LocalPiece& piece) {
    const T* const elements = part.memory() + piece.local_begin;
    for (std::size_t i = 0; i < piece.length; ++i) {
      // Pieces come in increasing global order: only a strictly better element replaces the candidate.
      if (!mine.present || first_wins(elements[i], mine.value.value)) {
        mine = Partial<Candidate<V>>{Candidate<V>{elements[i], piece.global_begin + i}, true};
      }
    }
  });
  const PickCandidate<V, FirstWins> pick{first_wins};
  const Partial<Candidate<V>> best = combine_over_team<true>(mine, pick, part.segment()->team());
  return first + static_cast<std::ptrdiff_t>(best.value.index - first.pos());
}

}  // namespace detail

// Collective over the team of the range's container: an iterator to the first (smallest global index)
// element x with no y such that comp(y, x); last for an empty range. The same on every unit.
// Communication: one allreduce of one element and its index.
template <class T, class PatternT, class Compare = std::less<>>
GlobIter<T, PatternT> min_element(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Compare comp = {}) {
  return detail::extreme_element(first, last, comp, "dash::min_element");
}

// Collective over the team of the range's container: an iterator to the first element x with no y such
// that comp(x, y); last for an empty range. The same on every unit. Communication: one allreduce of one
// element and its index.
template <class T, class PatternT, class Compare = std::less<>>
GlobIter<T, PatternT> max_element(GlobIter<T, PatternT> first, GlobIter<T, PatternT> last, Compare comp = {}) {
  const auto greater = [comp](const auto& a, const auto& b) { return comp(b, a); };
  return detail::extreme_element(first, last, greater, "dash::max_element");
}

}  // namespace dash
