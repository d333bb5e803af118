// Lifecycle when the application owns MPI: dash adopts it, leaves MPI_Finalize to the
// application, may be initialised again while MPI lives, and honours an explicit
// DASH_THREAD_LEVEL only when MPI provides it. Own main, for the same reason as
// lifecycle_owned_test.cpp.

#include <cstdlib>
#include <iostream>
#include <span>

#include <mpi.h>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/team.hpp>

#include "lifecycle_checks.hpp"

int main(int argc, char** argv) {
  using dash::testing::expect_invalid_state;
  using dash::testing::expect_true;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  int status = EXIT_SUCCESS;
  try {
    // A malformed variable is rejected before anything else happens.
    setenv("DASH_LOG_LEVEL", "loud", 1);
    bool rejected = false;
    try {
      dash::init();
    } catch (const dash::InvalidArgument&) {
      rejected = true;
    }
    unsetenv("DASH_LOG_LEVEL");
    expect_true(rejected && !dash::is_initialized(), "DASH_LOG_LEVEL=loud is rejected by dash::init");

    // Each initialisation gets its own Team::All() and world group, whether or not MPI hands out the
    // base communicator's handle again (MPI does on some ranks and not on others).
    const dash::Team* previous_all = nullptr;
    for (int round = 0; round < 8; ++round) {
      dash::init();
      expect_true(!dash::comm::owns_mpi(), "dash adopts the application's MPI");
      int comparison = MPI_IDENT;
      MPI_Comm_compare(dash::comm::base_comm(), MPI_COMM_WORLD, &comparison);
      expect_true(comparison == MPI_CONGRUENT, "base_comm is a duplicate of MPI_COMM_WORLD");
      dash::Team& all = dash::Team::All();
      expect_true(&all != previous_all, "Team::All() is rebuilt by every initialisation");
      previous_all = &all;
      dash::Team& half = all.split(dash::size() > 1 ? 2 : 1);  // a team of this initialisation, left for finalize
      half.barrier();
      const int one = 1;
      int sum = 0;
      dash::comm::allreduce(std::span<const int>(&one, 1), std::span<int>(&sum, 1), dash::plus{});
      expect_true(sum == static_cast<int>(dash::size()), "the world group's collectives run after re-initialisation");
      dash::barrier();
      dash::finalize();
      int mpi_finalized = 1;
      MPI_Finalized(&mpi_finalized);
      expect_true(mpi_finalized == 0, "dash::finalize leaves the application's MPI alive");
    }

    if (provided < MPI_THREAD_MULTIPLE) {
      setenv("DASH_THREAD_LEVEL", "multiple", 1);
      expect_invalid_state([] { dash::init(); },
                           "dash::init: DASH_THREAD_LEVEL asks for MPI thread level 'multiple' but "
                           "MPI provides only 'single'");
      unsetenv("DASH_THREAD_LEVEL");
      expect_true(!dash::is_initialized(), "failed init leaves the library uninitialised");
    }
  } catch (const std::exception& error) {
    std::cerr << "lifecycle_adopted: " << error.what() << "\n";
    status = EXIT_FAILURE;
  }
  MPI_Finalize();
  return status;
}
