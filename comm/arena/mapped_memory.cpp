#include <algorithm>
#include <mutex>
#include <utility>

#if defined(__linux__)
#include <unistd.h>
#endif

#include "arena/mapped_memory.hpp"

namespace dash::comm::detail {

namespace {

struct Recorded {
  std::uint64_t key = 0;
  std::vector<std::int64_t> members;
  std::vector<MappedRange> ranges;
};

bool holds(const MappedRange& range, std::int64_t owner, std::uintptr_t begin, std::size_t bytes) noexcept {
  return range.owner == owner && begin >= range.owner_address && bytes <= range.bytes &&
         begin - range.owner_address <= range.bytes - bytes;
}

// Windows are opened and freed collectively, rarely; lookups come once per chunk of 16 KiB or more.
struct Registry {
  std::mutex mutex;
  std::vector<Recorded> windows;
  std::uint64_t next_key = 1;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

std::int64_t this_process_id() noexcept {
#if defined(__linux__)
  return getpid();
#else
  return 0;
#endif
}

std::uint64_t remember_mapped(std::vector<std::int64_t> members, std::vector<MappedRange> ranges) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const std::uint64_t key = r.next_key++;
  r.windows.push_back({key, std::move(members), std::move(ranges)});
  return key;
}

void forget_mapped(std::uint64_t key) noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::erase_if(r.windows, [key](const Recorded& w) { return w.key == key; });
}

std::byte* mapped_here(std::int64_t owner, const void* address, std::size_t bytes) noexcept {
  if (owner == 0) {
    return nullptr;
  }
  const auto begin = reinterpret_cast<std::uintptr_t>(address);
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  for (const Recorded& window : r.windows) {
    for (const MappedRange& range : window.ranges) {
      if (holds(range, owner, begin, bytes)) {
        return range.here + (begin - range.owner_address);
      }
    }
  }
  return nullptr;
}

bool mapped_by_all(const void* address, std::size_t bytes, const std::vector<std::int64_t>& processes) noexcept {
  const std::int64_t self = this_process_id();
  if (self == 0) {
    return false;
  }
  const auto begin = reinterpret_cast<std::uintptr_t>(address);
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  for (const Recorded& window : r.windows) {
    const bool holds_it = std::any_of(window.ranges.begin(), window.ranges.end(),
                                      [&](const MappedRange& range) { return holds(range, self, begin, bytes); });
    const bool all_members = std::all_of(processes.begin(), processes.end(), [&](std::int64_t process) {
      return std::find(window.members.begin(), window.members.end(), process) != window.members.end();
    });
    if (holds_it && all_members) {
      return true;
    }
  }
  return false;
}

}  // namespace dash::comm::detail
