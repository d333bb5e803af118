#pragma once
// Internal: the execution engine. Runs one rank's schedule over non-blocking MPI point-to-point
// on the group's base communicator (docs/design.md §2).
//
// Event-driven: an action starts as soon as its own inputs are ready (the blocks it reads were
// written, the blocks it writes are no longer needed by earlier actions), not when its whole round
// ends, so one slow peer does not hold up unrelated edges (Kowalewski 2021 Alg. 4). Messages to and
// from each peer are posted in schedule order, which makes them match as the verifier assumed.
// Receives that combine land in a private staging buffer, so they are posted early.
// The actions of the lowest unfinished round may always start; actions of later rounds run ahead
// only within a sliding window of in-flight sends and receives, and no send passes a fenced round
// (schedule::Round::fence) before the rounds ahead of the fence finished. Hence the engine never
// does worse than round-by-round execution, which the verifier proved deadlock-free. Short
// blocking calls whose plan runs in lockstep skip this bookkeeping: Execution::run_in_rounds runs
// their rounds one after the other.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <dash/comm/detail/block_layout.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/schedule/schedule.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm::detail {

struct ExecutionWindow {
  std::size_t sends = 8;      // N: sends of later rounds in flight
  std::size_t receives = 16;  // M > N: receives of later rounds pre-posted
};

struct Plan;  // comm/engine/plan.hpp

struct ExecutionSetup {
  std::string_view function = "dash::comm engine";  // for messages (a literal, as CollectiveCall's)
  std::shared_ptr<const Plan> plan;
  const std::byte* input = nullptr;
  std::byte* output = nullptr;
  BlockLayout input_layout;
  // Also the scratch layout: variable-size calls stage only the rank's own blocks of a uniform output.
  BlockLayout output_layout;
  Reduction reduction;
  // Output blocks that hold their final value before anything runs (a broadcast root's data).
  bool output_ready_at_start = false;
  ExecutionWindow window;
  // Sends of this many bytes and more that a later fenced round waits for travel in synchronous
  // mode (MPI_Issend): a send the MPI library buffers (eager) completes while its data is still on
  // the wire, and the fence would let the next send share the link with it.
  std::size_t synchronous_send_bytes = std::numeric_limits<std::size_t>::max();
  // The cross-rank comparison of the call's arguments (builds with DASH_CROSS_RANK_CHECKS), or
  // null. The collective counts as complete only once it passed; a mismatch throws from progress.
  std::unique_ptr<PendingUniformCheck> argument_check;
};

// A collective that runs without a schedule (the intra-node shared-memory algorithms,
// comm/arena/shared_memory_run.hpp); an Execution drives it like a schedule.
class DirectRun {
public:
  virtual ~DirectRun() = default;
  // Advances without blocking; true once complete.
  virtual bool progress() = 0;
  virtual bool done() const noexcept = 0;
  virtual std::optional<std::uint32_t> next_arrival() = 0;
};

class CollectiveRun;

// Advances every collective this process has started, but for the one its caller waits on (a
// schedule's state, or an arena run): the members of different groups may start their collectives
// in different orders, and a member that waits for one must not hold up another that some other
// member waits for first (MPI's progress rule). Called while a wait finds nothing to do.
void progress_all_collectives(const void* waiting_schedule, const CollectiveRun* waiting_run);

// Drives the running collectives until none of those still running uses `tag` for its messages or
// its argument check. A group hands out its tags cyclically, and two schedules on one tag at once
// could match each other's messages; one after the other they cannot (MPI does not let messages of
// one sender and tag overtake each other). Throws dash::InvalidState where it cannot drive them
// (while progress_all_collectives runs or an OthersWait lives).
void wait_until_tag_is_free(int tag);

// Whether a collective this process started has not completed (a schedule or an arena run):
// dash::finalize refuses then, as MPI_Finalize needs all communication complete.
bool collectives_running();

// While one lives, progress_all_collectives does nothing: a hierarchical arena run advances its
// rail stages' schedules itself, in the middle of its own step, and they must not drive it again.
class OthersWait {
public:
  OthersWait() noexcept;
  ~OthersWait();
  OthersWait(const OthersWait&) = delete;
  OthersWait& operator=(const OthersWait&) = delete;

private:
  bool was_;
};

// A running schedule or direct run. A movable handle; an empty (default-constructed or moved-from) handle
// stands for a finished collective with nothing to report.
class Execution {
public:
  Execution() noexcept;
  // Starts the schedule on `group` with message tag `tag`.
  Execution(ExecutionSetup setup, const Group& group, int tag);
  explicit Execution(std::unique_ptr<DirectRun> run) noexcept;
  // Completes outstanding communication (blocking): a schedule is never abandoned half-way.
  ~Execution();
  Execution(Execution&& other) noexcept;
  Execution& operator=(Execution&& other) noexcept;
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  // Runs the schedule on `group` with message tag `tag` to its end before it returns, one round
  // after the other, without the engine's per-action bookkeeping: for short blocking calls on
  // plans that run in lockstep, where that bookkeeping would cost more than it can overlap.
  // `setup` has no argument check. Throws as progress() would.
  static void run_in_rounds(ExecutionSetup setup, const Group& group, int tag);

  // Advances communication without blocking; true once every action completed. Rethrows an
  // error the progress thread met.
  bool progress();
  bool done() const noexcept;
  // The next output block that holds its final value, in the order they became final.
  std::optional<std::uint32_t> next_arrival();

private:
  struct Impl;
  static std::vector<std::unique_ptr<Impl>>& idle_states();
  // The states of the schedules started and not yet destroyed.
  static std::vector<Impl*>& live_schedules();
  friend void progress_all_collectives(const void* waiting_schedule, const CollectiveRun* waiting_run);
  friend void wait_until_tag_is_free(int tag);
  friend bool collectives_running();
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<DirectRun> direct_;
};

}  // namespace dash::comm::detail
