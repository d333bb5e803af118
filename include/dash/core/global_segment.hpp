#pragma once
// dash::GlobalSegment: memory that every member of a team allocates together and every member
// can read and write (docs/design.md §3, global memory).
//
// Members on the same node reach each other's part by load/store (an MPI-3 shared-memory window);
// the others through one-sided operations on a window over the team's MPI communicator, which the
// team creates on first use (Team::mpi_comm). dash::comm::NodeWindow holds both windows and offers
// the operations.
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

#include <dash/comm/node_window.hpp>
#include <dash/core/team.hpp>

namespace dash {

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
  // `in` must stay valid until the request completed (RmaRequest::test or wait).
  comm::RmaRequest start_get(int unit, std::size_t offset, void* out, std::size_t bytes) const;
  comm::RmaRequest start_put(int unit, std::size_t offset, const void* in, std::size_t bytes) const;
  // One transfer for many pieces of one unit's memory (indexed datatypes on both sides): what bulk
  // copies of non-contiguous ranges use, so that they cost one operation per unit, not per piece.
  // At most int_count_limit() pieces of at most int_count_limit() bytes each.
  comm::RmaRequest start_get(int unit, std::span<const comm::RmaPiece> pieces) const;
  comm::RmaRequest start_put(int unit, std::span<const comm::RmaPiece> pieces) const;

  // The window, for RMA atomics (dash::Atomic); offsets in bytes, ranks are team ranks.
  const comm::NodeWindow& window() const noexcept { return *window_; }

  // Collective: every member's earlier writes to the segment are visible to every member after it.
  void barrier() const;

private:
  Team* team_;
  int myid_;
  std::unique_ptr<comm::NodeWindow> window_;
  std::vector<std::size_t> part_bytes_;  // every member's part, by team rank
};

}  // namespace dash
