#pragma once
// The library's exception hierarchy (docs/design.md §2 "Errors are exceptions with context").
//
// Every error the library reports is a dash::Exception. Messages name the function that failed,
// the argument, what was expected and what was given, so that a user can act on them without a
// debugger; the factories below keep that wording uniform.

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace dash {

class Exception : public std::runtime_error {
public:
  explicit Exception(const std::string& message) : std::runtime_error(message) {}
};

// An argument a caller passed is not acceptable (wrong value, inconsistent across ranks, ...).
class InvalidArgument : public Exception {
public:
  using Exception::Exception;
};

// An index or count lies outside the range the callee can serve.
class OutOfRange : public Exception {
public:
  using Exception::Exception;
};

// The library is used in a state that does not allow the call (e.g. before dash::init, after
// dash::finalize, or dash::init twice).
class InvalidState : public Exception {
public:
  using Exception::Exception;
};

// Memory for a local buffer or a global allocation could not be obtained.
class BadAlloc : public Exception {
public:
  using Exception::Exception;
};

// An internal consistency check failed: a bug in dash, not in the caller's code.
class AssertionFailure : public Exception {
public:
  using Exception::Exception;
};

// An MPI call returned an error code. Carries the failing call, the code, its error class and
// the MPI library's own description of it.
class MpiError : public Exception {
public:
  MpiError(std::string call, int code, int error_class, std::string mpi_message);

  const std::string& call() const noexcept { return call_; }
  int code() const noexcept { return code_; }
  int error_class() const noexcept { return error_class_; }
  const std::string& mpi_message() const noexcept { return mpi_message_; }

private:
  std::string call_;
  int code_;
  int error_class_;
  std::string mpi_message_;
};

namespace detail {

template <class Value>
std::string to_display_string(const Value& value) {
  if constexpr (std::is_convertible_v<const Value&, std::string_view>) {
    std::string quoted(1, '\'');
    quoted += std::string_view(value);
    quoted += '\'';
    return quoted;
  } else {
    std::ostringstream out;
    out << value;
    return out.str();
  }
}

// "<function>: <lead>'<argument>' = <value><verdict>; expected <expected>"
template <class Value>
std::string argument_message(std::string_view function, std::string_view lead, std::string_view argument,
                             const Value& value, std::string_view verdict, std::string_view expected) {
  std::string message(function);
  message += ": ";
  message += lead;
  message += '\'';
  message += argument;
  message += "' = ";
  message += to_display_string(value);
  message += verdict;
  message += "; expected ";
  message += expected;
  return message;
}

}  // namespace detail

// "dash::f: invalid argument 'name' = value; expected <expected>"
template <class Value>
InvalidArgument invalid_argument(std::string_view function, std::string_view argument,
                                 const Value& value, std::string_view expected) {
  return InvalidArgument(detail::argument_message(function, "invalid argument ", argument, value, "", expected));
}

// "dash::f: argument 'name' = value is out of range; expected <expected>"
template <class Value>
OutOfRange out_of_range(std::string_view function, std::string_view argument, const Value& value,
                        std::string_view expected) {
  return OutOfRange(
      detail::argument_message(function, "argument ", argument, value, " is out of range", expected));
}

}  // namespace dash
