#pragma once
// An MPI communicator over the members of a Group, for interoperation with MPI code.
//
// Groups never need one to run collectives (they translate ranks and use their own tag space on
// the base communicator); this is only for handing a group to code that expects an MPI_Comm.
// Creating it is collective over the group's members only (MPI_Group_incl + MPI_Comm_create_group
// over the base communicator), reads the whole member list once and leaves O(size) state inside
// MPI. The object owns the communicator and frees it when destroyed (unless MPI is finalised).

#include <mpi.h>

#include <dash/comm/group.hpp>

namespace dash::comm {

class GroupCommunicator {
public:
  // Collective over `group`: ranks in group order, MPI_ERRORS_RETURN set.
  explicit GroupCommunicator(const Group& group);
  ~GroupCommunicator();
  GroupCommunicator(const GroupCommunicator&) = delete;
  GroupCommunicator& operator=(const GroupCommunicator&) = delete;

  MPI_Comm get() const noexcept { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace dash::comm
