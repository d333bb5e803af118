// Lifecycle when dash initialises MPI itself. Has its own main: the shared test main keeps the
// library initialised, and this program has to observe the states before init and after
// finalize. Each check throws on failure; a failing rank exits non-zero without entering any
// further collective, so mpiexec reports the failure instead of hanging.

#include <cstdlib>
#include <iostream>
#include <string>

#include <mpi.h>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>

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
