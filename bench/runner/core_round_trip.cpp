#include "runner/core_round_trip.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <new>
#include <thread>

#include <dash/comm/mpi_call.hpp>

namespace dash::bench {

namespace {

constexpr int round_trips_per_batch = 200;
constexpr int batches = 5;
// Polls before a wait yields its core: far more than a round trip between two cores takes
// (docs/benchmarks.md, "Core placement"), but oversubscribed ranks 0 and 1 may share one, and then
// only yielding lets the other answer.
constexpr int polls_before_yield = 4096;

void wait_for(const std::atomic<std::uint64_t>& line, std::uint64_t value) {
  for (int polls = 0; line.load(std::memory_order_acquire) != value; ++polls) {
    if (polls >= polls_before_yield) {
      std::this_thread::yield();
    }
  }
}

}  // namespace

CoreRoundTrip::CoreRoundTrip(MPI_Comm world) : world_(world) {
  comm::check_mpi(MPI_Comm_rank(world, &rank_), "dash-bench: MPI_Comm_rank");
  comm::check_mpi(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_),
                  "dash-bench: MPI_Comm_split_type");
  // Rank 0 is its node's first rank (the split keeps world order); rank 1 shares it if it is there.
  int shared = 0;
  if (rank_ == 0) {
    MPI_Group world_group = MPI_GROUP_NULL;
    MPI_Group node_group = MPI_GROUP_NULL;
    comm::check_mpi(MPI_Comm_group(world, &world_group), "dash-bench: MPI_Comm_group");
    comm::check_mpi(MPI_Comm_group(node_, &node_group), "dash-bench: MPI_Comm_group");
    int world_size = 0;
    comm::check_mpi(MPI_Comm_size(world, &world_size), "dash-bench: MPI_Comm_size");
    if (world_size > 1) {
      const int one = 1;
      int in_node = MPI_UNDEFINED;
      comm::check_mpi(MPI_Group_translate_ranks(world_group, 1, &one, node_group, &in_node),
                      "dash-bench: MPI_Group_translate_ranks");
      shared = in_node == MPI_UNDEFINED ? 0 : 1;
    }
    MPI_Group_free(&node_group);
    MPI_Group_free(&world_group);
  }
  comm::check_mpi(MPI_Bcast(&shared, 1, MPI_INT, 0, world), "dash-bench: MPI_Bcast");
  probed_ = shared == 1;

  constexpr MPI_Aint line = 64;
  void* base = nullptr;
  comm::check_mpi(MPI_Win_allocate_shared(rank_ == 0 ? 2 * line : 0, 1, MPI_INFO_NULL, node_, &base, &window_),
                  "dash-bench: MPI_Win_allocate_shared");
  MPI_Aint bytes = 0;
  int unit = 0;
  comm::check_mpi(MPI_Win_shared_query(window_, 0, &bytes, &unit, &base), "dash-bench: MPI_Win_shared_query");
  if (rank_ == 0) {
    new (base) std::atomic<std::uint64_t>(0);
    new (static_cast<std::byte*>(base) + line) std::atomic<std::uint64_t>(0);
  }
  comm::check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "dash-bench: MPI_Win_lock_all");
  comm::check_mpi(MPI_Win_sync(window_), "dash-bench: MPI_Win_sync");
  comm::check_mpi(MPI_Barrier(node_), "dash-bench: MPI_Barrier");
  comm::check_mpi(MPI_Win_sync(window_), "dash-bench: MPI_Win_sync");
  if (probed_ && rank_ <= 1) {  // elsewhere the node's window may be empty
    ping_ = std::launder(static_cast<std::atomic<std::uint64_t>*>(base));
    pong_ = std::launder(reinterpret_cast<std::atomic<std::uint64_t>*>(static_cast<std::byte*>(base) + line));
  }
}

CoreRoundTrip::~CoreRoundTrip() {
  if (window_ != MPI_WIN_NULL) {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  if (node_ != MPI_COMM_NULL) {
    MPI_Comm_free(&node_);
  }
}

double CoreRoundTrip::measure() {
  comm::check_mpi(MPI_Barrier(world_), "dash-bench: MPI_Barrier");
  if (!probed_ || rank_ > 1) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::array<double, batches> nanoseconds{};
  for (double& batch : nanoseconds) {
    const auto start = std::chrono::steady_clock::now();
    for (int trip = 0; trip < round_trips_per_batch; ++trip) {
      ++sequence_;
      if (rank_ == 0) {
        ping_->store(sequence_, std::memory_order_release);
        wait_for(*pong_, sequence_);
      } else {
        wait_for(*ping_, sequence_);
        pong_->store(sequence_, std::memory_order_release);
      }
    }
    batch = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
            round_trips_per_batch;
  }
  if (rank_ != 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::nth_element(nanoseconds.begin(), nanoseconds.begin() + batches / 2, nanoseconds.end());
  return nanoseconds[batches / 2];
}

}  // namespace dash::bench
