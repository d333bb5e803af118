#pragma once
// Ending the whole job after an error on this rank.

#include <exception>

namespace dash::bench {

// Prints "dash-bench: error on rank r: <what>" and aborts every rank with exit code 2. Called where
// the error is caught, before anything that frees MPI objects collectively unwinds: the other
// ranks may wait in a collective this rank will never join, and a collective free would wait for
// them in turn.
[[noreturn]] void abort_job(const std::exception& error);

}  // namespace dash::bench
