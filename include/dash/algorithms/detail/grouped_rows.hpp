#pragma once
// A row of cells evaluated through a stencil's grouping (dash::StencilGrouping): per chunk of the
// row, each class of lines is summed once into a partial-sum row, each weight group adds its
// shifted partial sums, and the groups' weighted sums make the cells' values, one pass each (up
// to four inputs per pass). Every pass runs along the row over a few kilobytes of scratch, so it
// vectorises and stays in the L1 cache; NPB MG's resid and psinv are hand-written the same way.
// The operations, and their order, are those of StencilGrouping::evaluate for each cell, so a row
// and a single cell agree bit for bit.

#include <algorithm>
#include <cstddef>

#include <boost/container/small_vector.hpp>

#include <dash/algorithms/detail/cpu_has_avx2.hpp>
#include <dash/containers/stencil_grouping.hpp>

namespace dash::detail {

// out[x] = ((in[0][x] + in[1][x]) + in[2][x]) + ... for first <= x < last: up to four inputs in
// one pass (the common case: a class of four lines, a group of two or three terms), more by
// adding the rest pass by pass; the order of the additions is the same either way.
template <class T>
[[gnu::always_inline]] inline void add_rows(T* out, const T* const* in, std::size_t count, std::ptrdiff_t first,
                                            std::ptrdiff_t last) {
  switch (count) {
    case 0:
      return;
    case 1:
      for (std::ptrdiff_t x = first; x < last; ++x) {
        out[x] = in[0][x];
      }
      return;
    case 2:
      for (std::ptrdiff_t x = first; x < last; ++x) {
        out[x] = in[0][x] + in[1][x];
      }
      return;
    case 3:
      for (std::ptrdiff_t x = first; x < last; ++x) {
        out[x] = in[0][x] + in[1][x] + in[2][x];
      }
      return;
    default:
      for (std::ptrdiff_t x = first; x < last; ++x) {
        out[x] = in[0][x] + in[1][x] + in[2][x] + in[3][x];
      }
      for (std::size_t k = 4; k < count; ++k) {
        for (std::ptrdiff_t x = first; x < last; ++x) {
          out[x] += in[k][x];
        }
      }
  }
}

template <class T, class Finish>
class GroupedRows {
public:
  // Cells per pass: the scratch of the 27-point cube (two partial-sum rows, two group rows, the
  // result) then takes 6 KiB of doubles.
  static constexpr std::size_t chunk = 128;

  GroupedRows(const StencilGrouping& grouping, const Finish& finish) : grouping_(grouping), finish_(finish) {
    std::size_t size = 0;
    for (const auto& line_class : grouping.classes()) {
      class_offsets_.push_back(size);
      if (line_class.lines > 1) {
        size += chunk + static_cast<std::size_t>(line_class.highest_shift - line_class.lowest_shift);
      }
    }
    for (const auto& group : grouping.groups()) {
      weights_.push_back(static_cast<T>(group.coefficient));
      group_offsets_.push_back(size);
      if (group.terms > 1) {
        size += chunk;
      }
    }
    result_offset_ = size;
    scratch_.resize(size + chunk);
  }

  // out[c] for c < width, rows[p] being where point p's values for the row start; false (and
  // nothing written) when a line's points do not lie side by side in one buffer (a row along a
  // block's edge whose neighbours' cells sit in a halo region): evaluate its cells one by one.
  // The passes are built as the build targets the CPU and, on x86-64, once more for AVX2, taken
  // when the CPU has it (as the listed kernels, stencil_lines.hpp: the same operations in the same
  // order, so the same results).
  bool operator()(T* out, std::size_t width, const T* const* rows, std::size_t first_index) const {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (cpu_has_avx2()) {
      return row_avx2(out, width, rows, first_index);
    }
#endif
    return row(out, width, rows, first_index);
  }

  // One cell, value(p) being point p's value.
  template <class Value>
  T cell(const Value& value, std::size_t index) const {
    return finish_(grouping_.evaluate(value, weights_.data()), index);
  }

private:
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  [[gnu::target("avx2")]] bool row_avx2(T* out, std::size_t width, const T* const* rows,
                                        std::size_t first_index) const {
    return row(out, width, rows, first_index);
  }
#endif

  [[gnu::always_inline]] bool row(T* out, std::size_t width, const T* const* rows, std::size_t first_index) const {
    const auto& classes = grouping_.classes();
    const auto& line_points = grouping_.line_points();
    StencilGrouping::Table<const T*> line_rows(line_points.size());
    for (std::size_t line = 0; line < line_points.size(); ++line) {
      line_rows[line] = rows[line_points[line]] - grouping_.line_shifts()[line];
    }
    for (const auto& term : grouping_.terms()) {
      const auto& line_class = classes[term.line_class];
      for (std::size_t j = 0; j < line_class.lines; ++j) {
        if (rows[grouping_.term_points()[term.first_point + j]] != line_rows[line_class.first_line + j] + term.shift) {
          return false;
        }
      }
    }
    StencilGrouping::Table<const T*> partials(classes.size());
    for (std::size_t begin = 0; begin < width; begin += chunk) {
      const std::size_t cells = std::min(chunk, width - begin);
      for (std::size_t c = 0; c < classes.size(); ++c) {
        partials[c] = sum_lines(c, begin, cells, line_rows);
      }
      const auto& groups = grouping_.groups();
      StencilGrouping::Table<const T*> sums(groups.size());
      for (std::size_t g = 0; g < groups.size(); ++g) {
        sums[g] = sum_terms(g, cells, partials);
      }
      combine(out + begin, cells, sums, first_index + begin);
    }
    return true;
  }

  // Class c's partial sums for the chunk's cells: entry x (lowest_shift <= x < cells +
  // highest_shift) is the sum of its lines' values at column begin + x.
  [[gnu::always_inline]] const T* sum_lines(std::size_t c, std::size_t begin, std::size_t cells,
                     const StencilGrouping::Table<const T*>& line_rows) const {
    const auto& line_class = grouping_.classes()[c];
    const T* first = line_rows[line_class.first_line] + begin;
    if (line_class.lines == 1) {
      return first;
    }
    StencilGrouping::Table<const T*> lines(line_class.lines);
    for (std::size_t j = 0; j < line_class.lines; ++j) {
      lines[j] = line_rows[line_class.first_line + j] + begin;
    }
    const std::ptrdiff_t low = line_class.lowest_shift;
    T* sum = scratch_.data() + class_offsets_[c] - low;
    add_rows(sum, lines.data(), lines.size(), low, static_cast<std::ptrdiff_t>(cells) + line_class.highest_shift);
    return sum;
  }

  // Group g's sum of shifted partial sums for the chunk's cells.
  [[gnu::always_inline]] const T* sum_terms(std::size_t g, std::size_t cells,
                                            const StencilGrouping::Table<const T*>& partials) const {
    const auto& group = grouping_.groups()[g];
    const auto* terms = grouping_.terms().data() + group.first_term;
    const T* first = partials[terms[0].line_class] + terms[0].shift;
    if (group.terms == 1) {
      return first;
    }
    StencilGrouping::Table<const T*> shifted(group.terms);
    for (std::size_t t = 0; t < group.terms; ++t) {
      shifted[t] = partials[terms[t].line_class] + terms[t].shift;
    }
    T* sum = scratch_.data() + group_offsets_[g];
    add_rows(sum, shifted.data(), shifted.size(), 0, static_cast<std::ptrdiff_t>(cells));
    return sum;
  }

  // out[x] = finish(w_0 sums[0][x] + w_1 sums[1][x] + ..., index): up to four groups in one pass
  // with the finish, more through the result row.
  [[gnu::always_inline]] void combine(T* out, std::size_t cells, const StencilGrouping::Table<const T*>& sums,
                                      std::size_t first_index) const {
    const T* w = weights_.data();
    const T* const* s = sums.data();
    switch (sums.size()) {
      case 1:
        for (std::size_t x = 0; x < cells; ++x) {
          out[x] = finish_(w[0] * s[0][x], first_index + x);
        }
        return;
      case 2:
        for (std::size_t x = 0; x < cells; ++x) {
          out[x] = finish_(w[0] * s[0][x] + w[1] * s[1][x], first_index + x);
        }
        return;
      case 3:
        for (std::size_t x = 0; x < cells; ++x) {
          out[x] = finish_(w[0] * s[0][x] + w[1] * s[1][x] + w[2] * s[2][x], first_index + x);
        }
        return;
      case 4:
        for (std::size_t x = 0; x < cells; ++x) {
          out[x] = finish_(w[0] * s[0][x] + w[1] * s[1][x] + w[2] * s[2][x] + w[3] * s[3][x], first_index + x);
        }
        return;
      default:
        break;
    }
    T* result = scratch_.data() + result_offset_;
    for (std::size_t x = 0; x < cells; ++x) {
      result[x] = w[0] * s[0][x];
    }
    for (std::size_t g = 1; g < sums.size(); ++g) {
      for (std::size_t x = 0; x < cells; ++x) {
        result[x] = result[x] + w[g] * s[g][x];
      }
    }
    for (std::size_t x = 0; x < cells; ++x) {
      out[x] = finish_(result[x], first_index + x);
    }
  }

  const StencilGrouping& grouping_;
  const Finish& finish_;
  StencilGrouping::Table<T> weights_;
  StencilGrouping::Table<std::size_t> class_offsets_;
  StencilGrouping::Table<std::size_t> group_offsets_;
  std::size_t result_offset_ = 0;
  // In place up to 1024 values: every stencil of up to 27 points with short reaches allocates
  // nothing.
  mutable boost::container::small_vector<T, 1024> scratch_;
};

}  // namespace dash::detail
