#pragma once
// Copies of the arena's chunks that avoid a slow case of the C library's memcpy. glibc before 2.39
// copies 2 KiB and more with `rep movsb`, which AMD Zen 3 and 4 run many times slower when the
// destination lies a few bytes past the source modulo the 4 KiB page (glibc bug 30994; measured in
// docs/collectives.md, "Shared-memory collectives": copies in and out of slots). A slot's data
// starts 8 bytes into its cache line and a malloc'd buffer 16 bytes into its page, so copying a
// chunk out of slot 0 into such a buffer hit the slow case on every call.

#include <cstddef>

namespace dash::comm::detail {

// Copies `bytes` from `from` to `to` (not overlapping): with memcpy, except when the destination
// lies 1-63 bytes past the source modulo 4096, where a loop of 16-byte vector loads and stores
// (SSE2, x86-64's baseline) does it.
void bulk_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept;

// As bulk_copy, but the ranges may overlap (an in-place call's input and output), which memmove
// then copies. The engine's copy steps move a call's contribution between its buffers with it, as
// malloc may put an output a few bytes past its input modulo the page (docs/collectives.md, "Engine").
void bulk_move(std::byte* to, const std::byte* from, std::size_t bytes) noexcept;

}  // namespace dash::comm::detail
