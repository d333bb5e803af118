// The node's collective arena (comm/arena/collective_arena.hpp; docs/collectives.md,
// "Shared-memory collectives").
//
// Map: layout checks and region alignment; move_process_memory (cross-memory copies) and its error;
// CollectiveArena: the constructor (the shared window, counters, regions), open_single_copy (whether
// the node may read and write across processes), read_from / write_to, the team channels' claims;
// ArenaChannel (a group's members in a channel, all_consumed); the runs' list and progress_others;
// open_collective_arena / close_collective_arena at dash::init and finalize.

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <thread>

#if defined(__linux__)
#include <sys/uio.h>
#include <unistd.h>
#endif

#include <dash/comm/config.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/collective_arena.hpp"
#include "arena/mapped_memory.hpp"
#include "engine/bulk_copy.hpp"
#include "runtime/collective_outcome.hpp"

namespace dash::comm::detail {

namespace {

static_assert(sizeof(ArenaCounters) <= CollectiveArena::packed_offset);
static_assert(CollectiveArena::packed_offset + CollectiveArena::packed_count * CollectiveArena::packed_stride <=
              CollectiveArena::counters_bytes);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "the arena's counters live in memory shared between processes, so they must be lock-free");

// MPI_Win_allocate_shared promises no alignment beyond the basic one, and the counters want
// their own cache lines: each region starts at the first 64-byte boundary of its memory.
constexpr std::size_t region_alignment = alignof(ArenaCounters);

std::byte* aligned(void* base) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  return static_cast<std::byte*>(base) + (region_alignment - address % region_alignment) % region_alignment;
}

// Which way a cross-memory copy goes.
enum class Direction { read, write };

// Copies `bytes` between `local` and process `process_id`'s memory at `remote` (read: from there,
// write: to there); the errno of a refusal, or 0. The kernel may copy less than asked (a page it
// cannot fault in): the rest is asked again.
int move_process_memory(Direction direction, std::int64_t process_id, std::byte* remote, std::byte* local,
                        std::size_t bytes) noexcept {
#if defined(__linux__)
  while (bytes > 0) {
    iovec here{local, bytes};
    iovec there{remote, bytes};
    const auto pid = static_cast<pid_t>(process_id);
    const ssize_t moved = direction == Direction::read ? process_vm_readv(pid, &here, 1, &there, 1, 0)
                                                       : process_vm_writev(pid, &here, 1, &there, 1, 0);
    if (moved <= 0) {
      if (moved < 0 && errno == EINTR) {
        continue;
      }
      return moved < 0 ? errno : EFAULT;
    }
    local += moved;
    remote += moved;
    bytes -= static_cast<std::size_t>(moved);
  }
  return 0;
#else
  return bytes > 0 ? ENOSYS : 0;
#endif
}

[[noreturn]] void throw_refused(std::string_view verb, std::string_view call, int node_rank, std::size_t bytes,
                                int error) {
  throw InvalidState("dash::comm: " + std::string(verb) + " " + std::to_string(bytes) + " bytes of node process " +
                     std::to_string(node_rank) + "'s buffer with " + std::string(call) + " failed: " +
                     std::strerror(error) +
                     " (it worked when the arena opened; DASH_SINGLE_COPY=0 stages every chunk in shared memory "
                     "instead)");
}

std::unique_ptr<CollectiveArena>& current_arena() {
  static std::unique_ptr<CollectiveArena> arena;
  return arena;
}

}  // namespace

CollectiveArena::CollectiveArena(MPI_Comm node, int machine_processes, int team_channels)
    : team_channels_(team_channels) {
  int rank = 0;
  int size = 0;
  check_mpi(MPI_Comm_dup(node, &node_), "dash::init: MPI_Comm_dup (collective arena)");
  MPI_Comm_rank(node_, &rank);
  MPI_Comm_size(node_, &size);
  rank_ = rank;
  const int channels = 1 + team_channels;
  const std::size_t region_bytes = static_cast<std::size_t>(channels) * channel_bytes;
  oversubscribed_ = static_cast<unsigned>(machine_processes) > std::thread::hardware_concurrency();
  MPI_Info info = MPI_INFO_NULL;
  check_mpi(MPI_Info_create(&info), "dash::init: MPI_Info_create");
  // Each region on pages of its own, first touched by its owner.
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  std::byte* mine = nullptr;
  const int allocated = MPI_Win_allocate_shared(static_cast<MPI_Aint>(region_bytes + region_alignment), 1, info,
                                                node_, static_cast<void*>(&mine), &window_);
  MPI_Info_free(&info);
  // Every process of the job unwinds dash::init together if some node could not allocate.
  if (!succeeded_on_every_member(allocated, base_comm())) {
    if (succeeded_on_every_member(allocated, node_)) {
      MPI_Win_free(&window_);
    }
    MPI_Comm_free(&node_);
    throw_failed_on_some_member(allocated, "dash::init: MPI_Win_allocate_shared (collective arena)");
  }
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "dash::init: MPI_Win_lock_all (collective arena)");
  for (int channel = 0; channel < channels; ++channel) {
    std::byte* start = aligned(mine) + static_cast<std::size_t>(channel) * channel_bytes;
    new (start) ArenaCounters();
    for (const Ring ring : {Ring::packed, Ring::lines, Ring::slots}) {
      for (std::uint64_t ticket = 0; ticket < depth(ring); ++ticket) {
        new (entry(start, ticket, ring)) std::atomic<std::uint64_t>(0);
      }
    }
  }
  auto* my_counters = std::launder(reinterpret_cast<ArenaCounters*>(aligned(mine)));
  my_counters->process_id = this_process_id();
  my_counters->own_address = reinterpret_cast<std::uintptr_t>(aligned(mine));
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
  open_single_copy();
  std::vector<int> everyone(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    everyone[static_cast<std::size_t>(r)] = r;
  }
  world_channel_ = std::make_unique<ArenaChannel>(*this, 0, std::move(everyone), rank);
}

// Every process reads each other's `own_address` through the kernel, compares it with what the
// shared window shows and writes it back: a kernel without cross-memory attach, a seccomp filter
// or a ptrace policy that forbids either turns single copy off for the whole node.
void CollectiveArena::open_single_copy() {
  process_ids_.resize(regions_.size());
  int works = config().single_copy ? 1 : 0;
  for (int r = 0; r < size(); ++r) {
    const ArenaCounters& peer = counters(r);
    process_ids_[static_cast<std::size_t>(r)] = peer.process_id;
    if (r == rank_ || works == 0) {
      continue;
    }
    const auto field = reinterpret_cast<const std::byte*>(&peer.own_address) - regions_[static_cast<std::size_t>(r)];
    auto* remote = reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(peer.own_address)) + field;
    std::uint64_t seen = 0;
    auto* probe = reinterpret_cast<std::byte*>(&seen);
    works = move_process_memory(Direction::read, peer.process_id, remote, probe, sizeof seen) == 0 &&
            seen == peer.own_address;
    // Writing it back changes no byte of the peer's memory, yet needs the right to write there.
    works = works && move_process_memory(Direction::write, peer.process_id, remote, probe, sizeof seen) == 0;
  }
  int everywhere = 0;
  check_mpi(MPI_Allreduce(&works, &everywhere, 1, MPI_INT, MPI_MIN, node_),
            "dash::init: MPI_Allreduce (collective arena)");
  single_copy_ = everywhere == 1;
}

void CollectiveArena::read_from(int node_rank, const std::byte* remote, std::byte* local, std::size_t bytes) const {
  if (const std::byte* here = mapped_here(process_ids_[static_cast<std::size_t>(node_rank)], remote, bytes)) {
    bulk_copy(local, here, bytes);
    return;
  }
  const int refused = move_process_memory(Direction::read, process_ids_[static_cast<std::size_t>(node_rank)],
                                          const_cast<std::byte*>(remote), local, bytes);
  if (refused != 0) {
    throw_refused("reading", "process_vm_readv", node_rank, bytes, refused);
  }
}

void CollectiveArena::write_to(int node_rank, std::byte* remote, const std::byte* local, std::size_t bytes) const {
  if (std::byte* here = mapped_here(process_ids_[static_cast<std::size_t>(node_rank)], remote, bytes)) {
    bulk_copy(here, local, bytes);
    return;
  }
  const int refused = move_process_memory(Direction::write, process_ids_[static_cast<std::size_t>(node_rank)], remote,
                                          const_cast<std::byte*>(local), bytes);
  if (refused != 0) {
    throw_refused("writing", "process_vm_writev", node_rank, bytes, refused);
  }
}

CollectiveArena::~CollectiveArena() {
  for (CollectiveRun* run : runs_) {
    run->arena_closed();
  }
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
  MPI_Comm_free(&node_);
}

void CollectiveArena::claim_team_channel(int channel) noexcept {
  taken_team_channels_ |= std::uint64_t{1} << (channel - 1);
}

void CollectiveArena::release_team_channel(int channel) noexcept {
  std::byte* start = channel_start(rank_, channel);
  ArenaCounters& mine = counters(rank_, channel);
  mine.staged.store(0, std::memory_order_release);
  mine.reduced.store(0, std::memory_order_release);
  mine.consumed.store(0, std::memory_order_release);
  const auto clear_stamps = [start](Ring ring) {
    for (std::uint64_t ticket = 0; ticket < depth(ring); ++ticket) {
      std::launder(reinterpret_cast<std::atomic<std::uint64_t>*>(entry(start, ticket, ring)))
          ->store(0, std::memory_order_release);
    }
  };
  clear_stamps(Ring::packed);
  clear_stamps(Ring::lines);
  clear_stamps(Ring::slots);
  taken_team_channels_ &= ~(std::uint64_t{1} << (channel - 1));
}

ArenaChannel::ArenaChannel(CollectiveArena& arena, int channel, std::vector<int> node_ranks, int member)
    : arena_(&arena), node_ranks_(std::move(node_ranks)), channel_(channel), member_(member) {
  process_ids_.reserve(node_ranks_.size());
  starts_.reserve(node_ranks_.size());
  for (const int node_rank : node_ranks_) {
    process_ids_.push_back(arena.process_ids()[static_cast<std::size_t>(node_rank)]);
    starts_.push_back(arena.channel_start(node_rank, channel));
  }
}

bool ArenaChannel::all_consumed(std::uint64_t value) noexcept {
  if (consumed_floor_ >= value) {
    asks_since_read_ = 0;
    return true;
  }
  // A writer whose ring is full asks again at once; reading the counters each time would pull the
  // readers' cache lines away from the readers it waits for (docs/collectives.md, "Shared-memory
  // collectives", has the measurement behind asks_per_read).
  // Oversubscribed, every failed ask gives the core away, which is pause enough.
  if (!arena_->oversubscribed() && asks_since_read_++ % asks_per_read != 0) {
    return false;
  }
  std::uint64_t floor = UINT64_MAX;
  for (int other = 0; other < size(); ++other) {
    if (other != member_) {
      floor = std::min(floor, counters(other).consumed.load(std::memory_order_acquire));
    }
  }
  consumed_floor_ = floor;
  return floor >= value;
}

void CollectiveArena::enlist(CollectiveRun& run) { runs_.push_back(&run); }

void CollectiveArena::leave(CollectiveRun& run) noexcept { std::erase(runs_, &run); }

bool CollectiveArena::has_unfinished_runs() const noexcept {
  return std::any_of(runs_.begin(), runs_.end(), [](const CollectiveRun* run) { return !run->done(); });
}

void CollectiveArena::progress_others(const CollectiveRun* run) {
  for (CollectiveRun* other : runs_) {
    if (other != run) {
      other->advance();
    }
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
    current_arena() = std::make_unique<CollectiveArena>(node, machine_processes, config().arena_team_channels);
  } catch (...) {
    MPI_Comm_free(&node);
    throw;
  }
  MPI_Comm_free(&node);
}

void close_collective_arena() noexcept { current_arena().reset(); }

}  // namespace dash::comm::detail
