#pragma once
// The schedule verifier's table from 64-bit keys to 32-bit values (rank_sets.hpp, verifier.cpp):
// open addressing with linear probing in two flat arrays. A sweep at P = 1024 looks up and inserts
// about a million keys; std::unordered_map spent more time allocating, freeing and rehashing its
// nodes than the verifier spent verifying.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace dash::comm::schedule::verification {

class KeyIndex {
public:
  // The one key that cannot be stored: it marks an empty slot.
  static constexpr std::uint64_t reserved_key = std::numeric_limits<std::uint64_t>::max();

  // The value stored under key, or nullptr. The pointer is valid until the next insert.
  const std::uint32_t* find(std::uint64_t key) const noexcept {
    if (keys_.empty()) {
      return nullptr;
    }
    for (std::size_t slot = home(key);; slot = (slot + 1) & mask()) {
      if (keys_[slot] == key) {
        return &values_[slot];
      }
      if (keys_[slot] == reserved_key) {
        return nullptr;
      }
    }
  }

  // Stores value under key, which must not be stored yet.
  void insert(std::uint64_t key, std::uint32_t value) {
    if (key == reserved_key) {
      throw std::logic_error("KeyIndex: the reserved key cannot be stored");
    }
    if (2 * (size_ + 1) > keys_.size()) {  // at most half full: probes stay short
      grow();
    }
    place(key, value);
    ++size_;
  }

  std::size_t size() const noexcept { return size_; }

private:
  std::size_t mask() const noexcept { return keys_.size() - 1; }

  // Fibonacci hashing: the multiplication spreads keys that differ in their low or high half only
  // (a pair of ranks) over the whole table.
  std::size_t home(std::uint64_t key) const noexcept {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask();
  }

  void place(std::uint64_t key, std::uint32_t value) noexcept {
    std::size_t slot = home(key);
    while (keys_[slot] != reserved_key) {
      slot = (slot + 1) & mask();
    }
    keys_[slot] = key;
    values_[slot] = value;
  }

  void grow() {
    std::vector<std::uint64_t> keys = std::move(keys_);
    std::vector<std::uint32_t> values = std::move(values_);
    const std::size_t capacity = keys.empty() ? 64 : 2 * keys.size();
    keys_.assign(capacity, reserved_key);
    values_.assign(capacity, 0);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != reserved_key) {
        place(keys[i], values[i]);
      }
    }
  }

  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t size_ = 0;
};

}  // namespace dash::comm::schedule::verification
