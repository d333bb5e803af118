// Lifecycle when dash initialises MPI itself. Has its own main: the shared test main keeps the
// library initialised, and this program has to observe the states before init and after
// finalize. Each check throws on failure; a failing rank exits non-zero without entering any
// further collective, so mpiexec reports the failure instead of hanging.

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/options.hpp>

#include "lifecycle_checks.hpp"

int main(int argc, char** argv) {
  using dash::testing::expect_invalid_state;
  using dash::testing::expect_true;
  try {
    expect_true(!dash::is_initialized() && !dash::is_finalized(), "fresh process state");
    expect_invalid_state([] { dash::myid(); },
                         "dash::myid: the library is not initialised; call dash::init or create a "
                         "dash::Environment first");
    expect_invalid_state([] { dash::finalize(); },
                         "dash::finalize: the library is not initialised; call dash::init or "
                         "create a dash::Environment first");
    expect_invalid_state([] { dash::comm::base_comm(); },
                         "dash::comm::base_comm: the library is not initialised; call dash::init "
                         "or create a dash::Environment first");

    dash::init(&argc, &argv);
    expect_true(dash::comm::owns_mpi(), "dash owns MPI after initialising it");
    expect_invalid_state([] { dash::init(); },
                         "dash::init: the library is already initialised (dash::init was called "
                         "twice without dash::finalize in between)");
    dash::barrier();
    // A collective still running keeps finalize from ending the communication under it; once it
    // completed, its request may outlive the library.
    std::vector<long> in(std::size_t{1} << 17, dash::myid());
    std::vector<long> out(in.size());
    std::vector<long> out_arena(in.size());
    dash::comm::Options ring;
    ring.algorithm = "ring";
    auto by_messages = dash::comm::iallreduce(in, out, dash::plus{}, dash::comm::Group::world(), ring);
    auto in_the_arena = dash::comm::iallreduce(in, out_arena, dash::plus{});
    if (dash::size() > 1) {
      expect_invalid_state([] { dash::finalize(); },
                           "dash::finalize: a collective this process started is still running; wait for its "
                           "request first (MPI_Finalize needs all communication complete). The library stays "
                           "initialised");
    }
    by_messages.wait();
    in_the_arena.wait();
    dash::finalize();

    int mpi_finalized = 0;
    MPI_Finalized(&mpi_finalized);
    expect_true(mpi_finalized != 0, "dash::finalize finalised the MPI it initialised");
    expect_true(dash::is_finalized() && !dash::is_initialized(), "state after finalize");
    expect_invalid_state([] { dash::barrier(); },
                         "dash::barrier: the library has been finalised (dash::finalize was called)");
    expect_invalid_state([] { dash::size(); },
                         "dash::size: the library has been finalised (dash::finalize was called)");
    expect_invalid_state([] { dash::finalize(); },
                         "dash::finalize: the library has been finalised (dash::finalize was called)");
    expect_invalid_state([] { dash::init(); },
                         "dash::init: MPI has already been finalised in this process and cannot be "
                         "initialised again");
  } catch (const std::exception& error) {
    std::cerr << "lifecycle_owned: " << error.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
