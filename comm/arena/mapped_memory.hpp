#pragma once
// Internal: the memory of this node's other processes that this process maps too. A NodeWindow's
// members map each other's memory (MPI_Win_allocate_shared), each at its own addresses; they record
// here where every member's memory lies in its owner's address space and where in this one. The
// arena's single-copy paths receive their peers' buffers as addresses in the peer's address space;
// a buffer found here is copied with plain loads and stores instead of process_vm_readv, whose page
// pinning makes a copy far slower than memcpy (docs/collectives.md,
// "Shared-memory collectives": node-shared buffers).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dash::comm::detail {

// One member's memory: `bytes` at `owner_address` in process `owner` (its process id), at `here`
// in this process.
struct MappedRange {
  std::int64_t owner = 0;
  std::uintptr_t owner_address = 0;
  std::size_t bytes = 0;
  std::byte* here = nullptr;
};

// This process's id as the arena and the kernel know it (Linux: getpid; elsewhere 0, and nothing
// is ever found).
std::int64_t this_process_id() noexcept;

// Records one window until forget_mapped(key) with the key returned: the process ids of its
// members, each of which maps every member's memory, and the ranges of that memory (this process's
// own included, at its own address). Thread-safe.
std::uint64_t remember_mapped(std::vector<std::int64_t> members, std::vector<MappedRange> ranges);
void forget_mapped(std::uint64_t key) noexcept;

// Where the `bytes` at `address` in process `owner`'s address space are mapped in this process, or
// null unless one recorded range holds all of them.
std::byte* mapped_here(std::int64_t owner, const void* address, std::size_t bytes) noexcept;

// Whether the `bytes` at `address` of this process's memory lie in one recorded window of which
// every process in `processes` is a member, so that each of them can copy them with plain loads.
bool mapped_by_all(const void* address, std::size_t bytes, const std::vector<std::int64_t>& processes) noexcept;

}  // namespace dash::comm::detail
