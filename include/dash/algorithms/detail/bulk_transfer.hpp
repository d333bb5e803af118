#pragma once
// Internal: moving global index ranges of a container to or from local buffers in bulk.
//
// A TransferBatch collects the pieces of one bulk get or put: runs of the container's pattern
// (elements one unit stores consecutively), each with its place in a local buffer. Pieces on units
// the caller can load/store are copied at once. The others are grouped by unit and each unit's pieces
// go out as ONE transfer (GlobalSegment's indexed get/put), so a range of a
// CYCLIC container costs one transfer per unit, not one per element. All transfers are started before
// any is waited for; the caller waits through the returned TransferSet.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include <dash/comm/int_count.hpp>
#include <dash/core/future.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/run.hpp>

namespace dash::detail {

class TransferBatch {
public:
  enum class Direction { get, put };

  TransferBatch(const GlobalSegment& segment, Direction direction) : segment_(&segment), direction_(direction) {}

  // Moves `bytes` between the local buffer at `local` and byte `offset` of `unit`'s memory (into the
  // buffer for a get, out of it for a put). The buffer must stay valid, and for a put unchanged, until
  // the transfers completed.
  void add(int unit, std::size_t offset, const std::byte* local, std::size_t bytes) {
    if (bytes == 0) {
      return;
    }
    if (std::byte* memory = segment_->direct(unit); memory != nullptr) {
      // memmove: the local buffer may be this very memory (a copy within one unit's part, shifted
      // down, as std::copy allows).
      if (direction_ == Direction::get) {
        std::memmove(writable(local), memory + offset, bytes);
      } else {
        std::memmove(memory + offset, local, bytes);
      }
      return;
    }
    if (!pieces_.empty() && continues(pieces_.back(), unit, offset, local)) {
      pieces_.back().bytes += bytes;
    } else {
      pieces_.push_back(Piece{unit, offset, local, bytes});
    }
  }

  // Starts one transfer per unit with pieces (pieces beyond the int count limit go alone, and groups
  // of more pieces than the limit go in chunks).
  TransferSet start() {
    TransferSet transfers;
    std::stable_sort(pieces_.begin(), pieces_.end(), [](const Piece& a, const Piece& b) { return a.unit < b.unit; });
    const auto limit = static_cast<std::size_t>(comm::int_count_limit());
    std::vector<Piece> group;
    for (std::size_t i = 0; i < pieces_.size();) {
      const int unit = pieces_[i].unit;
      group.clear();
      for (; i < pieces_.size() && pieces_[i].unit == unit; ++i) {
        const Piece& piece = pieces_[i];
        if (!group.empty() && continues(group.back(), unit, piece.offset, piece.local)) {
          group.back().bytes += piece.bytes;
        } else {
          group.push_back(piece);
        }
      }
      const auto large = std::stable_partition(group.begin(), group.end(),
                                               [limit](const Piece& piece) { return piece.bytes <= limit; });
      for (auto piece = large; piece != group.end(); ++piece) {
        transfers.add(start_single(*piece));
      }
      for (auto chunk = group.begin(); chunk != large;) {
        const auto chunk_size = std::min(limit, static_cast<std::size_t>(large - chunk));
        const auto chunk_end = chunk + static_cast<std::ptrdiff_t>(chunk_size);
        transfers.add(chunk_end - chunk == 1 ? start_single(*chunk) : start_indexed(unit, chunk, chunk_end));
        chunk = chunk_end;
      }
    }
    pieces_.clear();
    return transfers;
  }

private:
  struct Piece {
    int unit;
    std::size_t offset;
    const std::byte* local;
    std::size_t bytes;
  };

  static bool continues(const Piece& piece, int unit, std::size_t offset, const std::byte* local) {
    return piece.unit == unit && piece.offset + piece.bytes == offset && piece.local + piece.bytes == local;
  }

  // Buffers of gets were handed in writable; add() takes them as const to serve both directions.
  static std::byte* writable(const std::byte* local) { return const_cast<std::byte*>(local); }

  comm::RmaRequest start_single(const Piece& piece) const {
    return direction_ == Direction::get
               ? segment_->start_get(piece.unit, piece.offset, writable(piece.local), piece.bytes)
               : segment_->start_put(piece.unit, piece.offset, piece.local, piece.bytes);
  }

  // One transfer for the pieces [first, last) of `unit` (GlobalSegment's indexed form).
  using PieceIterator = std::vector<Piece>::const_iterator;
  comm::RmaRequest start_indexed(int unit, PieceIterator first, PieceIterator last) const {
    std::vector<comm::RmaPiece> pieces;
    pieces.reserve(static_cast<std::size_t>(last - first));
    for (auto piece = first; piece != last; ++piece) {
      pieces.push_back(comm::RmaPiece{piece->offset, writable(piece->local), piece->bytes});
    }
    return direction_ == Direction::get ? segment_->start_get(unit, pieces) : segment_->start_put(unit, pieces);
  }

  const GlobalSegment* segment_;
  Direction direction_;
  std::vector<Piece> pieces_;
};

// Adds reading container elements [global_begin, global_begin + count) into out[0, count) to `batch`.
template <class V, class PatternT>
void add_read(TransferBatch& batch, const PatternT& pattern, std::size_t global_begin, std::size_t count, V* out) {
  pattern.for_each_run(global_begin, global_begin + count, [&](const Run& run) {
    batch.add(static_cast<int>(run.unit), run.local_begin * sizeof(V),
              reinterpret_cast<const std::byte*>(out + (run.global_begin - global_begin)), run.length * sizeof(V));
  });
}

// Adds writing in[0, count) to container elements [global_begin, global_begin + count) to `batch`.
template <class V, class PatternT>
void add_write(TransferBatch& batch, const PatternT& pattern, std::size_t global_begin, std::size_t count,
               const V* in) {
  pattern.for_each_run(global_begin, global_begin + count, [&](const Run& run) {
    batch.add(static_cast<int>(run.unit), run.local_begin * sizeof(V),
              reinterpret_cast<const std::byte*>(in + (run.global_begin - global_begin)), run.length * sizeof(V));
  });
}

}  // namespace dash::detail
