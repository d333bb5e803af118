#pragma once
// Copies that write around the caches: for outputs far larger than the caches, which would evict
// everything else and make the processor read each destination line before overwriting it.

#include <cstddef>

namespace dash::comm::detail {

// Copies `bytes` from `from` to `to` (not overlapping) with non-temporal stores where the processor
// has them (x86-64: SSE2), otherwise with memcpy. The stores are fenced before it returns, so
// they are ordered before any later store, e.g. a release that publishes the copy.
void streaming_copy(std::byte* to, const std::byte* from, std::size_t bytes) noexcept;

}  // namespace dash::comm::detail
