#pragma once
// An RMA window whose members on the same node also reach each other's memory by load/store.
//
// Each member's memory comes from MPI_Win_allocate_shared on the node's part of the communicator
// (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED); a second window over the whole communicator,
// MPI_Win_create on that same memory, serves one-sided access to members on other nodes and every
// atomic operation. Both windows are locked for shared access (MPI_Win_lock_all) for their whole
// life, so callers complete operations with flush(), never with epochs.
//
// Construction and destruction are collective over the communicator. Cost: two windows and one
// node communicator per object, plus one pointer per member of the communicator.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <mpi.h>

namespace dash::comm {

class NodeWindow {
public:
  // Collective: every member of `comm` contributes `local_bytes` (members may differ).
  // With direct_access == false the node-local pointers are withheld (peer() returns nullptr for
  // everyone but the caller), so all access to others goes through RMA: for testing that path on
  // a single node.
  NodeWindow(MPI_Comm comm, std::size_t local_bytes, bool direct_access = true);
  // Collective: frees both windows (after MPI_Win_unlock_all) and the node communicator.
  ~NodeWindow();
  NodeWindow(const NodeWindow&) = delete;
  NodeWindow& operator=(const NodeWindow&) = delete;

  // The caller's memory.
  std::span<std::byte> local() const noexcept { return {local_, local_bytes_}; }
  // Member `rank`'s memory when the caller may load/store it directly (same node), else nullptr.
  std::byte* peer(int rank) const noexcept { return peers_[static_cast<std::size_t>(rank)]; }
  // The window over the whole communicator, displacement unit 1 byte; ranks are the
  // communicator's. MPI_ERRORS_RETURN is set on it.
  MPI_Win rma() const noexcept { return rma_; }
  int size() const noexcept { return static_cast<int>(peers_.size()); }

  // Completes this process's RMA operations to `rank` (or to everyone) at the target.
  void flush(int rank) const;
  void flush_all() const;
  // Memory barrier between direct load/store and RMA views of the caller's memory (MPI_Win_sync);
  // call before and after the synchronisation that orders them (e.g. a barrier).
  void sync() const;

private:
  void open(MPI_Comm comm, bool direct_access);
  void remember_members(const std::vector<int>& node_members);
  void release() noexcept;

  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win shared_ = MPI_WIN_NULL;
  MPI_Win rma_ = MPI_WIN_NULL;
  std::byte* local_ = nullptr;
  std::size_t local_bytes_ = 0;
  std::vector<std::byte*> peers_;
  bool locked_shared_ = false;
  bool locked_rma_ = false;
  std::uint64_t mapped_key_ = 0;  // detail::remember_mapped's key for the members' memory, or 0
};

}  // namespace dash::comm
