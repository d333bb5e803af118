#pragma once
// dash::StencilGrouping: a stencil's points arranged for evaluation through shared partial sums
// along the last (contiguous) dimension, as NPB MG's resid and psinv are hand-written (Bailey et
// al., NAS Parallel Benchmarks 3.4, MG): the 27-point cube with one weight per distance class
// costs 14 operations per cell instead of 41.
//
// Terms, in the order they are evaluated (Stencil documents the same order for users):
// - a line is the set of points that share every offset but the last;
// - lines whose points carry the same coefficient at the same last offsets form a class; the
//   class's partial sum at column x is the sum of its lines' values at x, lines in the order they
//   first appear in the point list;
// - a term is a class's partial sum shifted by a last offset s; walking the points in listed
//   order, point (line, s) introduces the term (class of line, s) unless it exists, into the
//   group of the point's coefficient (groups in order of their coefficient's first appearance);
// - the cell's value is w_1 (t_11 + t_12 + ...) + w_2 (t_21 + ...) + ..., left to right.
// Every cell is evaluated by this expression, whichever path computes it, so grouped results do
// not depend on the distribution either. Up to 27 points are kept in place (no allocation).

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include <boost/container/small_vector.hpp>

namespace dash {

template <std::size_t N>
struct StencilPoint {
  std::array<std::ptrdiff_t, N> offset{};
  double coefficient = 1.0;
};

class StencilGrouping {
public:
  static constexpr std::size_t inline_points = 27;
  template <class V>
  using Table = boost::container::small_vector<V, inline_points>;

  struct LineClass {
    std::size_t first_line = 0;  // into line_points()
    std::size_t lines = 0;
    std::ptrdiff_t lowest_shift = 0;  // the class's terms read its partial sum at x + shift
    std::ptrdiff_t highest_shift = 0;
  };
  struct Term {
    std::size_t line_class = 0;
    std::ptrdiff_t shift = 0;
    std::size_t first_point = 0;  // into term_points(): the point of each of the class's lines at shift
  };
  struct WeightGroup {
    double coefficient = 0;
    std::size_t first_term = 0;
    std::size_t terms = 0;
  };

  StencilGrouping() = default;

  template <std::size_t N>
  explicit StencilGrouping(const std::vector<StencilPoint<N>>& points) {
    const std::size_t k = points.size();
    const auto head = [&](std::size_t p) {
      std::array<std::ptrdiff_t, N - 1> offsets{};
      for (std::size_t d = 0; d + 1 < N; ++d) {
        offsets[d] = points[p].offset[d];
      }
      return offsets;
    };
    const auto shift_of = [&](std::size_t p) { return points[p].offset[N - 1]; };
    // Lines, in order of first appearance: the points of each.
    Table<std::size_t> line_of(k);
    Table<std::size_t> line_first;  // a point of each line
    for (std::size_t p = 0; p < k; ++p) {
      std::size_t line = 0;
      while (line < line_first.size() && head(line_first[line]) != head(p)) {
        ++line;
      }
      if (line == line_first.size()) {
        line_first.push_back(p);
      }
      line_of[p] = line;
    }
    const std::size_t lines = line_first.size();
    // The point of `line` at last offset s, or k.
    const auto point_at = [&](std::size_t line, std::ptrdiff_t s) {
      for (std::size_t p = 0; p < k; ++p) {
        if (line_of[p] == line && shift_of(p) == s) {
          return p;
        }
      }
      return k;
    };
    const auto same_profile = [&](std::size_t a, std::size_t b) {
      for (std::size_t p = 0; p < k; ++p) {
        if (line_of[p] == a) {
          const std::size_t q = point_at(b, shift_of(p));
          if (q == k || points[q].coefficient != points[p].coefficient) {
            return false;
          }
        }
      }
      return std::count(line_of.begin(), line_of.end(), a) == std::count(line_of.begin(), line_of.end(), b);
    };
    // Classes, in order of their first line's appearance.
    Table<std::size_t> class_of(lines);
    Table<Table<std::size_t>> members;
    for (std::size_t line = 0; line < lines; ++line) {
      std::size_t c = 0;
      while (c < members.size() && !same_profile(members[c].front(), line)) {
        ++c;
      }
      if (c == members.size()) {
        members.emplace_back();
      }
      members[c].push_back(line);
      class_of[line] = c;
    }
    for (const auto& member : members) {
      LineClass line_class{line_points_.size(), member.size(), 0, 0};
      bool first = true;
      for (std::size_t p = 0; p < k; ++p) {
        if (line_of[p] == member.front()) {
          line_class.lowest_shift = first ? shift_of(p) : std::min(line_class.lowest_shift, shift_of(p));
          line_class.highest_shift = first ? shift_of(p) : std::max(line_class.highest_shift, shift_of(p));
          first = false;
        }
      }
      for (const std::size_t line : member) {
        line_points_.push_back(line_first[line]);
        line_shifts_.push_back(shift_of(line_first[line]));
      }
      classes_.push_back(line_class);
    }
    // Terms and weight groups, walking the points in listed order.
    Table<Table<Term>> group_terms;
    for (std::size_t p = 0; p < k; ++p) {
      const std::size_t c = class_of[line_of[p]];
      std::size_t g = 0;
      while (g < groups_.size() && groups_[g].coefficient != points[p].coefficient) {
        ++g;
      }
      if (g == groups_.size()) {
        groups_.push_back({points[p].coefficient, 0, 0});
        group_terms.emplace_back();
      }
      bool known = false;
      for (const auto& terms : group_terms) {
        for (const Term& term : terms) {
          known = known || (term.line_class == c && term.shift == shift_of(p));
        }
      }
      if (!known) {
        Term term{c, shift_of(p), term_points_.size()};
        for (const std::size_t line : members[c]) {
          term_points_.push_back(point_at(line, shift_of(p)));
        }
        group_terms[g].push_back(term);
      }
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      groups_[g].first_term = terms_.size();
      groups_[g].terms = group_terms[g].size();
      terms_.insert(terms_.end(), group_terms[g].begin(), group_terms[g].end());
    }
    for (const LineClass& line_class : classes_) {
      grouped_operations_ += line_class.lines - 1;
    }
    for (const WeightGroup& group : groups_) {
      grouped_operations_ += group.terms;  // its additions and its multiplication
    }
    grouped_operations_ += groups_.size() - 1;
  }

  const Table<LineClass>& classes() const noexcept { return classes_; }
  // A point of each line, the lines of each class together (LineClass::first_line), and its last
  // offset: the line's value at column x is that point's at x - shift.
  const Table<std::size_t>& line_points() const noexcept { return line_points_; }
  const Table<std::ptrdiff_t>& line_shifts() const noexcept { return line_shifts_; }
  const Table<Term>& terms() const noexcept { return terms_; }
  const Table<std::size_t>& term_points() const noexcept { return term_points_; }
  const Table<WeightGroup>& groups() const noexcept { return groups_; }
  // Additions and multiplications per cell when partial sums are shared along a row.
  std::size_t grouped_operations() const noexcept { return grouped_operations_; }

  // The cell's value through the grouped expression, value(p) being point p's value and
  // weights[g] group g's coefficient.
  template <class T, class Value>
  T evaluate(const Value& value, const T* weights) const {
    T total{};
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      T group_sum{};
      for (std::size_t t = 0; t < groups_[g].terms; ++t) {
        const Term& term = terms_[groups_[g].first_term + t];
        T partial = value(term_points_[term.first_point]);
        for (std::size_t line = 1; line < classes_[term.line_class].lines; ++line) {
          partial += value(term_points_[term.first_point + line]);
        }
        group_sum = t == 0 ? partial : group_sum + partial;
      }
      total = g == 0 ? weights[g] * group_sum : total + weights[g] * group_sum;
    }
    return total;
  }

private:
  Table<LineClass> classes_;
  Table<std::size_t> line_points_;
  Table<std::ptrdiff_t> line_shifts_;
  Table<Term> terms_;
  Table<std::size_t> term_points_;
  Table<WeightGroup> groups_;
  std::size_t grouped_operations_ = 0;
};

}  // namespace dash
