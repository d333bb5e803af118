#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

std::uint64_t fnv1a_hash(const void* bytes, std::size_t length) noexcept {
  std::uint64_t hash = 14695981039346656037ULL;
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < length; ++i) {
    hash ^= byte[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

bool hash_is_uniform(std::uint64_t hash, MPI_Comm comm) {
  // min(d) and min(~d) = ~max(d) in one allreduce: the hashes agree iff min == max.
  const std::array<std::uint64_t, 2> local{hash, ~hash};
  std::array<std::uint64_t, 2> global{};
  check_mpi(MPI_Allreduce(local.data(), global.data(), 2, MPI_UINT64_T, MPI_MIN, comm),
            "dash::comm::check_uniform: MPI_Allreduce");
  return global[0] == ~global[1];
}

void throw_not_uniform(std::string_view function, std::string_view argument,
                       const std::string& local_value, int rank) {
  throw InvalidArgument(std::string(function) + ": argument '" + std::string(argument) +
                        "' must be the same on every rank, but the ranks passed different values "
                        "(rank " + std::to_string(rank) + " passed " + local_value + ")");
}

void throw_not_uniform_on(std::string_view function, std::string_view argument,
                          const std::string& local_value, MPI_Comm comm) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  throw_not_uniform(function, argument, local_value, rank);
}

}  // namespace dash::comm::detail

namespace dash::comm {

PendingUniformCheck::PendingUniformCheck(std::uint64_t hash, std::string function, std::string argument,
                                         std::string local_value, const Group& group)
    : group_(group),
      tag_(group.next_tag()),
      rounds_(static_cast<int>(std::bit_width(static_cast<unsigned>(group.size() - 1)))),
      minimum_{hash, ~hash},
      function_(std::move(function)),
      argument_(std::move(argument)),
      local_value_(std::move(local_value)) {
  if (rounds_ > 0) {
    start_round();
  }
}

PendingUniformCheck::~PendingUniformCheck() {
  try {
    while (round_ < rounds_) {
      check_mpi(MPI_Waitall(2, requests_, MPI_STATUSES_IGNORE), function_ + ": MPI_Waitall (cross-rank argument check)");
      finish_round();
    }
  } catch (const std::exception& error) {
    log(LogLevel::error, "a cross-rank argument check failed while it was destroyed: ", error.what());
  }
}

void PendingUniformCheck::start_round() {
  const int p = group_.size();
  const int me = group_.rank();
  const int distance = 1 << round_;  // < p
  const MPI_Comm comm = group_.comm();
  check_mpi(MPI_Irecv(incoming_, 2, MPI_UINT64_T, group_.base_rank((me - distance + p) % p), tag_, comm,
                      &requests_[0]),
            function_ + ": MPI_Irecv (cross-rank argument check)");
  check_mpi(MPI_Isend(minimum_, 2, MPI_UINT64_T, group_.base_rank((me + distance) % p), tag_, comm, &requests_[1]),
            function_ + ": MPI_Isend (cross-rank argument check)");
}

void PendingUniformCheck::finish_round() {
  minimum_[0] = std::min(minimum_[0], incoming_[0]);
  minimum_[1] = std::min(minimum_[1], incoming_[1]);
  if (++round_ < rounds_) {
    start_round();
  }
}

bool PendingUniformCheck::test() {
  while (round_ < rounds_) {
    int done = 0;
    check_mpi(MPI_Testall(2, requests_, &done, MPI_STATUSES_IGNORE),
              function_ + ": MPI_Testall (cross-rank argument check)");
    if (!done) {
      return false;
    }
    finish_round();
  }
  if (minimum_[0] != ~minimum_[1]) {
    detail::throw_not_uniform(function_, argument_, local_value_, group_.rank());
  }
  return true;
}

}  // namespace dash::comm
