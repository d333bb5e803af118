#pragma once
// The stages of dash::matvec's pipeline on a process grid: how a unit's rows are cut so that the
// reduction of y along the grid row starts before the whole local product is done.
//
// A unit of a q0 x q1 grid holds `rows` rows of its row block; the reduce-scatter along its grid
// row hands segment s of them (near-equal, s * rows / q1 onwards) to grid column s. Each segment
// is cut into `count` near-equal pieces; stage k is piece k of every segment, so each stage is a
// reduce-scatter of its own, with one piece per member, and the units of a grid row (which hold
// the same rows) agree on every cut without talking.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace dash::detail {

struct MatvecStages {
  // Pieces of fewer rows than this are not worth a reduce-scatter of their own, and more stages
  // than `max_count` add per-call costs without hiding more: the last stage's reduction is what
  // stays exposed, 1 / count of the whole.
  static constexpr std::size_t min_automatic_rows = 1024;
  static constexpr std::size_t max_count = 8;

  std::size_t rows = 0;
  std::size_t segments = 1;
  std::size_t count = 1;

  // `piece_rows` rows per piece (0: automatic). One stage when there is nothing to reduce
  // (one grid column) or no rows.
  static MatvecStages plan(std::size_t rows, std::size_t segments, std::size_t piece_rows) {
    MatvecStages stages{rows, segments, 1};
    const std::size_t shortest = rows / segments;  // the shortest segment
    if (segments > 1 && shortest > 0) {
      stages.count = piece_rows > 0 ? (shortest + piece_rows - 1) / piece_rows
                                    : std::clamp<std::size_t>(shortest / min_automatic_rows, 1, max_count);
    }
    return stages;
  }

  std::size_t segment_begin(std::size_t segment) const { return segment * rows / segments; }

  // The first row of piece `stage` of `segment`; piece_begin(segment, count) ends the segment.
  std::size_t piece_begin(std::size_t segment, std::size_t stage) const {
    const std::size_t begin = segment_begin(segment);
    return begin + stage * (segment_begin(segment + 1) - begin) / count;
  }

  std::size_t piece_rows(std::size_t segment, std::size_t stage) const {
    return piece_begin(segment, stage + 1) - piece_begin(segment, stage);
  }

  // The reduce-scatter counts of `stage`: one piece per segment, in segment order.
  std::vector<std::size_t> counts(std::size_t stage) const {
    std::vector<std::size_t> pieces(segments);
    for (std::size_t segment = 0; segment < segments; ++segment) {
      pieces[segment] = piece_rows(segment, stage);
    }
    return pieces;
  }
};

}  // namespace dash::detail
