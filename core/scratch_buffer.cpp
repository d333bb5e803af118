#include <dash/core/detail/scratch_buffer.hpp>

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dash::detail {

namespace {

constexpr std::size_t huge_page_bytes = std::size_t{2} << 20U;

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
  void* memory = std::aligned_alloc(huge_page_bytes, rounded);
  if (memory == nullptr) {
    throw std::bad_alloc();
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where transparent huge pages are off (or "never"), the pages are ordinary ones.
  (void)madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  return memory;
}

void free_scratch(void* memory) noexcept { std::free(memory); }

}  // namespace dash::detail
