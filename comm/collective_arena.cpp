#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>

#include <dash/comm/config.hpp>
#include <dash/comm/detail/collective_arena.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm::detail {

namespace {

static_assert(sizeof(ArenaCounters) <= CollectiveArena::counters_bytes);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "the arena's counters live in memory shared between processes, so they must be lock-free");

// MPI_Win_allocate_shared promises no alignment beyond the basic one, and the counters want
// their own cache lines: each region starts at the first 64-byte boundary of its memory.
constexpr std::size_t region_alignment = alignof(ArenaCounters);

std::byte* aligned(void* base) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  return static_cast<std::byte*>(base) + (region_alignment - address % region_alignment) % region_alignment;
}

std::unique_ptr<CollectiveArena>& current_arena() {
  static std::unique_ptr<CollectiveArena> arena;
  return arena;
}

}  // namespace

CollectiveArena::CollectiveArena(MPI_Comm node, int machine_processes) {
  int rank = 0;
  int size = 0;
  check_mpi(MPI_Comm_dup(node, &node_), "dash::init: MPI_Comm_dup (collective arena)");
  MPI_Comm_rank(node_, &rank);
  MPI_Comm_size(node_, &size);
  rank_ = rank;
  oversubscribed_ = static_cast<unsigned>(machine_processes) > std::thread::hardware_concurrency();
  MPI_Info info = MPI_INFO_NULL;
  check_mpi(MPI_Info_create(&info), "dash::init: MPI_Info_create");
  // Each region on pages of its own, first touched by its owner.
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  std::byte* mine = nullptr;
  const int allocated = MPI_Win_allocate_shared(static_cast<MPI_Aint>(region_bytes + region_alignment), 1, info,
                                                node_, static_cast<void*>(&mine), &window_);
  MPI_Info_free(&info);
  check_mpi(allocated, "dash::init: MPI_Win_allocate_shared (collective arena)");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "dash::init: MPI_Win_lock_all (collective arena)");
  new (aligned(mine)) ArenaCounters();
  for (std::uint64_t line = 0; line < line_count; ++line) {
    new (aligned(mine) + lines_offset + line * line_stride) std::atomic<std::uint64_t>(0);
  }
  for (std::uint64_t slot = 0; slot < slot_count; ++slot) {
    new (aligned(mine) + slots_offset + slot * slot_stride) std::atomic<std::uint64_t>(0);
  }
  regions_.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    MPI_Aint bytes = 0;
    int unit = 0;
    void* base = nullptr;
    check_mpi(MPI_Win_shared_query(window_, r, &bytes, &unit, &base),
              "dash::init: MPI_Win_shared_query (collective arena)");
    regions_[static_cast<std::size_t>(r)] = aligned(base);
  }
  // Everyone's counters exist before anyone looks at them.
  MPI_Win_sync(window_);
  check_mpi(MPI_Barrier(node_), "dash::init: MPI_Barrier (collective arena)");
  MPI_Win_sync(window_);
}

CollectiveArena::~CollectiveArena() {
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
  MPI_Comm_free(&node_);
}

bool CollectiveArena::all_consumed(std::uint64_t value) noexcept {
  if (consumed_floor_ >= value) {
    asks_since_read_ = 0;
    return true;
  }
  // A writer whose ring is full asks again at once; reading the counters each time would pull the
  // readers' cache lines away from the readers it waits for (8-byte broadcasts: 126 -> 104 ns).
  // Oversubscribed, every failed ask gives the core away, which is pause enough.
  if (!oversubscribed_ && asks_since_read_++ % asks_per_read != 0) {
    return false;
  }
  std::uint64_t floor = UINT64_MAX;
  for (int peer = 0; peer < size(); ++peer) {
    if (peer != rank_) {
      floor = std::min(floor, counters(peer).consumed.load(std::memory_order_acquire));
    }
  }
  consumed_floor_ = floor;
  return floor >= value;
}

std::uint64_t CollectiveArena::take_tickets(std::uint64_t count) noexcept {
  const std::uint64_t first = next_ticket_;
  next_ticket_ += count;
  return first;
}

void CollectiveArena::enlist(CollectiveRun& run) { runs_.push_back(&run); }

void CollectiveArena::leave(CollectiveRun& run) noexcept { std::erase(runs_, &run); }

void CollectiveArena::progress_before(const CollectiveRun& run) {
  for (std::size_t i = 0; i < runs_.size() && runs_[i] != &run; ++i) {
    runs_[i]->advance();
  }
}

CollectiveArena* collective_arena() noexcept { return current_arena().get(); }

void open_collective_arena() {
  if (!config().shared_memory_access) {
    return;
  }
  const MPI_Comm base = base_comm();
  int rank = 0;
  MPI_Comm_rank(base, &rank);
  // Whether waits must yield depends on the machine's processes, wherever the nodes are.
  MPI_Comm machine = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(base, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &machine),
            "dash::init: MPI_Comm_split_type (collective arena)");
  int machine_processes = 0;
  MPI_Comm_size(machine, &machine_processes);
  MPI_Comm_free(&machine);
  // The nodes detect_nodes found (DASH_NODE_SIZE may have cut the machine's into several).
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(base, locality().node, rank, &node), "dash::init: MPI_Comm_split (collective arena)");
  try {
    current_arena() = std::make_unique<CollectiveArena>(node, machine_processes);
  } catch (...) {
    MPI_Comm_free(&node);
    throw;
  }
  MPI_Comm_free(&node);
}

void close_collective_arena() noexcept { current_arena().reset(); }

}  // namespace dash::comm::detail
