#pragma once
// dash::Atomic<T>: an element type whose global references offer atomic operations, as in DASH:
//
//   dash::Array<dash::Atomic<long>> counters(n);
//   counters[i].fetch_add(1);   // atomic with respect to every other atomic access to counters[i]
//
// Every operation is one MPI RMA atomic (MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Accumulate)
// on the segment's window, flushed before it returns, so it is atomic against all other dash::Atomic
// operations on the same element from any unit. Mixing atomic and plain access to one element in
// the same phase (between barriers) is a race, as in MPI.
//
// T is an integer or floating-point type; the bitwise operations need an integer type.
// compare_exchange compares object representations (like std::atomic), also for floating point.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <mpi.h>

#include <dash/comm/mpi_call.hpp>
#include <dash/comm/mpi_datatype.hpp>
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

  T load() const { return fetch_op(T{}, MPI_NO_OP, "dash::Atomic::load"); }
  operator T() const { return load(); }  // NOLINT: reads like std::atomic

  void store(T value) const {
    const GlobalSegment& segment = *address_.segment();
    comm::check_mpi(MPI_Accumulate(&value, 1, comm::mpi_datatype<T>(), address_.unit(),
                                   displacement("dash::Atomic::store"), 1, comm::mpi_datatype<T>(), MPI_REPLACE,
                                   segment.window()),
                    "dash::Atomic::store: MPI_Accumulate");
    segment.flush(address_.unit());
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

  T exchange(T value) const { return fetch_op(value, MPI_REPLACE, "dash::Atomic::exchange"); }
  T fetch_add(T value) const { return fetch_op(value, MPI_SUM, "dash::Atomic::fetch_add"); }
  // Unsigned types wrap like std::atomic: adding the two's complement is subtracting.
  T fetch_sub(T value) const {
    return fetch_op(static_cast<T>(T{} - value), MPI_SUM, "dash::Atomic::fetch_sub");
  }
  T fetch_and(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, MPI_BAND, "dash::Atomic::fetch_and");
  }
  T fetch_or(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, MPI_BOR, "dash::Atomic::fetch_or");
  }
  T fetch_xor(T value) const
    requires std::integral<T>
  {
    return fetch_op(value, MPI_BXOR, "dash::Atomic::fetch_xor");
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
                  "MPI_Compare_and_swap compares (long double is wider)");
    Bits expected_bits;
    Bits desired_bits;
    Bits found_bits;
    std::memcpy(&expected_bits, &expected, sizeof(T));
    std::memcpy(&desired_bits, &desired, sizeof(T));
    const GlobalSegment& segment = *address_.segment();
    comm::check_mpi(MPI_Compare_and_swap(&desired_bits, &expected_bits, &found_bits, comm::mpi_datatype<Bits>(),
                                         address_.unit(), displacement("dash::Atomic::compare_exchange"),
                                         segment.window()),
                    "dash::Atomic::compare_exchange: MPI_Compare_and_swap");
    segment.flush(address_.unit());
    if (found_bits == expected_bits) {
      return true;
    }
    std::memcpy(&expected, &found_bits, sizeof(T));
    return false;
  }

private:
  // The element's displacement in the window, once it is known to lie within the unit's part.
  MPI_Aint displacement(const char* function) const {
    address_.segment()->require_in_part(address_.unit(), address_.byte_offset(), sizeof(T), function);
    return static_cast<MPI_Aint>(address_.byte_offset());
  }

  T fetch_op(T operand, MPI_Op op, const char* function) const {
    const GlobalSegment& segment = *address_.segment();
    T previous{};
    const int code = MPI_Fetch_and_op(&operand, &previous, comm::mpi_datatype<T>(), address_.unit(),
                                      displacement(function), op, segment.window());
    if (code != MPI_SUCCESS) {
      comm::check_mpi(code, std::string(function) + ": MPI_Fetch_and_op");
    }
    segment.flush(address_.unit());
    return previous;
  }

  GlobPtr<Atomic<T>> address_;
};

}  // namespace dash
