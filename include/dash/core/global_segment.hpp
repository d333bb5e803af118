#pragma once
// dash::GlobalSegment: memory that every member of a team allocates together and every member
// can read and write (docs/design.md §3, global memory).
//
// Members on the same node reach each other's part by load/store (an MPI-3 shared-memory window);
// the others through RMA on a window over the team's MPI communicator, which the team creates on
// first use (Team::mpi_comm). dash::comm::NodeWindow holds both windows.
//
// Construction and destruction are collective over the team: every member, in the same order.
// A segment must be destroyed before its team is freed.
//
// Every read and write is checked against the size of the target unit's part (always, not only in
// debug builds): an access past its end throws dash::OutOfRange instead of touching another unit's
// memory or failing inside MPI.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <mpi.h>

#include <dash/comm/message_count.hpp>
#include <dash/comm/node_window.hpp>
#include <dash/core/team.hpp>

namespace dash {

// One pending one-sided operation: completes when its request has and the target has it.
struct PendingTransfer {
  MPI_Request request = MPI_REQUEST_NULL;
  int unit = -1;  // whose memory; flushed on completion so that puts are visible there
  std::unique_ptr<comm::MessageCount> count;  // a derived datatype must outlive the request
};

// A piece of a scattered transfer: `bytes` at byte `offset` of the target unit's memory, to or from
// the caller's buffer at `local`.
struct TransferPiece {
  std::size_t offset = 0;
  std::byte* local = nullptr;
  std::size_t bytes = 0;
};

class GlobalSegment {
public:
  // Collective over `team`: the caller contributes `local_bytes` (members may differ).
  // Throws dash::InvalidArgument when the caller is not a member of `team`.
  GlobalSegment(Team& team, std::size_t local_bytes);
  // Collective over the team.
  ~GlobalSegment();
  GlobalSegment(const GlobalSegment&) = delete;
  GlobalSegment& operator=(const GlobalSegment&) = delete;

  Team& team() const noexcept { return *team_; }
  int myid() const noexcept { return myid_; }
  std::span<std::byte> local() const noexcept { return window_->local(); }
  // Unit `unit`'s memory when the caller can load/store it (itself or a member on its node, unless
  // DASH_SHARED_MEMORY=0), else nullptr.
  std::byte* direct(int unit) const noexcept { return window_->peer(unit); }
  // The size in bytes of unit `unit`'s part (what it contributed to the allocation).
  std::size_t part_bytes(int unit) const;
  // Throws dash::OutOfRange naming `function`, the unit, the offset and the part's size unless
  // `unit` is a member and `bytes` at byte `offset` lie within its part. The accessors below call
  // it; callers that use window() directly (dash::Atomic) call it themselves.
  void require_in_part(int unit, std::size_t offset, std::size_t bytes, const char* function) const;

  // Blocking reads and writes of `bytes` at byte offset `offset` of unit `unit`'s memory. A put
  // has completed at the target when it returns.
  void get(int unit, std::size_t offset, void* out, std::size_t bytes) const;
  void put(int unit, std::size_t offset, const void* in, std::size_t bytes) const;
  // Non-blocking forms for units the caller cannot load/store (direct(unit) == nullptr); `out` /
  // `in` must stay valid until complete() returned.
  PendingTransfer start_get(int unit, std::size_t offset, void* out, std::size_t bytes) const;
  PendingTransfer start_put(int unit, std::size_t offset, const void* in, std::size_t bytes) const;
  // One transfer for many pieces of one unit's memory (indexed datatypes on both sides): what bulk
  // copies of non-contiguous ranges use, so that they cost one operation per unit, not per piece.
  // At most int_count_limit() pieces of at most int_count_limit() bytes each.
  PendingTransfer start_get(int unit, std::span<const TransferPiece> pieces) const;
  PendingTransfer start_put(int unit, std::span<const TransferPiece> pieces) const;
  // True when `transfer` has completed (and then releases it); wait_for blocks until it has.
  bool test(PendingTransfer& transfer) const;
  void wait_for(PendingTransfer& transfer) const;

  // The window for RMA atomics; displacements in bytes, ranks are team ranks.
  MPI_Win window() const noexcept { return window_->rma(); }
  void flush(int unit) const { window_->flush(unit); }

  // Collective: every member's earlier writes to the segment are visible to every member after it.
  void barrier() const;

private:
  Team* team_;
  int myid_;
  std::unique_ptr<comm::NodeWindow> window_;
  std::vector<std::size_t> part_bytes_;  // every member's part, by team rank
};

}  // namespace dash
