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
//
// The one-sided operations (the layers above call no MPI): transfers through the RMA window with a
// request each (RmaRequest), for one range or for many pieces of one member's memory at once, and
// atomics on one element, complete at the target when they return. Ranks are the communicator's,
// offsets bytes into the member's memory; `function` names the caller in errors.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <mpi.h>

#include <dash/comm/mpi_datatype.hpp>
#include <dash/comm/rma_request.hpp>

namespace dash::comm {

// A piece of a scattered transfer: `bytes` at byte `offset` of the target member's memory, to or
// from the caller's buffer at `local`.
struct RmaPiece {
  std::size_t offset = 0;
  std::byte* local = nullptr;
  std::size_t bytes = 0;
};

// The operations of NodeWindow::fetch_and_op (MPI's predefined operations of these names).
enum class AtomicOp { no_op, replace, sum, bit_and, bit_or, bit_xor };

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

  // `bytes` at byte `offset` of member `rank`'s memory, through the RMA window; the buffer must
  // stay valid until the request completed. Any size (MessageCount).
  RmaRequest start_get(int rank, std::size_t offset, void* out, std::size_t bytes, std::string_view function) const;
  RmaRequest start_put(int rank, std::size_t offset, const void* in, std::size_t bytes,
                       std::string_view function) const;
  // One transfer for many pieces of `rank`'s memory (indexed datatypes on both sides): one
  // operation per member, not per piece. At most int_count_limit() pieces of at most
  // int_count_limit() bytes each.
  RmaRequest start_get(int rank, std::span<const RmaPiece> pieces, std::string_view function) const;
  RmaRequest start_put(int rank, std::span<const RmaPiece> pieces, std::string_view function) const;

  // Atomics on the element of type T at byte `offset` of `rank`'s memory, atomic against every
  // other atomic on it, and complete at the target when they return (flushed).
  // fetch_and_op combines `operand` into the element and returns what it held.
  template <MpiArithmetic T>
  T fetch_and_op(int rank, std::size_t offset, T operand, AtomicOp op, std::string_view function) const {
    T previous{};
    fetch_and_op_bytes(rank, offset, &operand, &previous, mpi_datatype<T>(), op, function);
    return previous;
  }
  template <MpiArithmetic T>
  void atomic_store(int rank, std::size_t offset, T value, std::string_view function) const {
    atomic_store_bytes(rank, offset, &value, mpi_datatype<T>(), function);
  }
  // Replaces the element with `desired` if its bits equal `expected`'s; returns what it held.
  template <std::unsigned_integral T>
  T compare_and_swap(int rank, std::size_t offset, T desired, T expected, std::string_view function) const {
    T found{};
    compare_and_swap_bytes(rank, offset, &desired, &expected, &found, mpi_datatype<T>(), function);
    return found;
  }

private:
  void fetch_and_op_bytes(int rank, std::size_t offset, const void* operand, void* previous, MPI_Datatype type,
                          AtomicOp op, std::string_view function) const;
  void atomic_store_bytes(int rank, std::size_t offset, const void* value, MPI_Datatype type,
                          std::string_view function) const;
  void compare_and_swap_bytes(int rank, std::size_t offset, const void* desired, const void* expected, void* found,
                              MPI_Datatype type, std::string_view function) const;

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
