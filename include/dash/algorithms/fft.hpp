#pragma once
// dash::fft: distributed 2-D and 3-D complex FFTs of dash::Matrix slabs, with the global transpose
// consumed as it arrives (Kowalewski 2021 §3.3.2: the FFT transpose as a use case of partial
// aggregation).
//
//   using C = std::complex<double>;
//   const dash::DistributionSpec<2> slabs(dash::BLOCKED, dash::NONE);
//   dash::Matrix<C, 2> in(dash::SizeSpec<2>(n0, n1), slabs);
//   dash::Matrix<C, 2> out(dash::SizeSpec<2>(n1, n0), slabs);           // FftLayout::transposed
//   dash::fft(in, out, dash::FftDirection::forward, {.layout = dash::FftLayout::transposed});
//
// Slab decomposition: `in` (n0 x n1 [x n2]) is distributed along its first dimension only
// (DistributionSpec(BLOCKED, NONE[, NONE])), and n0 and n1 are multiples of the team size P. Steps:
//  1. each unit transforms its n0/P rows (2-D: 1-D FFTs of length n1; 3-D: 2-D FFTs of its n1 x n2
//     planes) with FFTW, a cache-sized chunk of rows at a time, and packs each chunk for the
//     transpose while it is cached;
//  2. one non-blocking alltoallv moves unit u's columns [v n1/P, (v+1) n1/P) to unit v != u, split
//     into tiles of a few output rows (a segment per tile). A unit places each arriving piece into its
//     output rows with a blocked local transposition and, as soon as a tile has its pieces from all
//     units, runs that tile's FFTs along n0 while the rest of the exchange goes on;
//  3. FftLayout::normal only: a second alltoall transposes the result back to in's shape.
// The tile size follows from the sizes (about 512 KiB of output per tile, at most 256 tiles); there is
// no tuning parameter. FftOptions::partial = false waits for the whole exchange before placing and
// transforming (the same tiles), for measuring the overlap.
//
// Output layouts (FftOptions::layout):
//  - FftLayout::normal (default): out has in's shape and distribution, out(i, j[, k]) = X(i, j[, k]).
//  - FftLayout::transposed: like FFTW_MPI_TRANSPOSED_OUT, the first two dimensions are swapped and the
//    final transpose is skipped: out is n1 x n0 [x n2], distributed along its first dimension, and
//    out(j, i[, k]) = X(i, j[, k]). Transforming that back with FftLayout::transposed gives in's layout
//    again, so a forward and an inverse transform that both use it never pay the second transpose.
// X is the DFT of in with FFTW's sign convention: exp(-2 pi i jk/n) forward, exp(+2 pi i jk/n)
// inverse. The inverse is unnormalised, as in FFTW (a round trip multiplies by n0 n1 [n2]), unless
// FftOptions::normalize_inverse divides it by n0 n1 [n2].
//
// Collective over the matrices' team. Bad arguments throw dash::InvalidArgument on every unit before
// anything is communicated: unallocated matrices, matrices on different teams, in and out being one
// matrix (the transform is out of place), other distributions, extents that are not positive
// multiples of P (uneven slabs are not supported), and an out of the wrong shape. Scratch space: two
// buffers of the unit's slab size and two chunks of rows (256 KiB each), kept for later calls of the
// thread (allocating them in every call costs page faults; docs/algorithms.md) until
// dash::fft_release_scratch(). FFTW_MEASURE planning (FftPlanning::measure) takes long on the first
// call of a shape; later calls reuse FFTW's wisdom. Not for concurrent calls from several threads
// (FFTW's planner is not thread-safe). No barrier at the end: call out.barrier() before other units
// read out.
//
// Map: FftDirection, FftLayout, FftPlanning, FftOptions; in detail, the tile and chunk sizes,
// FftSlabs and split_fft_rows, the argument checks (check_fft_slab_layout, check_fft_arguments),
// FftwPlansByAlignment and consume_fft_exchange (pieces placed as they arrive, tiles completed);
// then fft_release_scratch and dash::fft itself.

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <fftw3.h>

#include <dash/algorithms/detail/block_transpose.hpp>
#include <dash/algorithms/detail/fft_scratch.hpp>
#include <dash/algorithms/detail/fftw_buffer.hpp>
#include <dash/algorithms/detail/fftw_plan.hpp>
#include <dash/comm/alltoall.hpp>
#include <dash/comm/alltoallv.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/request.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/distribution.hpp>

namespace dash {

enum class FftDirection { forward, inverse };

// Where the result lands (see the header comment).
enum class FftLayout { normal, transposed };

// How FFTW plans the local transforms: FFTW_ESTIMATE (fast planning) or FFTW_MEASURE (times
// candidate algorithms on the first call of a shape; often faster transforms).
enum class FftPlanning { estimate, measure };

struct FftOptions {
  FftLayout layout = FftLayout::normal;
  // Transform each tile as soon as its pieces have arrived (true) or after the whole exchange (false).
  bool partial = true;
  FftPlanning planning = FftPlanning::estimate;
  // Divide the inverse transform by the number of elements, so that a round trip is the identity.
  bool normalize_inverse = false;
};

namespace detail {

inline constexpr const char* fft_function = "dash::fft";
// Output bytes per tile: the tile stays in the L2 cache from the placement of its pieces to its FFTs.
inline constexpr std::size_t fft_tile_bytes = std::size_t{512} * 1024;
// Tiles at most: each is one message per pair of units.
inline constexpr std::size_t fft_max_tiles = 256;
// Bytes of transformed input rows per chunk: a chunk stays cached from its FFTs to its packing.
inline constexpr std::size_t fft_chunk_bytes = std::size_t{256} * 1024;

// The sizes of a slab transform: in is n0 x n1 x width (width = n2, or 1 in 2-D) over `units` units.
struct FftSlabs {
  std::size_t n0 = 0;
  std::size_t n1 = 0;
  std::size_t width = 1;
  std::size_t units = 1;

  std::size_t in_rows() const noexcept { return n0 / units; }
  std::size_t out_rows() const noexcept { return n1 / units; }
  std::size_t local_size() const noexcept { return in_rows() * n1 * width; }
  // Elements one unit sends to another in each transpose.
  std::size_t piece_size() const noexcept { return in_rows() * out_rows() * width; }
  std::size_t elements() const noexcept { return n0 * n1 * width; }
};

// Rows cut into `count` blocks of `rows` rows each: the exchange's tiles, the input's chunks.
struct FftRowBlocks {
  std::size_t rows = 1;
  std::size_t count = 1;
};

// Blocks of equal size (so that each tile is exactly one alltoall segment and one plan serves every
// chunk): the largest divisor of total_rows whose block fits `budget_bytes`, among those giving at
// most max_blocks blocks (else the smallest of those).
inline FftRowBlocks split_fft_rows(std::size_t total_rows, std::size_t row_bytes, std::size_t budget_bytes,
                                   std::size_t max_blocks) {
  std::size_t smallest_allowed = 0;
  std::size_t largest_fitting = 0;
  for (std::size_t rows = 1; rows <= total_rows; ++rows) {
    if (total_rows % rows != 0 || total_rows / rows > max_blocks) {
      continue;
    }
    if (smallest_allowed == 0) {
      smallest_allowed = rows;
    }
    if (rows * row_bytes <= budget_bytes) {
      largest_fitting = rows;
    }
  }
  const std::size_t rows = largest_fitting != 0 ? largest_fitting : smallest_allowed;
  return FftRowBlocks{rows, total_rows / rows};
}

inline std::string fft_extents_text(std::span<const std::size_t> extents) {
  std::string text;
  for (const std::size_t extent : extents) {
    text += (text.empty() ? "" : " x ") + std::to_string(extent);
  }
  return text;
}

template <std::size_t N>
void check_fft_slab_layout(const Pattern<N>& pattern, const char* name) {
  bool slabs = pattern.distribution(0).kind() == DistributionKind::blocked;
  std::string names = pattern.distribution(0).name();
  for (std::size_t dim = 1; dim < N; ++dim) {
    slabs = slabs && pattern.distribution(dim).kind() == DistributionKind::none;
    names += " x " + pattern.distribution(dim).name();
  }
  if (!slabs) {
    throw InvalidArgument(std::string(fft_function) + ": '" + name +
                          "' must be distributed in slabs along its first dimension (DistributionSpec<" +
                          std::to_string(N) + ">(BLOCKED, NONE" + (N == 3 ? ", NONE" : "") + ")), but it is " +
                          names);
  }
}

// Every check depends only on what is equal on all units (the matrices' shapes, which allocation
// checked, and the objects passed), so every unit throws alike, before anything is communicated.
template <std::size_t N>
FftSlabs check_fft_arguments(const Matrix<std::complex<double>, N>& in, const Matrix<std::complex<double>, N>& out,
                             FftDirection direction, const FftOptions& options) {
  const std::string function = fft_function;
  if (!in.is_allocated() || !out.is_allocated()) {
    throw InvalidArgument(function + ": '" + (in.is_allocated() ? "out" : "in") + "' is not allocated");
  }
  if (&in == &out) {
    throw InvalidArgument(function + ": 'in' and 'out' are the same matrix, but the transform is out of place; "
                                     "pass another matrix as 'out'");
  }
  if (&in.team() != &out.team()) {
    throw InvalidArgument(function + ": 'out' is allocated on another team than 'in'; both must be on one team");
  }
  if (direction != FftDirection::forward && direction != FftDirection::inverse) {
    throw invalid_argument(function, "direction", static_cast<int>(direction),
                           "FftDirection::forward or FftDirection::inverse");
  }
  if (options.layout != FftLayout::normal && options.layout != FftLayout::transposed) {
    throw invalid_argument(function, "options.layout", static_cast<int>(options.layout),
                           "FftLayout::normal or FftLayout::transposed");
  }
  if (options.planning != FftPlanning::estimate && options.planning != FftPlanning::measure) {
    throw invalid_argument(function, "options.planning", static_cast<int>(options.planning),
                           "FftPlanning::estimate or FftPlanning::measure");
  }
  check_fft_slab_layout(in.pattern(), "in");
  check_fft_slab_layout(out.pattern(), "out");
  const auto& extents = in.extents();
  FftSlabs slabs{extents[0], extents[1], N == 3 ? extents[N - 1] : 1, in.pattern().num_units()};
  for (std::size_t dim = 0; dim < 2; ++dim) {
    if (extents[dim] == 0 || extents[dim] % slabs.units != 0) {
      throw invalid_argument(function, "in.extent(" + std::to_string(dim) + ")", extents[dim],
                             "a positive multiple of the team size " + std::to_string(slabs.units) +
                                 " (slabs of equal thickness in both transposes)");
    }
  }
  if (slabs.width == 0) {
    throw invalid_argument(function, "in.extent(2)", slabs.width, "at least 1");
  }
  std::array<std::size_t, N> expected = extents;
  if (options.layout == FftLayout::transposed) {
    std::swap(expected[0], expected[1]);
  }
  if (out.extents() != expected) {
    throw InvalidArgument(function + ": 'out' is " + fft_extents_text(out.extents()) + " but 'in' is " +
                          fft_extents_text(extents) + ", so FftLayout::" +
                          (options.layout == FftLayout::transposed ? "transposed" : "normal") + " needs an 'out' of " +
                          fft_extents_text(expected));
  }
  const std::array<std::uint64_t, 5> settings{static_cast<std::uint64_t>(direction),
                                              static_cast<std::uint64_t>(options.layout),
                                              static_cast<std::uint64_t>(options.partial),
                                              static_cast<std::uint64_t>(options.planning),
                                              static_cast<std::uint64_t>(options.normalize_inverse)};
  comm::check_uniform_if_enabled(settings, fft_function, "direction and options", in.team().mpi_comm());
  return slabs;
}

// Plans of one in-place transform for each FFTW alignment among the places it runs at (tiles of
// slab memory are equally long but need not be equally aligned).
class FftwPlansByAlignment {
public:
  template <class MakePlan>
  void add(std::complex<double>* data, MakePlan make_plan) {
    if (find(data) == nullptr) {
      plans_.push_back(make_plan(data));
    }
  }
  void execute(std::complex<double>* data) const { find(data)->execute(data, data); }

private:
  const FftwPlan* find(const std::complex<double>* data) const {
    const int alignment = fftw_alignment(data);
    for (const FftwPlan& plan : plans_) {
      if (plan.alignment() == alignment) {
        return &plan;
      }
    }
    return nullptr;
  }

  std::vector<FftwPlan> plans_;
};

// Consumes the exchange `request`: place(source, tile) for each piece, as it arrives when `partial`,
// else after the exchange; pieces the exchange did not report are placed after it, tile by tile in
// order, so that a tile is still cached when it is completed. The pieces of unit `own` (this unit,
// whose pieces need no transfer; `units` for none) are placed as soon as the rest of their tile is.
// complete(tile) runs once all `units` pieces of the tile are placed.
template <class Place, class Complete>
void consume_fft_exchange(comm::Request<std::complex<double>>& request, std::size_t units, std::size_t own,
                          std::size_t tiles, bool partial, Place place, Complete complete) {
  std::vector<unsigned char> placed(units * tiles, 0);
  std::vector<std::size_t> pieces_placed(tiles, 0);
  const auto take = [&](std::size_t source, std::size_t tile) {
    place(source, tile);
    placed[source * tiles + tile] = 1;
    if (++pieces_placed[tile] == units) {
      complete(tile);
    }
  };
  if (partial) {
    request.for_each_arrival([&](const comm::Arrival<std::complex<double>>& piece) {
      const auto source = static_cast<std::size_t>(piece.source);
      if (source == own) {
        return;  // its blocks are empty
      }
      take(source, piece.block);
      if (own < units && placed[own * tiles + piece.block] == 0 && pieces_placed[piece.block] + 1 == units) {
        take(own, piece.block);
      }
    });
  }
  request.wait();
  for (std::size_t tile = 0; tile < tiles; ++tile) {
    for (std::size_t source = 0; source < units; ++source) {
      if (placed[source * tiles + tile] == 0) {
        take(source, tile);
      }
    }
  }
}

}  // namespace detail

// Frees the scratch buffers that dash::fft keeps for the calling thread's later calls. Not collective.
inline void fft_release_scratch() { detail::fft_scratch_of_this_thread() = detail::FftScratch{}; }

// Collective over the matrices' team: out = the N-dimensional DFT of in, in the layout
// options.layout names (see the header comment).
template <std::size_t N>
  requires(N == 2 || N == 3)
void fft(const Matrix<std::complex<double>, N>& in, Matrix<std::complex<double>, N>& out, FftDirection direction,
         const FftOptions& options = {}) {
  using C = std::complex<double>;
  const char* const function = detail::fft_function;
  const detail::FftSlabs slabs = detail::check_fft_arguments(in, out, direction, options);
  const std::size_t units = slabs.units;
  const std::size_t n0 = slabs.n0;
  const std::size_t n1 = slabs.n1;
  const std::size_t width = slabs.width;
  const std::size_t in_rows = slabs.in_rows();
  const std::size_t out_rows = slabs.out_rows();
  const std::size_t local = slabs.local_size();
  const std::size_t piece = slabs.piece_size();
  const int sign = direction == FftDirection::forward ? FFTW_FORWARD : FFTW_BACKWARD;
  const unsigned flags = options.planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE;
  const detail::FftRowBlocks tiling =
      detail::split_fft_rows(out_rows, n0 * width * sizeof(C), detail::fft_tile_bytes, detail::fft_max_tiles);
  const std::size_t tile_size = tiling.rows * n0 * width;
  const detail::FftRowBlocks chunks = detail::split_fft_rows(in_rows, n1 * width * sizeof(C), detail::fft_chunk_bytes,
                                                             in_rows);
  const std::size_t chunk_size = chunks.rows * n1 * width;

  C* const slab = out.lbegin();
  detail::FftScratch& scratch = detail::fft_scratch(local, 2 * chunk_size, function);
  const detail::FftwBuffer& send = scratch.send;
  const detail::FftwBuffer& receive = scratch.receive;
  C* const rows = scratch.rows.data();         // a chunk of transformed rows
  C* const aligned_input = rows + chunk_size;  // a chunk of in, when in is aligned otherwise
  const auto me = static_cast<std::size_t>(in.team().myid());

  // Plans first: FFTW_MEASURE planning overwrites the arrays it plans for (the row chunks and slab
  // are scratch until the data arrive).
  detail::FftwPlan rows_plan;
  if constexpr (N == 2) {
    rows_plan = detail::FftwPlan({{n1, 1}}, {{chunks.rows, n1}}, aligned_input, rows, sign,
                                 flags | FFTW_PRESERVE_INPUT, function);
  } else {
    rows_plan = detail::FftwPlan({{n1, width}, {width, 1}}, {{chunks.rows, n1 * width}}, aligned_input, rows, sign,
                                 flags | FFTW_PRESERVE_INPUT, function);
  }
  // Transforms whose elements lie a page or more apart (3-D, n2 >= 256) are planned as for unaligned
  // data: FFTW_ESTIMATE's plan for aligned ones ran slower (docs/benchmarks.md, "fft").
  const unsigned column_flags = flags | (width * sizeof(C) >= 4096 ? FFTW_UNALIGNED : 0U);
  detail::FftwPlansByAlignment column_plans;
  for (std::size_t tile = 0; tile < tiling.count; ++tile) {
    column_plans.add(slab + tile * tile_size, [&](C* data) {
      return detail::FftwPlan({{n0, width}}, {{tiling.rows, n0 * width}, {width, 1}}, data, data, sign, column_flags,
                              function);
    });
  }

  // 1. The transforms along the last dimension(s) of this unit's slab of in, a chunk of rows at a
  // time, each packed for the transpose while it is cached. The piece for unit v, tile t: this
  // unit's in_rows rows of the tile's tiling.rows columns (of `width` elements each) among v's
  // columns. The other units' pieces go to the send buffer, packed by unit without this one; this
  // unit's own piece to the free end of the receive buffer, from which it is placed with the rest
  // of each tile (no copy through the exchange). The plan reads in directly where in is aligned
  // like the buffer the plan was made for.
  const std::size_t piece_row = tiling.rows * width;
  const auto slot = [me](std::size_t unit) { return unit < me ? unit : unit - 1; };
  const std::size_t exchanged = local - piece;
  C* const own_piece = receive.data() + exchanged;
  for (std::size_t chunk = 0; chunk < chunks.count; ++chunk) {
    C* input = in.lbegin() + chunk * chunk_size;
    if (detail::fftw_alignment(input) != rows_plan.alignment()) {
      std::copy_n(input, chunk_size, aligned_input);
      input = aligned_input;
    }
    rows_plan.execute(input, rows);
    for (std::size_t unit = 0; unit < units; ++unit) {
      for (std::size_t tile = 0; tile < tiling.count; ++tile) {
        const C* const from = rows + (unit * out_rows + tile * tiling.rows) * width;
        C* const to = (unit == me ? own_piece : send.data() + slot(unit) * piece) +
                      (tile * in_rows + chunk * chunks.rows) * piece_row;
        for (std::size_t row = 0; row < chunks.rows; ++row) {
          std::copy_n(from + row * n1 * width, piece_row, to + row * piece_row);
        }
      }
    }
  }

  // 2. The transpose of the other units' pieces.
  comm::Options by_tiles;
  by_tiles.segments = static_cast<std::uint32_t>(tiling.count);
  std::vector<std::size_t> counts(units, piece);
  counts[me] = 0;
  auto exchange = comm::ialltoallv(std::span<const C>(send.data(), exchanged), std::span<const std::size_t>(counts),
                                   std::span<C>(receive.data(), exchanged), std::span<const std::size_t>(counts),
                                   in.team().group(), by_tiles);
  const bool scale = direction == FftDirection::inverse && options.normalize_inverse;
  const double factor = 1.0 / static_cast<double>(slabs.elements());
  detail::consume_fft_exchange(
      exchange, units, me, tiling.count, options.partial,
      [&](std::size_t source, std::size_t tile) {
        const C* const piece_start = source == me ? own_piece : receive.data() + slot(source) * piece;
        detail::transpose_block(piece_start + tile * in_rows * piece_row, in_rows, tiling.rows, width,
                                slab + (tile * tiling.rows * n0 + source * in_rows) * width, n0);
      },
      [&](std::size_t tile) {
        C* const data = slab + tile * tile_size;
        column_plans.execute(data);
        if (scale) {
          std::for_each(data, data + tile_size, [factor](C& value) { value *= factor; });
        }
      });
  if (options.layout == FftLayout::transposed) {
    return;
  }

  // 3. FftLayout::normal: transpose back. The piece for unit u: for each of this unit's out_rows
  // rows, u's in_rows positions along n0 (of `width` elements each).
  const std::size_t back_row = in_rows * width;
  for (std::size_t unit = 0; unit < units; ++unit) {
    for (std::size_t row = 0; row < out_rows; ++row) {
      std::copy_n(slab + (row * n0 + unit * in_rows) * width, back_row, send.data() + unit * piece + row * back_row);
    }
  }
  comm::Options whole_pieces;
  whole_pieces.segments = 1;
  auto back = comm::ialltoall(std::span<const C>(send.data(), local), std::span<C>(receive.data(), local),
                              in.team().group(), whole_pieces);
  detail::consume_fft_exchange(
      back, units, units, 1, options.partial,
      [&](std::size_t source, std::size_t) {
        detail::transpose_block(receive.data() + source * piece, out_rows, in_rows, width,
                                slab + source * out_rows * width, n1);
      },
      [](std::size_t) {});
}

}  // namespace dash
