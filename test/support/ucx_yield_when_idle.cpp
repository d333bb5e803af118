// Preloaded into MPICH test runs (cmake/DashMpiTest.cmake): MPICH's ch4:ucx device waits in a loop
// around ucp_worker_progress and never gives the core away, and it has no option to (Open MPI has
// mpi_yield_when_idle). With more ranks than cores, a rank that waits for a descheduled peer then
// spins until the scheduler's next tick, which made oversubscribed tests crawl (docs/configuration.md,
// "MPI implementations"). This wrapper yields the core after a run of polls that found nothing to do.
// Test harness only: it changes how MPICH waits, not what it computes.

#include <dlfcn.h>
#include <sched.h>

namespace {

using Progress = unsigned (*)(void*);

// Polls without an event before the core is given away: short enough that an oversubscribed
// peer runs soon, long enough that a message in flight is usually caught without a system call.
constexpr unsigned idle_polls_before_yield = 32;

Progress next_progress() {
  static const auto next = reinterpret_cast<Progress>(dlsym(RTLD_NEXT, "ucp_worker_progress"));
  return next;
}

thread_local unsigned idle_polls = 0;

}  // namespace

extern "C" unsigned ucp_worker_progress(void* worker) {
  const unsigned events = next_progress()(worker);
  if (events != 0) {
    idle_polls = 0;
  } else if (++idle_polls >= idle_polls_before_yield) {
    idle_polls = 0;
    sched_yield();
  }
  return events;
}
