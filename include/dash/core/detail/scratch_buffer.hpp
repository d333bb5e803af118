#pragma once
// Uninitialised scratch memory for the sort's passes over all of a unit's elements (the radix sort's
// second buffer, the received runs, the merge's scratch). From 2 MiB up it is backed by transparent
// huge pages where Linux offers them (madvise): such buffers are large and freshly mapped on every
// sort (glibc maps allocations of 32 MiB and more anew each time), and a first touch costs one page
// fault per 4 KiB page otherwise. On the development VM that fault costs about 13 us: 32 MiB took
// 130 ms to touch, 3.5 ms on huge pages (docs/sort.md, "Scratch memory"). Where huge pages are
// not to be had (fragmented memory), the faults return; so freed blocks from 2 MiB up are kept for
// the next request that fits, up to scratch_cache_blocks of them, and a sort that follows another
// finds its buffers mapped.

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace dash::detail {

// Freed blocks of 2 MiB and more kept for reuse; the smallest is freed when one more comes back.
inline constexpr std::size_t scratch_cache_blocks = 4;

// At least `bytes` (a positive number) of memory aligned for any scalar type; from 2 MiB up,
// aligned to 2 MiB and advised for huge pages, a kept block where one fits. Throws std::bad_alloc.
void* allocate_scratch(std::size_t bytes);
// Thread-safe, like allocate_scratch; blocks from 2 MiB up are kept (see scratch_cache_blocks).
void free_scratch(void* memory) noexcept;
// Bytes in the kept blocks, and a way to give them back to the system.
std::size_t cached_scratch_bytes();
void release_cached_scratch() noexcept;

struct ScratchDeleter {
  void operator()(void* memory) const noexcept { free_scratch(memory); }
};

// `count` elements of uninitialised scratch memory (objects of such types begin their lifetime
// when first written).
template <class T>
  requires std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>
std::unique_ptr<T[], ScratchDeleter> make_scratch(std::size_t count) {
  void* memory = allocate_scratch(count == 0 ? 1 : count * sizeof(T));
  return std::unique_ptr<T[], ScratchDeleter>(static_cast<T*>(memory));
}

template <class T>
using Scratch = std::unique_ptr<T[], ScratchDeleter>;

}  // namespace dash::detail
