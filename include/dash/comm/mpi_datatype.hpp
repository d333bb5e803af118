#pragma once
// The MPI datatype of a C++ arithmetic type, for the MPI calls that must know it (RMA atomics,
// accumulate). Collectives never need it: they move bytes and reduce with C++ operations.

#include <concepts>
#include <type_traits>

#include <mpi.h>

namespace dash::comm {

namespace detail {

template <class T>
MPI_Datatype signed_integer_datatype() {
  if constexpr (sizeof(T) == 1) {
    return MPI_INT8_T;
  } else if constexpr (sizeof(T) == 2) {
    return MPI_INT16_T;
  } else if constexpr (sizeof(T) == 4) {
    return MPI_INT32_T;
  } else {
    static_assert(sizeof(T) == 8, "dash: no MPI datatype for an integer of this width");
    return MPI_INT64_T;
  }
}

template <class T>
MPI_Datatype unsigned_integer_datatype() {
  if constexpr (sizeof(T) == 1) {
    return MPI_UINT8_T;
  } else if constexpr (sizeof(T) == 2) {
    return MPI_UINT16_T;
  } else if constexpr (sizeof(T) == 4) {
    return MPI_UINT32_T;
  } else {
    static_assert(sizeof(T) == 8, "dash: no MPI datatype for an integer of this width");
    return MPI_UINT64_T;
  }
}

}  // namespace detail

// Integer and floating-point types (not bool, whose MPI counterpart is C++-binding only).
template <class T>
concept MpiArithmetic = (std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool>) || std::floating_point<T>;

template <MpiArithmetic T>
MPI_Datatype mpi_datatype() {
  using Plain = std::remove_cv_t<T>;
  if constexpr (std::same_as<Plain, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::same_as<Plain, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::same_as<Plain, long double>) {
    return MPI_LONG_DOUBLE;
  } else if constexpr (std::same_as<Plain, char>) {
    return MPI_CHAR;
  } else if constexpr (std::is_signed_v<Plain>) {
    return detail::signed_integer_datatype<Plain>();
  } else {
    return detail::unsigned_integer_datatype<Plain>();
  }
}

}  // namespace dash::comm
