#pragma once
// dash::LocalRange<T>: the calling unit's elements of a container, as a contiguous range of plain
// memory (what `array.local` is). Access is a plain load/store: no communication.

#include <cstddef>
#include <span>

namespace dash {

template <class T>
class LocalRange {
public:
  using value_type = T;
  using iterator = T*;

  LocalRange() = default;
  LocalRange(T* data, std::size_t size) noexcept : data_(data), size_(size) {}

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() const noexcept { return data_; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::span<T> span() const noexcept { return {data_, size_}; }

private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace dash
