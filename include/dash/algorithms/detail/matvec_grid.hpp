#pragma once
// dash::matvec for a matrix on a 2-D process grid (Kowalewski 2021 Alg. 7, with dash::Array
// vectors).
//
// Unit (i, j) of a q0 x q1 grid holds block A_ij: the rows of row block i and the columns of
// column block j. x and y are BLOCKED dash::Arrays on the same team. The unit
// 1. reads x_j, the part of x its columns need, one-sidedly, one piece per owner, and multiplies
//    each piece into y_i^(j) = A_ij x_j the moment it lands (partial; MatvecOptions::partial =
//    false waits for all of x_j first);
// 2. reduces y_i = sum over j of y_i^(j) across its grid row with a reduce-scatter (q1 segments
//    of row block i, segment s to unit (i, s));
// 3. writes its reduced segment into y, which is a local copy when the grid rows line up with
//    y's blocks (row count divisible by the number of units), a one-sided put otherwise.
// Kowalewski 2021's column broadcast, which replicates y_i over grid column i for the next product,
// becomes step 1 of the next call: y is an ordinary distributed array.
// Communication per unit: |x_j| elements in, 2 (q1 - 1) / q1 |y_i| through the reduce-scatter.
// The grid row is a team split off A's team for the call (Team::split: a formula, O(1) memory)
// and freed at the end. Starts and ends with a barrier: x is read as every unit left it, and y is
// complete everywhere on return.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include <dash/algorithms/copy.hpp>
#include <dash/algorithms/detail/block_product.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/reduce_scatter.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/future.hpp>
#include <dash/core/team.hpp>

namespace dash::detail {

template <class T>
void matvec_grid(const Matrix<T, 2>& A, const Array<T>& x, Array<T>& y, bool partial) {
  const Pattern<2>& a = A.pattern();
  Team& team = A.team();
  const std::size_t q1 = a.team_spec().extent(1);
  const std::size_t me = static_cast<std::size_t>(team.myid());
  const auto grid = a.team_spec().coords(me);
  const std::size_t my_rows = A.local.extent(0);
  const std::size_t my_cols = A.local.extent(1);
  const std::size_t first_row = grid[0] * a.blocksize(0);  // BLOCKED: block i starts at i * blocksize
  const std::size_t first_col = grid[1] * a.blocksize(1);

  team.barrier();  // x as every unit left it
  std::vector<T> partial_y(my_rows, T{});
  std::vector<T> x_j(my_cols);
  const T* const a_local = A.lbegin();
  if (my_cols > 0) {
    struct Piece {
      std::size_t offset;
      std::size_t length;
      Future<void> arrival;
    };
    std::vector<Piece> pieces;
    x.pattern().for_each_run(first_col, first_col + my_cols, [&](const Run& run) {
      const std::size_t offset = run.global_begin - first_col;
      pieces.push_back(Piece{offset, run.length,
                             copy_async(x.begin() + static_cast<std::ptrdiff_t>(run.global_begin),
                                        x.begin() + static_cast<std::ptrdiff_t>(run.global_begin + run.length),
                                        x_j.data() + offset)});
    });
    std::size_t remaining = pieces.size();
    std::vector<bool> done(pieces.size(), false);
    while (remaining != 0) {
      for (std::size_t p = 0; p < pieces.size(); ++p) {
        if (done[p] || !(partial ? pieces[p].arrival.test() : (pieces[p].arrival.wait(), true))) {
          continue;
        }
        done[p] = true;
        --remaining;
        add_block_product(a_local + pieces[p].offset, my_rows, my_cols, pieces[p].length,
                          x_j.data() + pieces[p].offset, partial_y.data());
      }
    }
  }

  // Row block i in q1 near-equal segments; segment s goes to grid column s.
  Team& row = team.split(static_cast<int>(a.team_spec().extent(0)));
  std::vector<std::size_t> counts(q1);
  for (std::size_t s = 0; s < q1; ++s) {
    counts[s] = (s + 1) * my_rows / q1 - s * my_rows / q1;
  }
  std::vector<T> segment(counts[grid[1]]);
  comm::reduce_scatter(partial_y, std::span<const std::size_t>(counts), segment, dash::plus{}, row.group());
  row.free();
  if (!segment.empty()) {
    const std::size_t at = first_row + grid[1] * my_rows / q1;
    copy(segment.data(), segment.data() + segment.size(), y.begin() + static_cast<std::ptrdiff_t>(at));
  }
  team.barrier();  // every segment in place
}

}  // namespace dash::detail
