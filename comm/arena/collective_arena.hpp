#pragma once
// Internal: the node-shared memory the intra-node collectives work in (Mamidala et al. §IV, adapted
// to MPI-3 shared windows; docs/collectives.md "Shared-memory collectives").
//
// dash::init allocates one region per process with MPI_Win_allocate_shared over the processes of
// its node (as locality() counts them), cut into channels: channel 0 serves the world group, the
// DASH_ARENA_CHANNELS others teams (ArenaChannel below; a team takes one free on all its members
// when it is made, groups/group_paths.hpp). A channel holds three progress counters, each
// on a cache line of its own (channel 0 also the owner's process id and address of the region, for
// cross-memory reads) and a ring of `packed_count` packed entries of 16 bytes in the same page, then a
// ring of `line_count` lines of two cache lines each, then `slot_count` slots of `slot_bytes` of data.
// A slot, line or entry starts with its stamp, the ticket + 1 of the chunk it holds, stored after the chunk:
// a short chunk shares the stamp's cache lines, so a reader that sees the stamp has the data with
// the same transfer. Chunks of at most `line_bytes` live in the lines: the deeper ring lets a
// broadcast's root run many short calls ahead of its readers, as an eager send would; a line is two
// cache lines long so that 64-byte chunks, slower from a slot, fit it too (docs/collectives.md,
// "Shared-memory collectives"). A collective numbers its chunks with
// tickets taken from one sequence per channel that its processes advance alike (the members of a
// group call its collectives in the same order), so counters only ever grow: they are never reset
// between calls, and a counter left behind by an earlier call can never satisfy a later one. A
// team's channel is zeroed when the team is freed, after the barrier that ends every member's use
// of it, and before this process offers it to another team.
// Chunk ticket t lives in slot t % slot_count, line t % line_count or entry t % packed_count.
//
// Counters are std::atomic<std::uint64_t>: lock-free, hence address-free, so processes mapping
// the same page may use them; stores that publish data are release stores, the loads that look
// for them acquire loads. MPI's unified memory model of shared windows makes that enough; the
// window is synchronised (MPI_Win_sync) once after the counters are constructed.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <mpi.h>

namespace dash::comm::detail {

struct ArenaCounters {
  // Tickets below it are staged: the owner's slot holds its data for them.
  alignas(64) std::atomic<std::uint64_t> staged{0};
  // Tickets below it are reduced: the owner's share of the combination is in its slot.
  alignas(64) std::atomic<std::uint64_t> reduced{0};
  // Tickets below it are consumed: the owner read all it needed from the others' slots.
  alignas(64) std::atomic<std::uint64_t> consumed{0};
  // The owner's process id and this region's address in the owner's address space, written once
  // before the arena opens: what a cross-memory read of the owner's buffers needs.
  alignas(64) std::int64_t process_id = 0;
  std::uint64_t own_address = 0;
};

class ArenaChannel;
class CollectiveRun;

// Where a run's chunks live: the slots, the lines for chunks of at most line_bytes, or the packed
// entries for broadcasts of at most packed_bytes.
enum class Ring { slots, lines, packed };

class CollectiveArena {
public:
  static constexpr std::size_t slot_bytes = std::size_t{256} * 1024;
  static constexpr std::uint64_t slot_count = 4;
  static constexpr std::size_t stamp_bytes = sizeof(std::uint64_t);
  // Stamp, data, then a note of the rest of the last cache line: slots start on cache lines of
  // their own. The note carries facts about the slot's chunk that its data does not (which buffers
  // the owner lends), published with the stamp like the data.
  static constexpr std::size_t slot_stride = slot_bytes + 64;
  static constexpr std::size_t note_bytes = slot_stride - stamp_bytes - slot_bytes;
  static constexpr std::size_t line_stride = 128;  // two cache lines: a stamp and 120 bytes
  static constexpr std::uint64_t line_count = 64;
  static constexpr std::size_t line_bytes = line_stride - stamp_bytes;
  // Packed entries of a stamp and 8 bytes, four to a cache line: a broadcast's root that runs
  // ahead fills a whole line before its readers fetch it, so a reader takes one line transfer per
  // four 8-byte broadcasts, as Open MPI's eager messages share their receive buffer's lines.
  static constexpr std::size_t packed_stride = 16;
  static constexpr std::uint64_t packed_count = 64;
  static constexpr std::size_t packed_bytes = packed_stride - stamp_bytes;
  // A channel's counters and its packed entries take its first 4 KiB, the lines the next, the
  // slots follow.
  static constexpr std::size_t packed_offset = 1024;
  static constexpr std::size_t counters_bytes = 4096;
  static constexpr std::size_t lines_offset = counters_bytes;
  static constexpr std::size_t slots_offset = lines_offset + line_count * line_stride;
  static constexpr std::size_t channel_bytes = slots_offset + slot_count * slot_stride;
  // Team channels a region can hold at most (a team's agreement combines one bit per channel).
  static constexpr int max_team_channels = 64;

  // Tickets in flight per ring: ticket t may be staged once every process consumed t - depth.
  static constexpr std::uint64_t depth(Ring ring) noexcept {
    return ring == Ring::lines ? line_count : ring == Ring::packed ? packed_count : slot_count;
  }

  // Collective over `node`: every member allocates its region of the world channel and
  // `team_channels` channels for teams. `machine_processes` share the machine's cores (more than
  // `node` has when DASH_NODE_SIZE cuts a machine into nodes).
  CollectiveArena(MPI_Comm node, int machine_processes, int team_channels);
  ~CollectiveArena();
  CollectiveArena(const CollectiveArena&) = delete;
  CollectiveArena& operator=(const CollectiveArena&) = delete;

  int size() const noexcept { return static_cast<int>(regions_.size()); }
  // More processes on the machine than cores: a waiting process must give its core away at once.
  bool oversubscribed() const noexcept { return oversubscribed_; }
  ArenaCounters& counters(int node_rank, int channel = 0) const noexcept {
    return *std::launder(reinterpret_cast<ArenaCounters*>(channel_start(node_rank, channel)));
  }
  // Where channel `channel` of process `node_rank`'s region starts, and where the line or slot of
  // `ticket` (its stamp) lies in a channel that starts at `start`.
  std::byte* channel_start(int node_rank, int channel) const noexcept {
    return regions_[static_cast<std::size_t>(node_rank)] + static_cast<std::size_t>(channel) * channel_bytes;
  }
  static std::byte* entry(std::byte* start, std::uint64_t ticket, Ring ring) noexcept {
    switch (ring) {
      case Ring::lines:
        return start + lines_offset + ticket % line_count * line_stride;
      case Ring::packed:
        return start + packed_offset + ticket % packed_count * packed_stride;
      default:
        return start + slots_offset + ticket % slot_count * slot_stride;
    }
  }

  // The world group's channel (channel 0, every process of the node).
  ArenaChannel& world_channel() noexcept { return *world_channel_; }
  // Team channels 1 .. team_channels() of this process: bit c - 1 of taken_team_channels() is set
  // while a live team of this process holds channel c. A team claims the channel its members agreed
  // on; release_team_channel zeroes this process's counters and stamps there first (no process may
  // look at them any more: Team::free's barrier), so the next team starts at ticket 0.
  int team_channels() const noexcept { return team_channels_; }
  std::uint64_t taken_team_channels() const noexcept { return taken_team_channels_; }
  void claim_team_channel(int channel) noexcept;
  void release_team_channel(int channel) noexcept;

  // Whether this node's processes may read and write each other's memory with process_vm_readv
  // and process_vm_writev (Linux cross-memory attach): tried on every pair when the arena opens,
  // and DASH_SINGLE_COPY=1.
  bool single_copy() const noexcept { return single_copy_; }
  // Every process's id, in node rank order.
  const std::vector<std::int64_t>& process_ids() const noexcept { return process_ids_; }
  // Copies `bytes` at `remote`, an address in process `node_rank`'s address space, to `local`
  // (read_from), or from `local` to there (write_to): with plain loads and stores where this process
  // maps that memory too (a NodeWindow's, arena/mapped_memory.hpp), else through the kernel. Throw
  // dash::InvalidState if the kernel refuses.
  void read_from(int node_rank, const std::byte* remote, std::byte* local, std::size_t bytes) const;
  void write_to(int node_rank, std::byte* remote, const std::byte* local, std::size_t bytes) const;

  // The runs of this process, in the order they started. A run may wait for a slot an earlier run
  // of its channel still reads from, and for other processes that wait for a run of another
  // channel (the members of different groups may start their collectives in different orders),
  // so progress on any run first drives all the others (progress_others).
  void enlist(CollectiveRun& run);
  void leave(CollectiveRun& run) noexcept;
  void progress_others(const CollectiveRun* run);
  // Whether a run of this process has not finished.
  bool has_unfinished_runs() const noexcept;

private:
  void open_single_copy();


  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  std::vector<std::byte*> regions_;
  std::vector<CollectiveRun*> runs_;
  bool oversubscribed_ = false;
  bool single_copy_ = false;
  int team_channels_ = 0;
  std::uint64_t taken_team_channels_ = 0;
  std::vector<std::int64_t> process_ids_;
  int rank_ = 0;
  std::unique_ptr<ArenaChannel> world_channel_;
};

// The processes of one group that meet in a channel of their regions, and the ticket sequence they
// share there: the world group's on channel 0 (its ranks are the node ranks), a team's members on
// one node on the channel the team agreed on when it was made (groups/group_paths.hpp).
class ArenaChannel {
public:
  // `node_ranks`: the node rank of each member, in group rank order; `member` is the caller's.
  ArenaChannel(CollectiveArena& arena, int channel, std::vector<int> node_ranks, int member);

  int size() const noexcept { return static_cast<int>(node_ranks_.size()); }
  int member() const noexcept { return member_; }
  int channel() const noexcept { return channel_; }
  int node_rank(int member) const noexcept { return node_ranks_[static_cast<std::size_t>(member)]; }
  // Every member's process id, in member order.
  const std::vector<std::int64_t>& process_ids() const noexcept { return process_ids_; }

  // Member `member`'s part of the channel: its counters, the data of the slot (line) that holds
  // `ticket`, the slot's note and its stamp (ticket + 1 once the owner staged it). Each member's
  // start is kept: a run's polling loop translates no ranks.
  ArenaCounters& counters(int member) const noexcept {
    return *std::launder(reinterpret_cast<ArenaCounters*>(starts_[static_cast<std::size_t>(member)]));
  }
  std::byte* slot(int member, std::uint64_t ticket, Ring ring) const noexcept {
    return CollectiveArena::entry(starts_[static_cast<std::size_t>(member)], ticket, ring) +
           CollectiveArena::stamp_bytes;
  }
  std::byte* note(int member, std::uint64_t ticket) const noexcept {
    return slot(member, ticket, Ring::slots) + CollectiveArena::slot_bytes;
  }
  std::atomic<std::uint64_t>& stamp(int member, std::uint64_t ticket, Ring ring) const noexcept {
    return *std::launder(reinterpret_cast<std::atomic<std::uint64_t>*>(
        CollectiveArena::entry(starts_[static_cast<std::size_t>(member)], ticket, ring)));
  }

  // The first of `count` consecutive tickets for the group's next collective.
  std::uint64_t take_tickets(std::uint64_t count) noexcept {
    const std::uint64_t first = next_ticket_;
    next_ticket_ += count;
    return first;
  }

  // Runs of this process in the channel that have not finished (dash::Team::free refuses to free
  // a team whose channel a run still uses).
  int running() const noexcept { return running_; }
  void run_started() noexcept { ++running_; }
  void run_finished() noexcept { --running_; }

  // Whether every other member's `consumed` reached `value`. Counters only grow, so the lowest
  // one seen last time answers most asks without touching the others' cache lines; while it does
  // not, the counters are read again only every asks_per_read-th ask.
  static constexpr unsigned asks_per_read = 16;
  bool all_consumed(std::uint64_t value) noexcept;

private:
  CollectiveArena* arena_;
  std::vector<int> node_ranks_;
  std::vector<std::int64_t> process_ids_;
  std::vector<std::byte*> starts_;  // of each member's part
  int channel_;
  int member_;
  std::uint64_t next_ticket_ = 0;
  int running_ = 0;
  std::uint64_t consumed_floor_ = 0;
  unsigned asks_since_read_ = 0;
};

// A collective running in the arena (shared_memory_run.hpp).
class CollectiveRun {
public:
  virtual bool advance() = 0;  // one round of progress without blocking; true when complete
  virtual bool done() const noexcept = 0;
  // The arena is closing (dash::finalize) while the run's request still lives: the run must not
  // touch the arena again, not even to leave it.
  virtual void arena_closed() noexcept = 0;

protected:
  ~CollectiveRun() = default;
};

// The arena of the caller's node in the running library: null when DASH_SHARED_MEMORY=0.
CollectiveArena* collective_arena() noexcept;

// Called by dash::init (collective over the base communicator, after the nodes are known) and
// dash::finalize.
void open_collective_arena();
void close_collective_arena() noexcept;

}  // namespace dash::comm::detail
