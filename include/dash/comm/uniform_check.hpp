#pragma once
// Cross-rank consistency checks: arguments of a collective that must be equal on every rank
// (counts, roots, algorithm choices) are compared across a communicator (check_uniform) or the
// members of a group (PendingUniformCheck, which the collectives use).
//
// check_uniform always runs; check_uniform_if_enabled runs only in builds configured with
// DASH_CROSS_RANK_CHECKS=ON (CI builds that way) because it costs an allreduce. When the values
// differ, every rank throws dash::InvalidArgument, so no rank is left waiting in a later
// collective.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include <mpi.h>

#include <dash/comm/group.hpp>

namespace dash::comm {

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
inline constexpr bool cross_rank_checks_enabled = true;
#else
inline constexpr bool cross_rank_checks_enabled = false;
#endif

namespace detail {
// Collective: true when every rank of `comm` passed the same 64-bit hash.
bool hash_is_uniform(std::uint64_t hash, MPI_Comm comm);
std::uint64_t fnv1a_hash(const void* bytes, std::size_t length) noexcept;
[[noreturn]] void throw_not_uniform(std::string_view function, std::string_view argument,
                                    const std::string& local_value, int rank);
// Names the rank within `comm`. A name of its own: MPICH's MPI_Comm is an int.
[[noreturn]] void throw_not_uniform_on(std::string_view function, std::string_view argument,
                                       const std::string& local_value, MPI_Comm comm);
}  // namespace detail

// The key check_uniform compares: 64 bits of `value`'s bytes, for agreements that fold "the same on
// every member" into a reduction of their own (dash::Team's splits agree on the call and on a
// concern in one allreduce). Equal values give equal keys; unequal ones differ but with
// probability 2^-64.
template <class T>
std::uint64_t uniform_key(const T& value) noexcept {
  static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>,
                "dash::comm::uniform_key hashes object bytes, so the value type must be trivially copyable "
                "and have no padding bytes (their contents differ between ranks)");
  return detail::fnv1a_hash(&value, sizeof value);
}

// Collective over `comm`: throws dash::InvalidArgument on every rank unless `value` is bitwise
// equal on all ranks. Cost: one allreduce of 16 bytes.
template <class T>
void check_uniform(const T& value, std::string_view function, std::string_view argument,
                   MPI_Comm comm) {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::comm::check_uniform compares object bytes, so it needs a trivially "
                "copyable value type");
  static_assert(std::has_unique_object_representations_v<T> ||
                    std::is_floating_point_v<std::remove_all_extents_t<T>>,
                "dash::comm::check_uniform compares object bytes, so the value type must have no "
                "padding bytes (their contents differ between ranks)");
  if (detail::hash_is_uniform(detail::fnv1a_hash(&value, sizeof value), comm)) {
    return;
  }
  std::ostringstream local;
  if constexpr (requires(std::ostream& out) { out << value; }) {
    local << value;
  } else {
    local << "<" << sizeof value << "-byte value>";
  }
  detail::throw_not_uniform_on(function, argument, local.str(), comm);
}

// The non-blocking form of check_uniform, for collectives on any group: it starts the comparison
// without waiting for the other members, so checking does not synchronise them before the
// collective starts. The comparison runs through the group itself, point to point on its base
// communicator with a tag it takes from the group's sequence, so it involves only the members and,
// like the group's collectives, never matches another group's messages.
// Dissemination: in round k each member sends its running minimum to rank + 2^k and receives from
// rank - 2^k (mod p); min is idempotent, so after ceil(lg p) rounds every member holds the minimum of
// all, for any p. Cost: ceil(lg p) messages of 16 bytes per member. Not copyable or movable (MPI
// writes into it while pending).
class PendingUniformCheck {
public:
  PendingUniformCheck(std::uint64_t hash, std::string function, std::string argument, std::string local_value,
                      const Group& group);
  // Completes the comparison if it is still pending (the other members need this member's messages).
  ~PendingUniformCheck();
  PendingUniformCheck(const PendingUniformCheck&) = delete;
  PendingUniformCheck& operator=(const PendingUniformCheck&) = delete;

  // True once the comparison completed; throws dash::InvalidArgument (on every member) if the
  // members passed different values.
  bool test();

  // The tag its messages use, taken from the group's sequence.
  int tag() const noexcept { return tag_; }

private:
  void start_round();
  // Folds the completed round in and starts the next, if any.
  void finish_round();

  Group group_;
  int tag_;
  int rounds_;
  int round_ = 0;
  std::uint64_t minimum_[2];  // min(hash) and min(~hash) = ~max(hash) over the members seen so far
  std::uint64_t incoming_[2] = {0, 0};
  MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::string function_;
  std::string argument_;
  std::string local_value_;
};

template <class T>
std::unique_ptr<PendingUniformCheck> start_uniform_check(const T& value, std::string_view function,
                                                         std::string_view argument, const Group& group) {
  static_assert(std::has_unique_object_representations_v<T>,
                "dash::comm::start_uniform_check compares object bytes, so the value type must have no "
                "padding bytes");
  return std::make_unique<PendingUniformCheck>(detail::fnv1a_hash(&value, sizeof value), std::string(function),
                                               std::string(argument), "<" + std::to_string(sizeof value) + "-byte value>",
                                               group);
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
