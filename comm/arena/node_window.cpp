#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include <sys/sysinfo.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/node_window.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/mapped_memory.hpp"
#include "runtime/collective_outcome.hpp"

namespace dash::comm {

namespace {

// Where each member's memory starts: a cache line, as SIMD loads and FFTW's aligned plans want.
// Open MPI starts the segments of a non-contiguous shared window 8 bytes past one (264 bytes past a
// page here), so every FFT of a dash::Matrix copied its input to aligned scratch first.
constexpr std::uintptr_t memory_alignment = 64;

std::byte* aligned(void* base) {
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  return reinterpret_cast<std::byte*>((address + memory_alignment - 1) / memory_alignment * memory_alignment);
}

// The most bytes a member may ask for: the window holds them plus the room to align their start.
constexpr std::size_t largest_local_bytes = static_cast<std::size_t>(INTPTR_MAX) - (memory_alignment - 1);

// The node's memory and swap: what its members' parts together can ever be backed by. MPI grants
// larger shared windows (their pages are mapped on first touch), and some MPI libraries then fail
// to register them for RMA on one member only, which leaves the others inside MPI_Win_create.
std::uint64_t node_memory_bytes() {
  struct sysinfo machine {};
  if (sysinfo(&machine) != 0) {
    return UINT64_MAX;
  }
  return (static_cast<std::uint64_t>(machine.totalram) + machine.totalswap) * machine.mem_unit;
}

// Collective over `comm`. Members may ask for different sizes, so one member's size alone cannot
// decide: each learns the largest part and whether some node's parts together exceed its memory,
// and all throw together rather than leave the others waiting in the collective allocation.
void check_sizes(MPI_Comm comm, MPI_Comm node, std::size_t local_bytes) {
  // Summed as doubles: parts near 2^63 bytes would wrap as integers.
  const double own_bytes = static_cast<double>(local_bytes);
  double node_bytes = 0;
  check_mpi(MPI_Allreduce(&own_bytes, &node_bytes, 1, MPI_DOUBLE, MPI_SUM, node), "dash::comm::NodeWindow: MPI_Allreduce");
  const std::uint64_t node_memory = node_memory_bytes();
  const std::int64_t node_too_small = node_bytes > static_cast<double>(node_memory) ? 1 : 0;
  // Signed and capped: Debian's MPICH 4.0.2 compares unsigned 64-bit integers as signed in
  // MPI_MAX, and any part beyond INT64_MAX is too large alike.
  const std::array<std::int64_t, 2> own{
      static_cast<std::int64_t>(std::min<std::size_t>(local_bytes, INT64_MAX)), node_too_small};
  std::array<std::int64_t, 2> largest{};
  check_mpi(MPI_Allreduce(own.data(), largest.data(), 2, MPI_INT64_T, MPI_MAX, comm),
            "dash::comm::NodeWindow: MPI_Allreduce");
  if (static_cast<std::size_t>(largest[0]) > largest_local_bytes) {
    const bool mine = own[0] == largest[0];
    throw OutOfRange("dash::comm::NodeWindow: local_bytes " +
                     (mine ? std::to_string(local_bytes) : std::to_string(largest[0]) + " or more (of another member)") +
                     " exceeds the largest window size MPI can address, " + std::to_string(largest_local_bytes));
  }
  if (largest[1] == 0) {
    return;
  }
  if (node_too_small == 0) {
    throw BadAlloc("dash::comm::NodeWindow: the members on another node ask for more memory together than that "
                   "node's memory and swap hold; every member unwinds");
  }
  std::array<char, 32> total{};
  std::snprintf(total.data(), total.size(), "%.4g", node_bytes);
  throw BadAlloc("dash::comm::NodeWindow: the members on this node ask for " + std::string(total.data()) +
                 " bytes together (this member " + std::to_string(local_bytes) +
                 "), more than the node's memory and swap, " + std::to_string(node_memory) + " bytes");
}

}  // namespace

NodeWindow::NodeWindow(MPI_Comm comm, std::size_t local_bytes, bool direct_access) : local_bytes_(local_bytes) {
  try {
    open(comm, direct_access);
  } catch ([[maybe_unused]] const MpiError& error) {  // used with Open MPI 4 only
    release();  // a failed construction leaves no window or communicator behind
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    if (provided_thread_level() == ThreadLevel::multiple) {
      throw InvalidState(std::string(error.what()) +
                         " (Open MPI 4 has no correct one-sided component for windows under MPI_THREAD_MULTIPLE, "
                         "which DASH_PROGRESS_THREAD=1 needs; see docs/configuration.md)");
    }
#endif
    throw;
  } catch (...) {
    release();
    throw;
  }
}

void NodeWindow::open(MPI_Comm comm, bool direct_access) {
  const std::size_t local_bytes = local_bytes_;
  int rank = 0;
  int size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "dash::comm::NodeWindow: MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "dash::comm::NodeWindow: MPI_Comm_size");
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_),
            "dash::comm::NodeWindow: MPI_Comm_split_type");
  check_mpi(MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN), "dash::comm::NodeWindow: MPI_Comm_set_errhandler");
  check_sizes(comm, node_, local_bytes);

  // Each member's memory on its own pages (NUMA first touch by its owner), not one block.
  MPI_Info info = MPI_INFO_NULL;
  check_mpi(MPI_Info_create(&info), "dash::comm::NodeWindow: MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  // Room to start on an aligned address. Shared memory is mapped page by page, so an address's
  // offset within its page, and thus the aligned start, is the same in every process.
  const auto rma_bytes = static_cast<MPI_Aint>(local_bytes);
  void* base = nullptr;
  const auto shared_bytes = static_cast<MPI_Aint>(local_bytes + memory_alignment - 1);
  const int allocated =
      MPI_Win_allocate_shared(shared_bytes, 1, info, node_, static_cast<void*>(&base), &shared_);
  MPI_Info_free(&info);
  if (!detail::succeeded_on_every_member(allocated, comm)) {
    // Freeing is collective over the node: where a member of it holds no window, the others
    // abandon theirs (a leak, not a hang).
    if (!detail::succeeded_on_every_member(allocated, node_)) {
      shared_ = MPI_WIN_NULL;
    }
    detail::throw_failed_on_some_member(allocated, "dash::comm::NodeWindow: MPI_Win_allocate_shared");
  }
  local_ = aligned(base);
  check_mpi(MPI_Win_set_errhandler(shared_, MPI_ERRORS_RETURN), "dash::comm::NodeWindow: MPI_Win_set_errhandler");
  // No agreement can follow MPI_Win_create: a member whose registration of its memory fails
  // returns at once, while the others stay inside the call (MPICH 4.0), and a collective call on
  // `comm` would match the call's own internal messages. check_sizes keeps the sizes that fail
  // there (beyond the node's memory) from reaching it.
  check_mpi(MPI_Win_create(local_, rma_bytes, 1, MPI_INFO_NULL, comm, &rma_), "dash::comm::NodeWindow: MPI_Win_create");
  check_mpi(MPI_Win_set_errhandler(rma_, MPI_ERRORS_RETURN), "dash::comm::NodeWindow: MPI_Win_set_errhandler");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, shared_), "dash::comm::NodeWindow: MPI_Win_lock_all");
  locked_shared_ = true;
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, rma_), "dash::comm::NodeWindow: MPI_Win_lock_all");
  locked_rma_ = true;

  // Which members share the node: each node member's rank in `comm`, then its base address.
  int node_size = 0;
  check_mpi(MPI_Comm_size(node_, &node_size), "dash::comm::NodeWindow: MPI_Comm_size");
  std::vector<int> node_members(static_cast<std::size_t>(node_size));
  check_mpi(MPI_Allgather(&rank, 1, MPI_INT, node_members.data(), 1, MPI_INT, node_),
            "dash::comm::NodeWindow: MPI_Allgather");
  peers_.assign(static_cast<std::size_t>(size), nullptr);
  peers_[static_cast<std::size_t>(rank)] = local_;
  if (!direct_access) {
    return;
  }
  for (int node_rank = 0; node_rank < node_size; ++node_rank) {
    MPI_Aint bytes = 0;
    int unit = 0;
    void* peer_base = nullptr;
    check_mpi(MPI_Win_shared_query(shared_, node_rank, &bytes, &unit, &peer_base),
              "dash::comm::NodeWindow: MPI_Win_shared_query");
    peers_[static_cast<std::size_t>(node_members[static_cast<std::size_t>(node_rank)])] = aligned(peer_base);
  }
  remember_members(node_members);
}

// Lets the node's collectives copy from and to this window's memory with plain loads and stores
// (arena/mapped_memory.hpp): each member's process id and address in its own address space.
void NodeWindow::remember_members(const std::vector<int>& node_members) {
  const std::uint64_t mine[3] = {static_cast<std::uint64_t>(detail::this_process_id()),
                                 reinterpret_cast<std::uintptr_t>(local_), local_bytes_};
  std::vector<std::uint64_t> all(3 * node_members.size());
  check_mpi(MPI_Allgather(mine, 3, MPI_UINT64_T, all.data(), 3, MPI_UINT64_T, node_),
            "dash::comm::NodeWindow: MPI_Allgather");
  std::vector<std::int64_t> members;
  std::vector<detail::MappedRange> ranges;
  for (std::size_t node_rank = 0; node_rank < node_members.size(); ++node_rank) {
    const std::uint64_t* member = all.data() + 3 * node_rank;
    members.push_back(static_cast<std::int64_t>(member[0]));
    if (member[2] > 0) {
      ranges.push_back({static_cast<std::int64_t>(member[0]), static_cast<std::uintptr_t>(member[1]),
                        static_cast<std::size_t>(member[2]), peers_[static_cast<std::size_t>(node_members[node_rank])]});
    }
  }
  if (!ranges.empty()) {
    mapped_key_ = detail::remember_mapped(std::move(members), std::move(ranges));
  }
}

NodeWindow::~NodeWindow() { release(); }

void NodeWindow::release() noexcept {
  if (mapped_key_ != 0) {
    detail::forget_mapped(mapped_key_);
    mapped_key_ = 0;
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized != 0) {
    return;
  }
  if (rma_ != MPI_WIN_NULL) {
    if (locked_rma_) {
      MPI_Win_unlock_all(rma_);
    }
    MPI_Win_free(&rma_);
  }
  if (shared_ != MPI_WIN_NULL) {
    if (locked_shared_) {
      MPI_Win_unlock_all(shared_);
    }
    MPI_Win_free(&shared_);
  }
  if (node_ != MPI_COMM_NULL) {
    MPI_Comm_free(&node_);
  }
}

void NodeWindow::flush(int rank) const { check_mpi(MPI_Win_flush(rank, rma_), "dash::comm::NodeWindow: MPI_Win_flush"); }

void NodeWindow::flush_all() const { check_mpi(MPI_Win_flush_all(rma_), "dash::comm::NodeWindow: MPI_Win_flush_all"); }

void NodeWindow::sync() const {
  check_mpi(MPI_Win_sync(shared_), "dash::comm::NodeWindow: MPI_Win_sync");
  check_mpi(MPI_Win_sync(rma_), "dash::comm::NodeWindow: MPI_Win_sync");
}

}  // namespace dash::comm
