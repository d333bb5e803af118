#include <dash/core/detail/scratch_buffer.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dash::detail {

namespace {

constexpr std::size_t huge_page_bytes = std::size_t{2} << 20U;

// Freed blocks of huge_page_bytes and more wait here for the next request that fits (the smallest
// that does): a block handed out again has its pages mapped already. At most scratch_cache_blocks
// are kept; a block freed beyond that evicts the smallest. The process's exit frees them.
class ScratchCache {
public:
  // Room for one more than is kept, so that giving a block back never allocates.
  ScratchCache() { cached_.reserve(scratch_cache_blocks + 1); }
  ScratchCache(const ScratchCache&) = delete;
  ScratchCache& operator=(const ScratchCache&) = delete;
  ~ScratchCache() { release(); }

  void* take(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    auto best = cached_.end();
    for (auto block = cached_.begin(); block != cached_.end(); ++block) {
      if (block->bytes >= bytes && (best == cached_.end() || block->bytes < best->bytes)) {
        best = block;
      }
    }
    if (best == cached_.end()) {
      return nullptr;
    }
    const Block block = *best;
    handed_out_.emplace(block.memory, block.bytes);  // first: if it throws, the block stays kept
    cached_.erase(best);
    return block.memory;
  }

  void handed_out(void* memory, std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    handed_out_.emplace(memory, bytes);
  }

  // False when `memory` is not a large block (malloc'd below huge_page_bytes).
  bool give_back(void* memory) noexcept {
    const std::lock_guard lock(mutex_);
    const auto found = handed_out_.find(memory);
    if (found == handed_out_.end()) {
      return false;
    }
    cached_.push_back({memory, found->second});
    handed_out_.erase(found);
    if (cached_.size() > scratch_cache_blocks) {
      const auto smallest = std::min_element(cached_.begin(), cached_.end(),
                                             [](const Block& a, const Block& b) { return a.bytes < b.bytes; });
      std::free(smallest->memory);
      cached_.erase(smallest);
    }
    return true;
  }

  std::size_t cached_bytes() {
    const std::lock_guard lock(mutex_);
    std::size_t bytes = 0;
    for (const Block& block : cached_) {
      bytes += block.bytes;
    }
    return bytes;
  }

  void release() {
    const std::lock_guard lock(mutex_);
    for (const Block& block : cached_) {
      std::free(block.memory);
    }
    cached_.clear();
  }

private:
  struct Block {
    void* memory = nullptr;
    std::size_t bytes = 0;
  };
  std::mutex mutex_;
  std::vector<Block> cached_;
  std::unordered_map<void*, std::size_t> handed_out_;
};

ScratchCache& cache() {
  static ScratchCache instance;
  return instance;
}

}  // namespace

void* allocate_scratch(std::size_t bytes) {
  if (bytes < huge_page_bytes) {
    void* memory = std::malloc(bytes);
    if (memory == nullptr) {
      throw std::bad_alloc();
    }
    return memory;
  }
  const std::size_t rounded = (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
  if (void* reused = cache().take(rounded); reused != nullptr) {
    return reused;
  }
  void* memory = std::aligned_alloc(huge_page_bytes, rounded);
  if (memory == nullptr) {
    throw std::bad_alloc();
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where transparent huge pages are off (or "never"), the pages are ordinary ones.
  (void)madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  try {
    cache().handed_out(memory, rounded);
  } catch (...) {
    std::free(memory);
    throw;
  }
  return memory;
}

void free_scratch(void* memory) noexcept {
  if (memory != nullptr && !cache().give_back(memory)) {
    std::free(memory);
  }
}

std::size_t cached_scratch_bytes() { return cache().cached_bytes(); }

void release_cached_scratch() noexcept { cache().release(); }

}  // namespace dash::detail
