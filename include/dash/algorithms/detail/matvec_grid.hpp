#pragma once
// dash::matvec for a matrix on a 2-D process grid (Kowalewski 2021 Alg. 7, with dash::Array
// vectors), as one pipeline without a blocking collective.
//
// Unit (i, j) of a q0 x q1 grid holds block A_ij: the rows of row block i and the columns of
// column block j. x and y are BLOCKED dash::Arrays on the same team. The unit's rows are cut into
// stages (detail/matvec_stages.hpp: a piece of every one of the q1 segments that the grid row's
// reduce-scatter hands out); stage by stage, the unit
// 1. multiplies the stage's rows of A_ij by x_j. x_j, the part of x its columns need, is read
//    one-sidedly, one piece per owner; the first stage takes each piece the moment it lands;
// 2. starts the stage's reduce-scatter along its grid row (non-blocking) and goes on with the next
//    stage's product, so the reductions run under the products that follow;
// 3. forwards each reduced piece of its segment into y the moment its reduction completes: a local
//    copy where y's block holds those rows, a one-sided put otherwise. Kowalewski 2021's column
//    broadcast, which replicates y_i over grid column i for the next product, is this write: y is an
//    ordinary distributed array, read by step 1 of the next call.
// MatvecOptions::partial = false waits for all of x_j, multiplies all rows, then reduces them in one
// blocking reduce-scatter (the unpipelined form, for measuring).
// Communication per unit: |x_j| elements in, 2 (q1 - 1) / q1 |y_i| through the reduce-scatters.
// The grid row is a team split off A's team for the call (Team::split: a formula, O(1) memory)
// and freed at the end. Starts and ends with a barrier: x is read as every unit left it, and y is
// complete everywhere on return.

#include <cstddef>
#include <span>
#include <vector>

#include <dash/algorithms/copy.hpp>
#include <dash/algorithms/detail/block_product.hpp>
#include <dash/algorithms/detail/matvec_stages.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/reduce_scatter.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/future.hpp>
#include <dash/core/team.hpp>

namespace dash::detail {

// One stage in flight: its rows' partial products (packed by segment), the reduction of them and
// the write of this unit's reduced piece into y (valid once forwarded). Buffers live until the
// write is done.
template <class T>
struct MatvecStage {
  std::vector<T> products;
  std::vector<T> reduced;
  std::size_t y_index = 0;
  comm::Request<T> reduction;
  Future<void> write;
};

template <class T>
void matvec_grid(const Matrix<T, 2>& A, const Array<T>& x, Array<T>& y, bool partial, std::size_t piece_rows) {
  const Pattern<2>& a = A.pattern();
  Team& team = A.team();
  const std::size_t q1 = a.team_spec().extent(1);
  const std::size_t me = static_cast<std::size_t>(team.myid());
  const auto grid = a.team_spec().coords(me);
  const std::size_t my_rows = A.local.extent(0);
  const std::size_t my_cols = A.local.extent(1);
  const std::size_t first_row = grid[0] * a.blocksize(0);  // BLOCKED: block i starts at i * blocksize
  const std::size_t first_col = grid[1] * a.blocksize(1);
  const MatvecStages stages = partial ? MatvecStages::plan(my_rows, q1, piece_rows) : MatvecStages{my_rows, q1, 1};

  team.barrier();  // x as every unit left it
  Team& row = team.split(static_cast<int>(a.team_spec().extent(0)));
  std::vector<T> x_j(my_cols);
  const T* const a_local = A.lbegin();

  struct Piece {
    std::size_t offset;
    std::size_t length;
    Future<void> arrival;
    bool multiplied = false;
  };
  std::vector<Piece> pieces;
  if (my_cols > 0) {  // without columns, first_col may lie beyond x
    x.pattern().for_each_run(first_col, first_col + my_cols, [&](const Run& run) {
      const std::size_t offset = run.global_begin - first_col;
      pieces.push_back(Piece{offset, run.length,
                             copy_async(x.begin() + static_cast<std::ptrdiff_t>(run.global_begin),
                                        x.begin() + static_cast<std::ptrdiff_t>(run.global_begin + run.length),
                                        x_j.data() + offset)});
    });
  }
  if (!partial) {
    for (Piece& piece : pieces) {
      piece.arrival.wait();
    }
  }

  // The stage's rows times columns [offset, offset + width) of A_ij, added into its products.
  const auto multiply = [&](std::size_t stage, std::vector<T>& products, std::size_t offset, std::size_t width) {
    std::size_t packed = 0;
    for (std::size_t segment = 0; segment < q1; ++segment) {
      const std::size_t first = stages.piece_begin(segment, stage);
      const std::size_t count = stages.piece_rows(segment, stage);
      add_block_product(a_local + first * my_cols + offset, count, my_cols, width, x_j.data() + offset,
                        products.data() + packed);
      packed += count;
    }
  };

  std::vector<MatvecStage<T>> running(stages.count);
  const auto forward_if_reduced = [&](MatvecStage<T>& stage, bool block) {
    if (stage.write.valid() || !(block ? (stage.reduction.wait(), true) : stage.reduction.test())) {
      return;
    }
    stage.write = stage.reduced.empty()
                      ? Future<void>::ready()
                      : copy_async(stage.reduced.data(), stage.reduced.data() + stage.reduced.size(),
                                   y.begin() + static_cast<std::ptrdiff_t>(stage.y_index));
  };

  for (std::size_t k = 0; k < stages.count; ++k) {
    MatvecStage<T>& stage = running[k];
    const std::vector<std::size_t> counts = stages.counts(k);
    std::size_t stage_rows = 0;
    for (const std::size_t count : counts) {
      stage_rows += count;
    }
    stage.products.assign(stage_rows, T{});
    if (k == 0) {
      // x_j's pieces in the order they land (all landed already when not partial).
      for (std::size_t remaining = pieces.size(); remaining != 0;) {
        for (Piece& piece : pieces) {
          if (!piece.multiplied && piece.arrival.test()) {
            piece.arrival.wait();  // rethrows a failed transfer
            piece.multiplied = true;
            --remaining;
            multiply(k, stage.products, piece.offset, piece.length);
          }
        }
      }
    } else {
      multiply(k, stage.products, 0, my_cols);
    }
    stage.reduced.resize(counts[grid[1]]);
    stage.y_index = first_row + stages.piece_begin(grid[1], k);
    stage.reduction = comm::ireduce_scatter(stage.products, std::span<const std::size_t>(counts), stage.reduced,
                                            dash::plus{}, row.group());
    for (std::size_t earlier = 0; earlier <= k; ++earlier) {
      forward_if_reduced(running[earlier], false);
    }
  }
  for (MatvecStage<T>& stage : running) {
    forward_if_reduced(stage, true);
  }
  for (MatvecStage<T>& stage : running) {
    stage.write.wait();
  }
  row.free();
  team.barrier();  // every segment in place
}

}  // namespace dash::detail
