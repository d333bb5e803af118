#include <cstdint>
#include <utility>

#include <dash/comm/detail/mapped_memory.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/node_window.hpp>

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

// Members may ask for different sizes, so one member's size alone cannot decide: each checks the
// largest, and all throw together rather than leave the others waiting in the collective allocation.
void check_sizes_agree(MPI_Comm comm, std::size_t local_bytes) {
  const std::uint64_t own = local_bytes;
  std::uint64_t largest = 0;
  check_mpi(MPI_Allreduce(&own, &largest, 1, MPI_UINT64_T, MPI_MAX, comm), "dash::comm::NodeWindow: MPI_Allreduce");
  if (largest > largest_local_bytes) {
    throw OutOfRange("dash::comm::NodeWindow: local_bytes " + std::to_string(largest) +
                     (own == largest ? "" : " (of another member)") +
                     " exceeds the largest window size MPI can address, " + std::to_string(largest_local_bytes));
  }
}

}  // namespace

NodeWindow::NodeWindow(MPI_Comm comm, std::size_t local_bytes, bool direct_access) : local_bytes_(local_bytes) {
  try {
    open(comm, direct_access);
  } catch (...) {
    release();  // a failed construction leaves no window or communicator behind
    throw;
  }
}

void NodeWindow::open(MPI_Comm comm, bool direct_access) {
  const std::size_t local_bytes = local_bytes_;
  int rank = 0;
  int size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "dash::comm::NodeWindow: MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "dash::comm::NodeWindow: MPI_Comm_size");
  check_sizes_agree(comm, local_bytes);
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_),
            "dash::comm::NodeWindow: MPI_Comm_split_type");
  check_mpi(MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN), "dash::comm::NodeWindow: MPI_Comm_set_errhandler");

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
  check_mpi(allocated, "dash::comm::NodeWindow: MPI_Win_allocate_shared");
  local_ = aligned(base);
  check_mpi(MPI_Win_set_errhandler(shared_, MPI_ERRORS_RETURN), "dash::comm::NodeWindow: MPI_Win_set_errhandler");
  check_mpi(MPI_Win_create(local_, rma_bytes, 1, MPI_INFO_NULL, comm, &rma_),
            "dash::comm::NodeWindow: MPI_Win_create");
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
// (detail/mapped_memory.hpp): each member's process id and address in its own address space.
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
