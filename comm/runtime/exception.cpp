#include <array>
#include <sstream>
#include <string>

#include <mpi.h>

#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash {

namespace {

std::string describe_mpi_failure(const std::string& call, int code, int error_class,
                                 const std::string& mpi_message) {
  return call + " failed: " + mpi_message + " (MPI error code " + std::to_string(code) +
         ", class " + std::to_string(error_class) + ")";
}

}  // namespace

MpiError::MpiError(std::string call, int code, int error_class, std::string mpi_message)
    : Exception(describe_mpi_failure(call, code, error_class, mpi_message)),
      call_(std::move(call)),
      code_(code),
      error_class_(error_class),
      mpi_message_(std::move(mpi_message)) {}

namespace detail {

void throw_assertion_failure(std::string_view message, const std::source_location& where) {
  std::ostringstream text;
  text << "dash internal check failed at " << where.file_name() << ':' << where.line() << " in "
       << where.function_name() << ": " << message;
  throw AssertionFailure(text.str());
}

}  // namespace detail

namespace comm::detail {

void throw_mpi_error(int code, std::string_view call) {
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int length = 0;
  std::string mpi_message;
  // MPI_Error_string and MPI_Error_class may be called at any time, even after MPI_Finalize.
  if (MPI_Error_string(code, text.data(), &length) == MPI_SUCCESS) {
    mpi_message.assign(text.data(), static_cast<std::size_t>(length));
  } else {
    mpi_message = "unknown MPI error";
  }
  int error_class = MPI_ERR_UNKNOWN;
  if (MPI_Error_class(code, &error_class) != MPI_SUCCESS) {
    error_class = MPI_ERR_UNKNOWN;
  }
  throw MpiError(std::string(call), code, error_class, mpi_message);
}

void throw_mpi_error(int code, std::string_view caller, std::string_view call) {
  std::string both(caller);
  both.append(": ").append(call);
  throw_mpi_error(code, both);
}

}  // namespace comm::detail

}  // namespace dash
