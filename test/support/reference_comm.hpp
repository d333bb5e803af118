#pragma once
// The oracle of the team tests: MPI's own communicator of the processes a team split gathers.

#include <mpi.h>

#include <dash/comm/environment.hpp>

namespace dash::testing {

// MPI_Comm_split of dash's base communicator: the processes with the caller's color, ordered by key.
class ReferenceComm {
public:
  ReferenceComm(int color, int key) { MPI_Comm_split(dash::comm::base_comm(), color, key, &comm_); }
  ~ReferenceComm() { MPI_Comm_free(&comm_); }
  ReferenceComm(const ReferenceComm&) = delete;
  ReferenceComm& operator=(const ReferenceComm&) = delete;
  MPI_Comm get() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace dash::testing
