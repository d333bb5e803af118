#pragma once
// Internal: whether a completed receive brought the bytes it expects. MPI completes the receive of
// a shorter message without complaint and cuts a longer one to the receive's size (MPI_ERR_TRUNCATE
// in its status): unless the status is read, the receiver goes on with stale or cut-off data.

#include <climits>
#include <cstddef>
#include <string>

#include <mpi.h>

namespace dash::comm::detail {

// What a receive of `expected` bytes got when that differs: its byte count, or "more" when MPI cut
// the message (`truncated`) or it exceeds int counts; "" when it got `expected` bytes (or may have,
// beyond int counts). Counts MPI_BYTE, of which every datatype the library receives with is made
// (MPI_Get_elements_x would count further, but SimGrid's SMPI lacks it).
inline std::string unexpected_received_bytes(const MPI_Status& status, bool truncated, std::size_t expected) {
  if (truncated) {
    return "more";
  }
  MPI_Status copy = status;  // MPI-2 signatures (SMPI's) take a non-const status
  int received = 0;
  MPI_Get_count(&copy, MPI_BYTE, &received);
  if (received == MPI_UNDEFINED) {
    return expected <= static_cast<std::size_t>(INT_MAX) ? "more" : "";
  }
  return static_cast<std::size_t>(received) == expected ? "" : std::to_string(received);
}

}  // namespace dash::comm::detail
