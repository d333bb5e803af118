#pragma once
// Helpers for MPI tests that run under the MPI-aware GoogleTest main (mpi_gtest_main.cpp).

#include <cstdint>

namespace dash::testing {

// Collective over all ranks: true only when `ok` holds on every rank. Tests use it to agree on
// a condition before acting on it ("check, agree across ranks, then act"), so that one rank's
// failure never leaves the others waiting in a later collective.
bool on_all_ranks(bool ok);

// A random seed derived from the running test's full name and this rank: reproducible across
// runs, different per rank. The harness prints it with any failure of the test on this rank.
std::uint64_t seed();

}  // namespace dash::testing
