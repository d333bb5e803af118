#pragma once
// Ending every process of the job from one of them, for an error the others cannot learn of: they
// may wait in a collective this process will never join, so nothing collective can unwind.

#include <string_view>

namespace dash::comm {

// Writes `message` and a newline to standard error, waits until the launcher has read it, and
// calls MPI_Abort(MPI_COMM_WORLD, code); without MPI running, ends the process with `code`.
// Launchers forward a process's output through a pipe their daemon reads (Hydra's proxy, Open
// MPI's orted), and MPI_Abort can end the daemon before it read what was just written (MPICH 4.0:
// dash-bench's error message lost in 1 of 30 runs of bench.error_on_one_rank.np2). So it waits
// until that pipe holds no unread bytes, a second at most; a terminal or a file needs no wait.
[[noreturn]] void abort_job(int code, std::string_view message);

}  // namespace dash::comm
