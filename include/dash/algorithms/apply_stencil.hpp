#pragma once
// dash::apply_stencil: target = stencil(source) on every cell of a distributed matrix, with the
// halo exchange overlapped (Kowalewski 2021 Alg. 6).
//
//   dash::HaloMatrix<double, 2> halo(u, stencil, dash::HaloBoundary::fixed, boundary_value);
//   dash::apply_stencil(halo, u_next);   // u_next(x) = sum over points p of p.coefficient * u(x + p.offset)
//   dash::apply_stencil(halo, r, [&](double sum, std::size_t i) { return v.lbegin()[i] - sum; });  // r = v - A u
//
// The second form stores finish(sum, i) instead of the sum, i being the cell's offset in the
// target's local block: residuals, smoothing steps u += S r, and other updates in one pass.
// Starts the halo update, computes the inner cells (and the boundary cells that read only fixed
// halo regions, HaloMatrix::without_exchange) while the faces travel, then computes each other
// boundary box the moment the halo regions it reads have arrived (StencilOptions::partial = false
// waits for the whole halo first, for measuring). Each cell's sum is formed in one of the two
// orders Stencil documents (StencilOptions::summation: grouped, through partial sums shared along
// the last dimension, where that saves a quarter of the operations; else as listed), so the
// result is the same bit for bit at every number of units. Coefficients are converted to T.
// Collective over the matrices' team. No barrier at the end: target's cells are final locally;
// other units must synchronise (e.g. the next halo update, or target.barrier()) before reading
// them. Allocates nothing for stencils of
// up to 27 points (detail::PointTable), so a time-step loop makes no heap allocation per step.
//
// Map: StencilSummation, StencilOptions; in detail, PointTable (per-point tables kept in place),
// the row kernel (sums_grouped, RowKernel over the line kernels of detail/stencil_lines.hpp and
// GroupedRows, KeepSum), a box run in runs of lines (ShiftedRows, BoxLines, box_lines,
// for_each_run, run_lines), apply_stencil_box and apply_stencil_early (the cells that read no
// exchanged region); then the two apply_stencil overloads.

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

#include <dash/algorithms/detail/grouped_rows.hpp>
#include <dash/algorithms/detail/stencil_lines.hpp>
#include <dash/comm/exception.hpp>
#include <dash/containers/halo_box.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/containers/stencil.hpp>

namespace dash {

// How each cell's sum is formed (dash::Stencil documents both orders).
enum class StencilSummation {
  automatic,  // grouped when that saves at least a quarter of the operations, else as listed
  as_listed,  // the points one by one, in the order listed
  grouped,    // through partial sums shared along the last dimension (StencilGrouping)
};

struct StencilOptions {
  // Compute each boundary box as soon as its halo arrived (true) or after the whole halo (false).
  bool partial = true;
  StencilSummation summation = StencilSummation::automatic;
};

namespace detail {

// A value per stencil point, in place for up to unrolled_points points (every stencil the row
// kernel unrolls), so that apply_stencil allocates nothing for them; more spill to the heap.
template <class V>
using PointTable = boost::container::small_vector<V, unrolled_points>;

// Whether apply_stencil sums grouped.
template <std::size_t N>
bool sums_grouped(const Stencil<N>& stencil, StencilSummation summation) {
  switch (summation) {
    case StencilSummation::as_listed:
      return false;
    case StencilSummation::grouped:
      return true;
    case StencilSummation::automatic:
      break;
  }
  return 4 * stencil.grouping().grouped_operations() <= 3 * stencil.listed_operations();
}

// The row kernel for a stencil: grouped (GroupedRows), or as listed: unrolled up to
// unrolled_points points (all lines in one call), otherwise one pass over each line per point into
// a scratch row (the same sum per cell).
template <class T, class Finish>
class RowKernel {
public:
  template <std::size_t N>
  RowKernel(const Stencil<N>& stencil, bool grouped, const Finish& finish)
      : points_(stencil.size()), uniform_(stencil.uniform()), finish_(finish) {
    for (const auto& point : stencil.points()) {
      weights_.push_back(static_cast<T>(point.coefficient));
    }
    if (grouped) {
      grouped_.emplace(stencil.grouping(), finish);
      return;
    }
    if (points_ <= unrolled_points) {
      kernel_ = stencil_lines_for<T, Finish>(points_, uniform_, true);
    }
  }

  // The cells of `lines`, rows[p] being where point p's values for the first line start.
  void operator()(T* out, const Lines<T>& lines, const T* const* rows, std::size_t first_index) const {
    if (kernel_ != nullptr) {
      kernel_(out, lines, rows, weights_.data(), finish_, first_index);
      return;
    }
    PointTable<const T*> line_rows(rows, rows + points_);
    for (std::size_t l = 0; l < lines.count; ++l) {
      if (l > 0) {
        for (std::size_t p = 0; p < points_; ++p) {
          line_rows[p] += lines.row_steps[p];
        }
      }
      line(out + l * lines.out_step, lines.width, line_rows.data(), first_index + l * lines.out_step);
    }
  }

  // The sum of one cell whose point values value(p) gives.
  template <class Value>
  T cell(const Value& value, std::size_t index) const {
    if (grouped_) {
      return grouped_->cell(value, index);
    }
    const T* weights = weights_.data();
    T sum = uniform_ ? value(0) : weights[0] * value(0);
    for (std::size_t p = 1; p < points_; ++p) {
      sum += uniform_ ? value(p) : weights[p] * value(p);
    }
    return finish_(uniform_ ? weights[0] * sum : sum, index);
  }

private:
  // One line through the grouping, or point by point past the unrolled kernels.
  void line(T* out, std::size_t width, const T* const* rows, std::size_t first_index) const {
    if (grouped_) {
      if (!(*grouped_)(out, width, rows, first_index)) {
        for (std::size_t c = 0; c < width; ++c) {
          out[c] = grouped_->cell([&](std::size_t p) { return rows[p][c]; }, first_index + c);
        }
      }
      return;
    }
    const T* weights = weights_.data();
    sums_.resize(width);
    for (std::size_t c = 0; c < width; ++c) {
      sums_[c] = uniform_ ? rows[0][c] : weights[0] * rows[0][c];
    }
    for (std::size_t p = 1; p < points_; ++p) {
      for (std::size_t c = 0; c < width; ++c) {
        sums_[c] += uniform_ ? rows[p][c] : weights[p] * rows[p][c];
      }
    }
    for (std::size_t c = 0; c < width; ++c) {
      out[c] = finish_(uniform_ ? weights[0] * sums_[c] : sums_[c], first_index + c);
    }
  }

  std::size_t points_;
  bool uniform_;
  const Finish& finish_;
  PointTable<T> weights_;
  std::optional<GroupedRows<T, Finish>> grouped_;
  StencilLines<T, Finish> kernel_ = nullptr;
  mutable std::vector<T> sums_;
};

// Stores the stencil's sum itself.
struct KeepSum {
  template <class T>
  T operator()(T sum, std::size_t) const noexcept {
    return sum;
  }
};

// Where a box's cells, shifted by one stencil offset, are stored when they all lie in one buffer
// (the block or one halo region): index x + offset is at data + sum_d (x_d + offset_d - shift_d) * strides_d.
template <class T, std::size_t N>
struct ShiftedRows {
  const T* data = nullptr;
  std::array<std::ptrdiff_t, N> shift{};
  std::array<std::ptrdiff_t, N> strides{};
};

template <class T, std::size_t N>
std::optional<ShiftedRows<T, N>> shifted_rows(const HaloMatrix<T, N>& halo, const HaloBox<N>& box,
                                              const std::array<std::ptrdiff_t, N>& offset) {
  const auto& extents = halo.local_extents();
  std::size_t region = 0;
  ShiftedRows<T, N> rows;
  for (std::size_t d = 0; d < N; ++d) {
    const auto extent = static_cast<std::ptrdiff_t>(extents[d]);
    const auto low = static_cast<std::ptrdiff_t>(box.first[d]) + offset[d];
    const auto high = static_cast<std::ptrdiff_t>(box.last[d]) - 1 + offset[d];
    const int low_side = low < 0 ? 0 : low >= extent ? 2 : 1;
    const int high_side = high < 0 ? 0 : high >= extent ? 2 : 1;
    if (low_side != high_side) {
      return std::nullopt;  // straddles the block's edge
    }
    region = region * 3 + static_cast<std::size_t>(low_side);
    rows.shift[d] = low_side == 0 ? -static_cast<std::ptrdiff_t>(halo.stencil().reach_below(d))
                                  : low_side == 2 ? extent : 0;
  }
  const auto source = halo.region(region);
  rows.data = source.data;
  rows.strides[N - 1] = 1;
  for (std::size_t d = N - 1; d-- > 0;) {
    rows.strides[d] = rows.strides[d + 1] * static_cast<std::ptrdiff_t>(source.extents[d + 1]);
  }
  return rows;
}

// The dimension along which the lines of a run follow one another (a 1-D box has one line).
template <std::size_t N>
inline constexpr std::size_t stacked_dimension = N >= 2 ? N - 2 : 0;

// A box run line by line: each point's shifted copy of the box lies in one buffer (sources), and
// the lines run along dimension `along`; `lines` is the box cut to one cell along it. Lines along
// the last dimension that follow one another along dimension N - 2 go to the kernel together:
// point p's values for the next one lie row_steps[p] further on.
template <class T, std::size_t N>
struct BoxLines {
  HaloBox<N> lines;
  std::size_t along = N - 1;
  std::size_t length = 0;
  PointTable<ShiftedRows<T, N>> sources;
  PointTable<std::ptrdiff_t> row_steps;
};

// Fills `plan` with the lines of `box` along `along`; false when a point's shifted copy straddles
// buffers. Filled in place: a plan holds its point tables inline (about 1.5 KiB), never moved.
template <class T, std::size_t N>
bool box_lines(const HaloMatrix<T, N>& halo, const HaloBox<N>& box, std::size_t along, BoxLines<T, N>& plan) {
  plan.sources.clear();
  plan.row_steps.clear();
  for (const auto& point : halo.stencil().points()) {
    const auto rows = shifted_rows(halo, box, point.offset);
    if (!rows) {
      return false;
    }
    plan.sources.push_back(*rows);
    plan.row_steps.push_back(rows->strides[stacked_dimension<N>]);
  }
  plan.along = along;
  plan.length = box.last[along] - box.first[along];
  plan.lines = box;
  plan.lines.last[along] = plan.lines.first[along] + 1;
  return true;
}

// Calls run(first, count) for the lines of `plan` in runs of up to `most` lines that follow one
// another along dimension N - 2 (runs of one line where the lines do not run along the last
// dimension), `first` being the first line's coordinates.
template <class T, std::size_t N, class Run>
void for_each_run(const BoxLines<T, N>& plan, std::size_t most, const Run& run) {
  if (N < 2 || plan.along != N - 1) {
    plan.lines.for_each([&](const std::array<std::size_t, N>& first) { run(first, std::size_t{1}); });
    return;
  }
  constexpr std::size_t stacked = stacked_dimension<N>;
  HaloBox<N> starts = plan.lines;
  starts.last[stacked] = starts.first[stacked] + 1;
  starts.for_each([&](std::array<std::size_t, N> first) {
    for (std::size_t line = plan.lines.first[stacked]; line < plan.lines.last[stacked]; line += most) {
      first[stacked] = line;
      run(static_cast<const std::array<std::size_t, N>&>(first), std::min(most, plan.lines.last[stacked] - line));
    }
  });
}

// `count` lines of `plan` from the one through `first` (its other coordinates): along the last
// dimension with the row kernel, along another one (count 1) cell by cell, which spares a kernel
// call per cell.
template <class T, std::size_t N, class Finish>
void run_lines(const BoxLines<T, N>& plan, const std::array<std::size_t, N>& first, std::size_t count,
               const std::array<std::size_t, N>& strides, const std::vector<StencilPoint<N>>& points, T* target,
               const RowKernel<T, Finish>& kernel, PointTable<const T*>& starts) {
  std::size_t out = 0;
  for (std::size_t d = 0; d < N; ++d) {
    out += first[d] * strides[d];
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    const auto& source = plan.sources[p];
    std::ptrdiff_t at = 0;
    for (std::size_t d = 0; d < N; ++d) {
      at += (static_cast<std::ptrdiff_t>(first[d]) + points[p].offset[d] - source.shift[d]) * source.strides[d];
    }
    starts[p] = source.data + at;
  }
  if (plan.along == N - 1) {
    const Lines<T> lines{plan.length, count, strides[stacked_dimension<N>], plan.row_steps.data()};
    kernel(target + out, lines, starts.data(), out);
    return;
  }
  for (std::size_t c = 0; c < plan.length; ++c) {
    const std::size_t at = out + c * strides[plan.along];
    target[at] = kernel.cell(
        [&](std::size_t p) { return starts[p][static_cast<std::ptrdiff_t>(c) * plan.sources[p].strides[plan.along]]; },
        at);
  }
}

// A box (the inner cells, or a boundary box) line by line along its longest dimension (the last
// unless another is strictly longer, the later one on a tie, whose cells lie closer), or cell by
// cell through the halo lookup when a point's copy straddles buffers.
template <class T, std::size_t N, class Finish>
void apply_stencil_box(const HaloMatrix<T, N>& source, const HaloBox<N>& box, const std::array<std::size_t, N>& strides,
                       T* target, const RowKernel<T, Finish>& kernel) {
  if (box.empty()) {
    return;
  }
  const auto& points = source.stencil().points();
  const auto extent = [&](std::size_t d) { return box.last[d] - box.first[d]; };
  std::size_t along = N - 1;
  for (std::size_t d = N - 1; d-- > 0;) {
    if (extent(d) > extent(along)) {
      along = d;
    }
  }
  if (BoxLines<T, N> plan; box_lines(source, box, along, plan)) {
    PointTable<const T*> starts(points.size());
    for_each_run(plan, box.size(), [&](const std::array<std::size_t, N>& first, std::size_t count) {
      run_lines(plan, first, count, strides, points, target, kernel, starts);
    });
    return;
  }
  box.for_each([&](const std::array<std::size_t, N>& cell) {
    std::size_t at = 0;
    for (std::size_t d = 0; d < N; ++d) {
      at += cell[d] * strides[d];
    }
    target[at] = kernel.cell(
        [&](std::size_t p) {
          std::array<std::ptrdiff_t, N> index{};
          for (std::size_t d = 0; d < N; ++d) {
            index[d] = static_cast<std::ptrdiff_t>(cell[d]) + points[p].offset[d];
          }
          return source.value_unchecked(index);
        },
        at);
  });
}

// Lines per pass over a row of boxes (apply_stencil_early): enough that a call's overhead is
// spread over many cells, few enough that the lines just read are still in the cache when the
// boxes beside them read their edges.
inline constexpr std::size_t lines_per_pass = 32;

// The cells that read no exchanged region (HaloMatrix::without_exchange): the inner box and the
// boundary boxes inside it. Boxes side by side along the last dimension run together, a few lines
// of each in turn, so that the edge cells of a row are computed while its cache lines are at hand
// instead of in a column walk across the block (a stride of a power of two maps the whole column
// to a few cache sets; docs/benchmarks.md, "halo").
template <class T, std::size_t N, class Finish>
void apply_stencil_early(const HaloMatrix<T, N>& source, const std::array<std::size_t, N>& strides, T* target,
                         const RowKernel<T, Finish>& kernel) {
  const HaloBox<N>& early = source.without_exchange();
  // The inner box and the 3^N - 1 boundary ones at most.
  boost::container::static_vector<HaloBox<N>, power_of_three(N)> boxes{source.inner()};
  for (const auto& box : source.boundary()) {
    if (early.contains(box)) {
      boxes.push_back(box);
    }
  }
  // Rows of boxes that share their extents in the other dimensions, west to east.
  const auto rows_of = [](const HaloBox<N>& box) {
    std::array<std::size_t, 2 * (N - 1)> rows{};
    for (std::size_t d = 0; d + 1 < N; ++d) {
      rows[2 * d] = box.first[d];
      rows[2 * d + 1] = box.last[d];
    }
    return rows;
  };
  boxes.erase(std::remove_if(boxes.begin(), boxes.end(), [](const HaloBox<N>& box) { return box.empty(); }),
              boxes.end());
  std::sort(boxes.begin(), boxes.end(), [&](const auto& a, const auto& b) {
    return std::pair(rows_of(a), a.first[N - 1]) < std::pair(rows_of(b), b.first[N - 1]);
  });
  const auto& points = source.stencil().points();
  PointTable<const T*> starts(points.size());
  boost::container::static_vector<BoxLines<T, N>, 3> row;  // lower band, middle, upper band
  for (std::size_t begin = 0; begin < boxes.size();) {
    std::size_t end = begin + 1;
    while (end < boxes.size() && rows_of(boxes[end]) == rows_of(boxes[begin])) {
      ++end;
    }
    if (end - begin == 1) {  // alone in its rows: along its longest dimension
      apply_stencil_box(source, boxes[begin], strides, target, kernel);
      begin = end;
      continue;
    }
    row.clear();
    for (std::size_t b = begin; b < end; ++b) {
      if (!box_lines(source, boxes[b], N - 1, row.emplace_back())) {
        row.pop_back();
        break;
      }
    }
    if (row.size() == end - begin) {
      for_each_run(row.front(), lines_per_pass, [&](std::array<std::size_t, N> first, std::size_t count) {
        for (const auto& plan : row) {
          first[N - 1] = plan.lines.first[N - 1];
          run_lines(plan, first, count, strides, points, target, kernel, starts);
        }
      });
    } else {
      for (std::size_t b = begin; b < end; ++b) {
        apply_stencil_box(source, boxes[b], strides, target, kernel);
      }
    }
    begin = end;
  }
}

}  // namespace detail

// target(x) = finish(stencil sum at x, x's offset in target's local block).
template <class T, std::size_t N, class Finish>
  requires std::is_invocable_r_v<T, const Finish&, T, std::size_t>
void apply_stencil(HaloMatrix<T, N>& source, Matrix<T, N>& target, const Finish& finish,
                   const StencilOptions& options = {}) {
  constexpr const char* function = "dash::apply_stencil";
  if (!target.is_allocated()) {
    throw invalid_argument(function, "target", "unallocated", "an allocated dash::Matrix");
  }
  if (&target == &source.matrix()) {
    throw invalid_argument(function, "target", "the source's matrix",
                           "a different matrix (cells read by the neighbours' stencils must not change during the "
                           "update)");
  }
  const auto& from = source.matrix().pattern();
  const auto& to = target.pattern();
  if (from.extents() != to.extents() || from.distribution_spec() != to.distribution_spec() ||
      from.team_spec() != to.team_spec() || &source.matrix().team() != &target.team()) {
    throw invalid_argument(function, "target", "a matrix of another shape, distribution or team",
                           "the source matrix's extents, distribution, process grid and team");
  }
  const auto& extents = source.local_extents();
  std::array<std::size_t, N> strides{};
  strides[N - 1] = 1;
  for (std::size_t d = N - 1; d-- > 0;) {
    strides[d] = strides[d + 1] * extents[d + 1];
  }
  const detail::RowKernel<T, Finish> kernel(source.stencil(), detail::sums_grouped(source.stencil(), options.summation),
                                           finish);

  auto update = source.update_async();
  const HaloBox<N>& early = source.without_exchange();
  detail::apply_stencil_early(source, strides, target.lbegin(), kernel);
  if (!options.partial) {
    update.wait();
  }
  update.for_each_ready_boundary([&](const HaloBox<N>& box) {
    if (!early.contains(box)) {
      detail::apply_stencil_box(source, box, strides, target.lbegin(), kernel);
    }
  });
}

// target(x) = the stencil sum at x.
template <class T, std::size_t N>
void apply_stencil(HaloMatrix<T, N>& source, Matrix<T, N>& target, const StencilOptions& options = {}) {
  apply_stencil(source, target, detail::KeepSum{}, options);
}

}  // namespace dash
