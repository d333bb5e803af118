#pragma once
// dash::GlobRef<T>: a reference to a T in global memory, what a container's operator[] and a
// global iterator's operator* give. Reading converts to T, assigning writes; both are blocking
// (a write has reached its target when the assignment returns). An access past the end of the
// unit's part of the segment throws dash::OutOfRange (see glob_ptr.hpp). Compound assignments read, combine
// locally and write back: they are not atomic (use dash::Atomic<T> elements for that).
// get_async/put_async return a dash::Future.

#include <memory>
#include <type_traits>
#include <utility>

#include <dash/core/future.hpp>
#include <dash/core/glob_ptr.hpp>

namespace dash {

template <class T>
class GlobRef {
public:
  using value_type = std::remove_const_t<T>;

  explicit GlobRef(GlobPtr<T> address) noexcept : address_(address) {}
  GlobRef(const GlobRef&) = default;

  GlobPtr<T> operator&() const noexcept { return address_; }  // NOLINT: the global address

  value_type get() const {
    value_type value;
    address_.segment()->get(address_.unit(), address_.byte_offset(), &value, sizeof(value_type));
    return value;
  }
  operator value_type() const { return get(); }  // NOLINT: a reference reads as its value

  void put(const value_type& value) const
    requires(!std::is_const_v<T>)
  {
    address_.segment()->put(address_.unit(), address_.byte_offset(), &value, sizeof(value_type));
  }
  const GlobRef& operator=(const value_type& value) const
    requires(!std::is_const_v<T>)
  {
    put(value);
    return *this;
  }
  // Assigning a reference copies the value it refers to (like T& = T&).
  const GlobRef& operator=(const GlobRef& other) const
    requires(!std::is_const_v<T>)
  {
    put(other.get());
    return *this;
  }
  template <class U>
  const GlobRef& operator=(const GlobRef<U>& other) const
    requires(!std::is_const_v<T>)
  {
    put(static_cast<value_type>(other.get()));
    return *this;
  }

  Future<value_type> get_async() const {
    const GlobalSegment& segment = *address_.segment();
    // Checked here because the load below bypasses the segment's accessors.
    segment.require_in_part(address_.unit(), address_.byte_offset(), sizeof(value_type), "dash::GlobRef::get_async");
    if (const value_type* memory = address_.local(); memory != nullptr) {
      return Future<value_type>(*memory);
    }
    auto value = std::make_unique<value_type>();
    detail::TransferSet transfers;
    transfers.add(segment.start_get(address_.unit(), address_.byte_offset(), value.get(), sizeof(value_type)));
    return Future<value_type>(std::move(value), std::move(transfers));
  }
  // The value is copied, so the caller's `value` may change at once.
  Future<void> put_async(const value_type& value) const
    requires(!std::is_const_v<T>)
  {
    const GlobalSegment& segment = *address_.segment();
    // Checked here because the store below bypasses the segment's accessors.
    segment.require_in_part(address_.unit(), address_.byte_offset(), sizeof(value_type), "dash::GlobRef::put_async");
    if (value_type* memory = address_.local(); memory != nullptr) {
      *memory = value;
      return Future<void>::ready();
    }
    auto staged = std::make_shared<value_type>(value);
    detail::TransferSet transfers;
    transfers.add(segment.start_put(address_.unit(), address_.byte_offset(), staged.get(), sizeof(value_type)));
    transfers.keep_alive(std::move(staged));
    return Future<void>(std::move(transfers));
  }

  // Read, combine, write back; not atomic.
  template <class U>
  const GlobRef& operator+=(const U& operand) const { return update([&](value_type& v) { v += operand; }); }
  template <class U>
  const GlobRef& operator-=(const U& operand) const { return update([&](value_type& v) { v -= operand; }); }
  template <class U>
  const GlobRef& operator*=(const U& operand) const { return update([&](value_type& v) { v *= operand; }); }
  template <class U>
  const GlobRef& operator/=(const U& operand) const { return update([&](value_type& v) { v /= operand; }); }
  template <class U>
  const GlobRef& operator%=(const U& operand) const { return update([&](value_type& v) { v %= operand; }); }
  template <class U>
  const GlobRef& operator&=(const U& operand) const { return update([&](value_type& v) { v &= operand; }); }
  template <class U>
  const GlobRef& operator|=(const U& operand) const { return update([&](value_type& v) { v |= operand; }); }
  template <class U>
  const GlobRef& operator^=(const U& operand) const { return update([&](value_type& v) { v ^= operand; }); }
  const GlobRef& operator++() const { return update([](value_type& v) { ++v; }); }
  const GlobRef& operator--() const { return update([](value_type& v) { --v; }); }
  value_type operator++(int) const {
    value_type before = get();
    put(value_type(before + 1));
    return before;
  }
  value_type operator--(int) const {
    value_type before = get();
    put(value_type(before - 1));
    return before;
  }

  // Exchanges the values of two references (what std::swap on a container's elements means).
  friend void swap(const GlobRef& a, const GlobRef& b)
    requires(!std::is_const_v<T>)
  {
    value_type value_a = a.get();
    a.put(b.get());
    b.put(value_a);
  }

private:
  template <class Combine>
  const GlobRef& update(Combine combine) const
    requires(!std::is_const_v<T>)
  {
    value_type value = get();
    combine(value);
    put(value);
    return *this;
  }

  GlobPtr<T> address_;
};

}  // namespace dash
