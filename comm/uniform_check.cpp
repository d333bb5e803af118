#include <array>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

std::uint64_t fnv1a_digest(const void* bytes, std::size_t length) noexcept {
  std::uint64_t hash = 14695981039346656037ULL;
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < length; ++i) {
    hash ^= byte[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

bool digest_is_uniform(std::uint64_t digest, MPI_Comm comm) {
  // min(d) and min(~d) = ~max(d) in one allreduce: the digests agree iff min == max.
  const std::array<std::uint64_t, 2> local{digest, ~digest};
  std::array<std::uint64_t, 2> global{};
  check_mpi(MPI_Allreduce(local.data(), global.data(), 2, MPI_UINT64_T, MPI_MIN, comm),
            "dash::comm::check_uniform: MPI_Allreduce");
  return global[0] == ~global[1];
}

void throw_not_uniform(std::string_view function, std::string_view argument,
                       const std::string& local_value, MPI_Comm comm) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  throw InvalidArgument(std::string(function) + ": argument '" + std::string(argument) +
                        "' must be the same on every rank, but the ranks passed different values "
                        "(rank " + std::to_string(rank) + " passed " + local_value + ")");
}

}  // namespace dash::comm::detail

namespace dash::comm {

PendingUniformCheck::PendingUniformCheck(std::uint64_t digest, std::string function, std::string argument,
                                         std::string local_value, MPI_Comm comm)
    : local_{digest, ~digest},
      function_(std::move(function)),
      argument_(std::move(argument)),
      local_value_(std::move(local_value)),
      comm_(comm) {
  check_mpi(MPI_Iallreduce(local_, global_, 2, MPI_UINT64_T, MPI_MIN, comm_, &request_),
            function_ + ": MPI_Iallreduce (cross-rank argument check)");
}

PendingUniformCheck::~PendingUniformCheck() {
  if (request_ != MPI_REQUEST_NULL) {
    MPI_Wait(&request_, MPI_STATUS_IGNORE);
  }
}

bool PendingUniformCheck::test() {
  if (request_ != MPI_REQUEST_NULL) {
    int done = 0;
    check_mpi(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), function_ + ": MPI_Test (cross-rank argument check)");
    if (!done) {
      return false;
    }
  }
  if (global_[0] != ~global_[1]) {
    detail::throw_not_uniform(function_, argument_, local_value_, comm_);
  }
  return true;
}

}  // namespace dash::comm
