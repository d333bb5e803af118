#pragma once
// dash::GlobPtr<T>: the address of a T in global memory: a segment, the unit that holds it and the
// element offset in that unit's part. A GlobPtr is cheap to copy and valid while its segment lives.
//
// Arithmetic moves within the unit's part, never on to the next unit: a GlobPtr carries no pattern
// (as UPC++'s global_ptr), so it stays a small value that addresses any segment, not only a
// container's, and p + n is one addition. To walk a container across units use its global
// iterators (dash::GlobIter, pattern order), and for a position their difference from begin() or
// iterator.pos(). Reading or writing past the end of the unit's part throws dash::OutOfRange
// (GlobalSegment checks every access); forming such a pointer, like a past-the-end one, is allowed.

#include <compare>
#include <cstddef>
#include <string>
#include <type_traits>

#include <dash/comm/exception.hpp>
#include <dash/core/global_segment.hpp>

namespace dash {

template <class T>
class GlobRef;

template <class T>
class GlobPtr {
public:
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;

  // The null global pointer.
  GlobPtr() = default;
  GlobPtr(const GlobalSegment& segment, int unit, std::size_t index) noexcept
      : segment_(&segment), unit_(unit), index_(index) {}
  // GlobPtr<T> converts to GlobPtr<const T>.
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  GlobPtr(const GlobPtr<U>& other) noexcept  // NOLINT: like T* -> const T*
      : segment_(other.segment()), unit_(other.unit()), index_(other.index()) {}

  const GlobalSegment* segment() const noexcept { return segment_; }
  int unit() const noexcept { return unit_; }
  std::size_t index() const noexcept { return index_; }
  std::size_t byte_offset() const noexcept { return index_ * sizeof(T); }
  explicit operator bool() const noexcept { return segment_ != nullptr; }

  // True when the element is in the calling unit's own part.
  bool is_local() const noexcept { return segment_ != nullptr && unit_ == segment_->myid(); }
  // A plain pointer to the element when the caller can load/store it (its own part, or a unit on
  // the same node); nullptr otherwise. Like any raw pointer it is not checked against the part.
  T* local() const noexcept {
    if (segment_ == nullptr) {
      return nullptr;
    }
    std::byte* memory = segment_->direct(unit_);
    return memory == nullptr ? nullptr : reinterpret_cast<T*>(memory + byte_offset());
  }

  GlobRef<T> operator*() const { return GlobRef<T>(*this); }
  GlobRef<T> operator[](difference_type n) const { return *(*this + n); }

  GlobPtr& operator+=(difference_type n) noexcept {
    index_ = static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
    return *this;
  }
  GlobPtr& operator-=(difference_type n) noexcept { return *this += -n; }
  GlobPtr& operator++() noexcept { return *this += 1; }
  GlobPtr& operator--() noexcept { return *this -= 1; }
  GlobPtr operator++(int) noexcept {
    GlobPtr before = *this;
    ++*this;
    return before;
  }
  GlobPtr operator--(int) noexcept {
    GlobPtr before = *this;
    --*this;
    return before;
  }
  friend GlobPtr operator+(GlobPtr p, difference_type n) noexcept { return p += n; }
  friend GlobPtr operator+(difference_type n, GlobPtr p) noexcept { return p += n; }
  friend GlobPtr operator-(GlobPtr p, difference_type n) noexcept { return p -= n; }
  // Only defined for pointers into the same unit's part of the same segment.
  friend difference_type operator-(const GlobPtr& a, const GlobPtr& b) {
    if (a.segment_ != b.segment_ || a.unit_ != b.unit_) {
      throw InvalidArgument("dash::GlobPtr::operator-: the pointers address different segments or units (unit " +
                            std::to_string(a.unit_) + " and unit " + std::to_string(b.unit_) +
                            "); a difference is defined within one unit's part only");
    }
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }

  friend bool operator==(const GlobPtr&, const GlobPtr&) = default;
  // Ordered by segment, then unit, then offset.
  friend std::strong_ordering operator<=>(const GlobPtr& a, const GlobPtr& b) noexcept {
    if (auto order = std::compare_three_way{}(a.segment_, b.segment_); order != 0) {
      return order;
    }
    if (auto order = a.unit_ <=> b.unit_; order != 0) {
      return order;
    }
    return a.index_ <=> b.index_;
  }

private:
  const GlobalSegment* segment_ = nullptr;
  int unit_ = -1;
  std::size_t index_ = 0;
};

}  // namespace dash

#include <dash/core/glob_ref.hpp>
