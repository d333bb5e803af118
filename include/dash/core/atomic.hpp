#pragma once
// dash::Atomic<T>: an element type whose global references offer atomic operations, as in DASH:
//
//   dash::Array<dash::Atomic<long>> counters(n);
//   counters[i].fetch_add(1);   // atomic with respect to every other atomic access to counters[i]
//
// Every operation is one RMA atomic on the segment's window (comm::NodeWindow: fetch-and-op,
// compare-and-swap, an atomic store), complete at the target before it returns, so it is atomic against all other dash::Atomic
// operations on the same element from any unit. Mixing atomic and plain access to one element in
// the same phase (between barriers) is a race, as in MPI.
//
// T is an integer or floating-point type; the bitwise operations need an integer type.
// compare_exchange compares object representations (like std::atomic), also for floating point.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <dash/comm/mpi_datatype.hpp>
#include <dash/comm/node_window.hpp>
#include <dash/core/glob_ref.hpp>

namespace dash {

template <class T>
struct Atomic {
  static_assert(comm::MpiArithmetic<T>, "dash::Atomic<T>: T must be an integer or floating-point type");
  using value_type = T;
  T value;
};

namespace detail {

// The unsigned integer type of T's width, for compare-and-swap on floating-point bit patterns.
template <class T>
using same_width_unsigned =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

}  // namespace detail

template <class T>
class GlobRef<Atomic<T>> {
public:
  using value_type = T;

  explicit GlobRef(GlobPtr<Atomic<T>> address) noexcept : address_(address) {}
  GlobRef(const GlobRef&) = default;

  GlobPtr<Atomic<T>> operator&() const noexcept { return address_; }  // NOLINT: the global address

  T load() const { return fetch_op(T{}, comm::AtomicOp::no_op, "dash::Atomic::load"); }
  operator T() const { return load(); }  // NOLINT: reads like std::atomic

  void store(T value) const {
    constexpr const char* function = "dash::Atomic::store";
    address_.segment()->window().atomic_store(address_.unit(), offset(function), value, function);
  }
  const GlobRef& operator=(T value) const {
    store(value);
    return *this;
  }
  // Assigning another element's reference copies its value, as for GlobRef<T> (a load, then a
  // store: two atomic operations, not one); without it, the copy would rebind this reference.
  const GlobRef& operator=(const GlobRef& other) const {
    store(other.load());
    return *this;
  }

  T exchange(T value) const { return fetch_op(value, comm::AtomicOp::replace, "dash::Atomic::exchange"); }
  T fetch_add(T value) const { return fetch_op(value, comm::AtomicOp::sum, "dash::Atomic::fetch_add"); }
  // Unsigned types wrap like std::atomic: adding the two's complement is subtracting.
  T fetch_sub(T value) const {
    return fetch_op(static_cast<T>(T{} - value), comm::AtomicOp::sum, "dash::Atomic::fetch_sub");
  }
  T fetch_and(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, comm::AtomicOp::bit_and, "dash::Atomic::fetch_and");
  }
  T fetch_or(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, comm::AtomicOp::bit_or, "dash::Atomic::fetch_or");
  }
  T fetch_xor(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, comm::AtomicOp::bit_xor, "dash::Atomic::fetch_xor");
  }
  T operator+=(T value) const { return static_cast<T>(fetch_add(value) + value); }
  T operator-=(T value) const { return static_cast<T>(fetch_sub(value) - value); }
  T operator++() const { return static_cast<T>(fetch_add(T{1}) + T{1}); }
  T operator--() const { return static_cast<T>(fetch_sub(T{1}) - T{1}); }
  T operator++(int) const { return fetch_add(T{1}); }
  T operator--(int) const { return fetch_sub(T{1}); }

  // Replaces the value with `desired` if it equals `expected` (bitwise) and returns true;
  // otherwise stores the current value in `expected` and returns false.
  bool compare_exchange(T& expected, T desired) const {
    using Bits = detail::same_width_unsigned<T>;
    static_assert(sizeof(Bits) == sizeof(T),
                  "dash::Atomic::compare_exchange: T must be 1, 2, 4 or 8 bytes wide, the widths "
                  "an RMA compare-and-swap compares (long double is wider)");
    Bits expected_bits;
    Bits desired_bits;
    std::memcpy(&expected_bits, &expected, sizeof(T));
    std::memcpy(&desired_bits, &desired, sizeof(T));
    constexpr const char* function = "dash::Atomic::compare_exchange";
    const Bits found_bits = address_.segment()->window().compare_and_swap(address_.unit(), offset(function),
                                                                          desired_bits, expected_bits, function);
    if (found_bits == expected_bits) {
      return true;
    }
    std::memcpy(&expected, &found_bits, sizeof(T));
    return false;
  }

private:
  // The element's byte offset in its unit's memory, once it is known to lie within the unit's part.
  std::size_t offset(const char* function) const {
    address_.segment()->require_in_part(address_.unit(), address_.byte_offset(), sizeof(T), function);
    return address_.byte_offset();
  }

  T fetch_op(T operand, comm::AtomicOp op, const char* function) const {
    return address_.segment()->window().fetch_and_op(address_.unit(), offset(function), operand, op, function);
  }

  GlobPtr<Atomic<T>> address_;
};

}  // namespace dash
