#pragma once
// MPI_THREAD_MULTIPLE for the jobs whose cases call MPI from several threads at once
// (Case::needs_thread_multiple, e.g. halo's "MPI Multiple" baseline). Every other job leaves MPI
// to dash::init, which asks for the library's default level (docs/configuration.md), so its cases
// run exactly as without this.

#include <vector>

#include "runner/registry.hpp"

namespace dash::bench {

class ThreadMultipleMpi {
public:
  // Call before dash::init. Initialises MPI with MPI_THREAD_MULTIPLE if one of `cases` needs it
  // (dash::init then adopts MPI); does nothing otherwise. What MPI grants is checked by the code
  // that needs it, which fails naming the level it got.
  ThreadMultipleMpi(const std::vector<const Case*>& cases, int& argc, char**& argv);
  // Call after dash::finalize: finalises MPI if the constructor initialised it.
  ~ThreadMultipleMpi();
  ThreadMultipleMpi(const ThreadMultipleMpi&) = delete;
  ThreadMultipleMpi& operator=(const ThreadMultipleMpi&) = delete;

private:
  bool initialised_ = false;
};

}  // namespace dash::bench
