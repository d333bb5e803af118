#pragma once
// The size of the last-level cache, which memory-bound benchmarks must exceed.

#include <cstddef>

namespace dash::bench {

// Bytes of the largest cache level of CPU 0: from /sys/devices/system/cpu/cpu0/cache, else
// sysconf(_SC_LEVEL3_CACHE_SIZE), else 32 MiB.
std::size_t last_level_cache_bytes();

}  // namespace dash::bench
