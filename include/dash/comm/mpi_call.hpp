#pragma once
// Turning MPI return codes into dash::MpiError.
//
// Every communicator and window the library owns uses MPI_ERRORS_RETURN, so an MPI failure comes
// back as a return code; check_mpi is the one place that converts it into an exception.

#include <string_view>

#include <mpi.h>

namespace dash::comm {

namespace detail {
[[noreturn]] void throw_mpi_error(int code, std::string_view call);
[[noreturn]] void throw_mpi_error(int code, std::string_view caller, std::string_view call);
}  // namespace detail

// Throws dash::MpiError naming `call` unless `code` is MPI_SUCCESS.
inline void check_mpi(int code, std::string_view call) {
  if (code != MPI_SUCCESS) [[unlikely]] {
    detail::throw_mpi_error(code, call);
  }
}

// The same, naming the library function on whose behalf MPI was called ("dash::Atomic::fetch_add:
// MPI_Fetch_and_op"); the message is built only on failure, so short calls such as atomics pay
// nothing for it.
inline void check_mpi(int code, std::string_view caller, std::string_view call) {
  if (code != MPI_SUCCESS) [[unlikely]] {
    detail::throw_mpi_error(code, caller, call);
  }
}

}  // namespace dash::comm
