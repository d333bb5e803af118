#pragma once
// Internal: the local transposition of a block of vectors, tile by tile so that both sides of each
// tile stay in the L1 cache (the rows of the source and of the target are far apart in memory).

#include <algorithm>
#include <cstddef>

namespace dash::detail {

// dst[(c * dst_stride + r) * width + z] = src[(r * cols + c) * width + z] for every r < rows,
// c < cols, z < width: row r, vector c of the rows x cols source becomes row c, vector r of the
// target, whose rows are dst_stride vectors apart.
template <class T>
void transpose_block(const T* src, std::size_t rows, std::size_t cols, std::size_t width, T* dst,
                     std::size_t dst_stride) {
  // About 32 x 32 elements per tile; wide vectors are long contiguous copies that need no tiling.
  const std::size_t tile = std::max<std::size_t>(1, 32 / width);
  for (std::size_t row_tile = 0; row_tile < rows; row_tile += tile) {
    const std::size_t row_end = std::min(rows, row_tile + tile);
    for (std::size_t col_tile = 0; col_tile < cols; col_tile += tile) {
      const std::size_t col_end = std::min(cols, col_tile + tile);
      for (std::size_t c = col_tile; c < col_end; ++c) {
        T* const target = dst + c * dst_stride * width;
        for (std::size_t r = row_tile; r < row_end; ++r) {
          const T* const from = src + (r * cols + c) * width;
          T* const to = target + r * width;
          for (std::size_t z = 0; z < width; ++z) {
            to[z] = from[z];
          }
        }
      }
    }
  }
}

}  // namespace dash::detail
