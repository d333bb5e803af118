#include "baselines/gups_mpi.hpp"

#include <algorithm>

#include <dash/comm/mpi_call.hpp>

namespace dash::bench::gups {

namespace {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  comm::check_mpi(MPI_Comm_rank(comm, &rank), "dash-bench gups baseline: MPI_Comm_rank");
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  comm::check_mpi(MPI_Comm_size(comm, &size), "dash-bench gups baseline: MPI_Comm_size");
  return size;
}

// Exclusive prefix sums of `counts` into `offsets`; returns the total.
int prefix_offsets(const std::vector<int>& counts, std::vector<int>& offsets) {
  int total = 0;
  for (std::size_t unit = 0; unit < counts.size(); ++unit) {
    offsets[unit] = total;
    total += counts[unit];
  }
  return total;
}

}  // namespace

MpiRandomAccess::MpiRandomAccess(MPI_Comm comm, std::uint64_t table_words)
    : comm_(comm),
      rank_(rank_in(comm)),
      size_(size_of(comm)),
      layout_{table_words, (table_words + static_cast<std::uint64_t>(size_) - 1) / static_cast<std::uint64_t>(size_)},
      local_begin_(std::min(table_words, layout_.block * static_cast<std::uint64_t>(rank_))),
      table_(std::min(layout_.block, table_words - local_begin_)),
      buckets_(size_),
      send_counts_(static_cast<std::size_t>(size_)),
      send_offsets_(static_cast<std::size_t>(size_)),
      receive_counts_(static_cast<std::size_t>(size_)),
      receive_offsets_(static_cast<std::size_t>(size_)),
      received_(look_ahead * static_cast<std::size_t>(size_)) {
  reset();
}

void MpiRandomAccess::run() {
  const std::uint64_t first = first_update(layout_.words, size_, rank_);
  std::uint64_t remaining = first_update(layout_.words, size_, rank_ + 1) - first;
  std::uint64_t position = stream_position(first);
  const std::size_t rounds = look_ahead_rounds(layout_.words, size_);
  for (std::size_t round = 0; round < rounds; ++round) {
    const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, look_ahead));
    remaining -= count;
    buckets_.fill(position, count, layout_);
    std::copy(buckets_.send_counts().begin(), buckets_.send_counts().end(), send_counts_.begin());
    prefix_offsets(send_counts_, send_offsets_);
    comm::check_mpi(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm_),
                    "dash-bench gups baseline: MPI_Alltoall");
    const int received = prefix_offsets(receive_counts_, receive_offsets_);
    comm::check_mpi(MPI_Alltoallv(buckets_.addresses().data(), send_counts_.data(), send_offsets_.data(),
                                  MPI_UINT64_T, received_.data(), receive_counts_.data(), receive_offsets_.data(),
                                  MPI_UINT64_T, comm_),
                    "dash-bench gups baseline: MPI_Alltoallv");
    apply_updates(std::span<const std::uint64_t>(received_.data(), static_cast<std::size_t>(received)), layout_,
                  table_);
  }
}

void MpiRandomAccess::reset() { initialise_table(table_, local_begin_); }

}  // namespace dash::bench::gups
