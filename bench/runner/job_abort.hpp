#pragma once
// Ending the whole job after an error on this rank, and ending it when MPI does not finish.

#include <exception>

namespace dash::bench {

// Prints "dash-bench: error on rank r: <what>" and aborts every rank with exit code 2. Called where
// the error is caught, before anything that frees MPI objects collectively unwinds: the other
// ranks may wait in a collective this rank will never join, and a collective free would wait for
// them in turn.
[[noreturn]] void abort_job(const std::exception& error);

// Call when everything is done but finalising MPI: should that not return within a minute, says so
// and ends the process with `code`. MPICH 4.0.2 (ch4:ucx) sometimes hangs in MPI_Finalize across
// hosts: one rank waits in UCX's disconnect of its peers, which no longer progress in the PMI
// barrier (docs/benchmarks.md, "Across hosts"); the results are written by then.
void exit_if_finalize_hangs(int code);

}  // namespace dash::bench
