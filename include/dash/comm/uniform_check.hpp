#pragma once
// Cross-rank consistency checks: arguments of a collective that must be equal on every rank
// (counts, roots, algorithm choices) are compared across the communicator.
//
// check_uniform always runs; check_uniform_if_enabled runs only in builds configured with
// DASH_CROSS_RANK_CHECKS=ON (CI builds that way) because it costs an allreduce. When the values
// differ, every rank throws dash::InvalidArgument, so no rank is left waiting in a later
// collective.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include <mpi.h>

namespace dash::comm {

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
inline constexpr bool cross_rank_checks_enabled = true;
#else
inline constexpr bool cross_rank_checks_enabled = false;
#endif

namespace detail {
// Collective: true when every rank of `comm` passed the same 64-bit digest.
bool digest_is_uniform(std::uint64_t digest, MPI_Comm comm);
std::uint64_t fnv1a_digest(const void* bytes, std::size_t length) noexcept;
[[noreturn]] void throw_not_uniform(std::string_view function, std::string_view argument,
                                    const std::string& local_value, MPI_Comm comm);
}  // namespace detail

// Collective over `comm`: throws dash::InvalidArgument on every rank unless `value` is bitwise
// equal on all ranks. Cost: one allreduce of 16 bytes.
template <class T>
void check_uniform(const T& value, std::string_view function, std::string_view argument,
                   MPI_Comm comm) {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::comm::check_uniform compares object bytes, so it needs a trivially "
                "copyable value type");
  if (detail::digest_is_uniform(detail::fnv1a_digest(&value, sizeof value), comm)) {
    return;
  }
  std::ostringstream local;
  if constexpr (requires(std::ostream& out) { out << value; }) {
    local << value;
  } else {
    local << "<" << sizeof value << "-byte value>";
  }
  detail::throw_not_uniform(function, argument, local.str(), comm);
}

// As check_uniform, in builds with DASH_CROSS_RANK_CHECKS=ON; does nothing (and communicates
// nothing) otherwise.
template <class T>
void check_uniform_if_enabled(const T& value, std::string_view function, std::string_view argument,
                              MPI_Comm comm) {
  if constexpr (cross_rank_checks_enabled) {
    check_uniform(value, function, argument, comm);
  }
}

}  // namespace dash::comm
