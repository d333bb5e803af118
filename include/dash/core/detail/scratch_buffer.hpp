#pragma once
// Uninitialised scratch memory for the sort's passes over all of a unit's elements (the radix sort's
// second buffer, the received runs, the merge's scratch). From 2 MiB up it is backed by transparent
// huge pages where Linux offers them (madvise): such buffers are large and freshly mapped on every
// sort (glibc maps allocations of 32 MiB and more anew each time), and a first touch costs one page
// fault per 4 KiB page otherwise. On the development VM that fault costs about 13 us: 32 MiB took
// 130 ms to touch, 3.5 ms on huge pages (docs/sort.md, "Scratch memory").

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace dash::detail {

// At least `bytes` (a positive number) of memory aligned for any scalar type; from 2 MiB up,
// aligned to 2 MiB and advised for huge pages. Throws std::bad_alloc.
void* allocate_scratch(std::size_t bytes);
void free_scratch(void* memory) noexcept;

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
