#include <dash/comm/detail/input_copy.hpp>

#include <algorithm>
#include <iterator>
#include <mutex>
#include <utility>

namespace dash::comm::detail {

namespace {

struct KeptBuffers {
  std::mutex mutex;
  std::vector<std::vector<std::byte>> buffers;
};

KeptBuffers& kept() {
  static KeptBuffers instance;
  return instance;
}

// The smallest kept buffer of at least `bytes`, else the largest, else a new one.
std::vector<std::byte> take(std::size_t bytes) {
  KeptBuffers& pool = kept();
  const std::lock_guard lock(pool.mutex);
  auto& buffers = pool.buffers;
  if (buffers.empty()) {
    return {};
  }
  const auto by_capacity = [](const auto& a, const auto& b) { return a.capacity() < b.capacity(); };
  std::sort(buffers.begin(), buffers.end(), by_capacity);
  auto chosen = std::find_if(buffers.begin(), buffers.end(), [&](const auto& b) { return b.capacity() >= bytes; });
  if (chosen == buffers.end()) {
    chosen = std::prev(buffers.end());
  }
  std::vector<std::byte> buffer = std::move(*chosen);
  buffers.erase(chosen);
  return buffer;
}

}  // namespace

InputCopy::InputCopy(std::span<const std::byte> bytes) : storage_(take(bytes.size())) {
  storage_.assign(bytes.begin(), bytes.end());
}

InputCopy& InputCopy::operator=(InputCopy&& other) noexcept {
  if (this != &other) {
    give_back();
    storage_ = std::move(other.storage_);
  }
  return *this;
}

InputCopy::~InputCopy() { give_back(); }

void InputCopy::give_back() noexcept {
  if (storage_.capacity() == 0 || storage_.capacity() > kept_buffer_max_bytes) {
    return;
  }
  try {
    KeptBuffers& pool = kept();
    const std::lock_guard lock(pool.mutex);
    pool.buffers.push_back(std::move(storage_));
    if (pool.buffers.size() > kept_buffers) {  // the smallest goes
      pool.buffers.erase(std::min_element(pool.buffers.begin(), pool.buffers.end(), [](const auto& a, const auto& b) {
        return a.capacity() < b.capacity();
      }));
    }
  } catch (...) {
    // Not kept (the list could not grow): the storage is freed with this copy.
  }
  storage_ = {};
}

std::size_t kept_input_copy_bytes() {
  KeptBuffers& pool = kept();
  const std::lock_guard lock(pool.mutex);
  std::size_t bytes = 0;
  for (const auto& buffer : pool.buffers) {
    bytes += buffer.capacity();
  }
  return bytes;
}

void release_kept_input_copies() {
  KeptBuffers& pool = kept();
  const std::lock_guard lock(pool.mutex);
  pool.buffers.clear();
}

}  // namespace dash::comm::detail
