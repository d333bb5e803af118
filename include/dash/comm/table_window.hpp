#pragma once
// The window of the library's distributed tables, which the team split (dash::Team) builds on
// (Sack 2011 §2.3.2: rows of a rank table are held by a few processes and read one-sidedly by the
// others).
//
// dash::init allocates it over the base communicator (MPI_Win_allocate; dynamic windows fail under
// Open MPI's osc/rdma, docs/design.md §4) with DASH_TABLE_WINDOW_BYTES per process, and opens a
// passive-target epoch to every process (MPI_Win_lock_all) that lasts until dash::finalize. A
// process writes rows into its own segment with plain stores, then calls publish() before the
// collective that hands out where the rows are; readers then read() them.

#include <cstddef>
#include <span>

namespace dash::comm {

class TableWindow {
public:
  // A handle to the window of the running library; throws dash::InvalidState outside
  // init/finalize.
  static TableWindow current();

  // This process's segment.
  std::span<std::byte> local() const noexcept;
  // Makes this process's stores to its segment visible to later reads by others (MPI_Win_sync).
  void publish() const;
  // Copies `bytes` at `offset` of base rank `owner`'s segment into `out` (blocking).
  void read(int owner, std::size_t offset, void* out, std::size_t bytes) const;

  struct State;
  explicit TableWindow(State* state) noexcept : state_(state) {}

private:
  State* state_;
};

// Called by dash::init and dash::finalize (collective over the base communicator).
void open_table_window(std::size_t bytes_per_process);
void close_table_window();

}  // namespace dash::comm
