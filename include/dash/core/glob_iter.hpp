#pragma once
// dash::GlobIter: a random-access iterator over a container's elements in global order (row-major
// for N-d containers). Dereferencing gives a dash::GlobRef; the iterator itself is a position plus
// the container's pattern and segment, so algorithms can ask which unit holds which part of a range
// and work on local parts instead of dereferencing element by element.

#include <compare>
#include <cstddef>
#include <iterator>
#include <string>
#include <type_traits>

#include <dash/comm/exception.hpp>
#include <dash/core/glob_ptr.hpp>
#include <dash/core/global_segment.hpp>

namespace dash {

template <class T, class PatternT>
class GlobIter {
public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using reference = GlobRef<T>;
  using pointer = GlobPtr<T>;
  using pattern_type = PatternT;

  GlobIter() = default;
  GlobIter(const GlobalSegment* segment, const PatternT* pattern, std::size_t position) noexcept
      : segment_(segment), pattern_(pattern), position_(position) {}
  // iterator -> const_iterator
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  GlobIter(const GlobIter<U, PatternT>& other) noexcept  // NOLINT: like T* -> const T*
      : segment_(other.segment()), pattern_(other.pattern_ptr()), position_(other.pos()) {}

  // The global (row-major linear) index this iterator points at.
  std::size_t pos() const noexcept { return position_; }
  const PatternT& pattern() const noexcept { return *pattern_; }
  const PatternT* pattern_ptr() const noexcept { return pattern_; }
  const GlobalSegment* segment() const noexcept { return segment_; }

  GlobPtr<T> globptr() const {
    if (pattern_ == nullptr) {  // an unallocated container's begin() == end()
      throw OutOfRange("dash::GlobIter: position " + std::to_string(position_) +
                       " of a container that is not allocated; it has no elements");
    }
    const auto where = pattern_->local(position_);
    return GlobPtr<T>(*segment_, static_cast<int>(where.unit), where.index);
  }
  reference operator*() const { return reference(globptr()); }
  reference operator[](difference_type n) const { return *(*this + n); }
  // A plain pointer to the element when the calling unit holds it, else nullptr.
  T* local() const {
    const GlobPtr<T> address = globptr();
    return address.is_local() ? address.local() : nullptr;
  }

  GlobIter& operator+=(difference_type n) noexcept {
    position_ = static_cast<std::size_t>(static_cast<difference_type>(position_) + n);
    return *this;
  }
  GlobIter& operator-=(difference_type n) noexcept { return *this += -n; }
  GlobIter& operator++() noexcept { return *this += 1; }
  GlobIter& operator--() noexcept { return *this -= 1; }
  GlobIter operator++(int) noexcept {
    GlobIter before = *this;
    ++*this;
    return before;
  }
  GlobIter operator--(int) noexcept {
    GlobIter before = *this;
    --*this;
    return before;
  }
  friend GlobIter operator+(GlobIter it, difference_type n) noexcept { return it += n; }
  friend GlobIter operator+(difference_type n, GlobIter it) noexcept { return it += n; }
  friend GlobIter operator-(GlobIter it, difference_type n) noexcept { return it -= n; }
  // Iterators of different containers have no distance: that is a usage error.
  friend difference_type operator-(const GlobIter& a, const GlobIter& b) {
    require_same_container(a, b, "dash::GlobIter::operator-");
    return static_cast<difference_type>(a.position_) - static_cast<difference_type>(b.position_);
  }

  friend bool operator==(const GlobIter& a, const GlobIter& b) noexcept {
    return a.segment_ == b.segment_ && a.position_ == b.position_;
  }
  friend std::strong_ordering operator<=>(const GlobIter& a, const GlobIter& b) {
    require_same_container(a, b, "dash::GlobIter::operator<=>");
    return a.position_ <=> b.position_;
  }

  // Throws dash::InvalidArgument naming `function` unless a and b belong to the same container.
  static void require_same_container(const GlobIter& a, const GlobIter& b, const char* function) {
    if (a.segment_ != b.segment_) {
      throw InvalidArgument(std::string(function) +
                            ": the iterators belong to different containers; a range must lie within one container");
    }
  }

private:
  const GlobalSegment* segment_ = nullptr;
  const PatternT* pattern_ = nullptr;
  std::size_t position_ = 0;
};

}  // namespace dash
