#include <vector>

#include <dash/comm/group_communicator.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/runtime.hpp>

namespace dash::comm {

GroupCommunicator::GroupCommunicator(const Group& group) {
  std::vector<int> members(static_cast<std::size_t>(group.size()));
  for (std::size_t r = 0; r < members.size(); ++r) {
    members[r] = group.base_rank(static_cast<int>(r));
  }
  MPI_Group base_group = MPI_GROUP_NULL;
  MPI_Group member_group = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(base_comm(), &base_group), "dash::comm::GroupCommunicator: MPI_Comm_group");
  const int included = MPI_Group_incl(base_group, static_cast<int>(members.size()), members.data(), &member_group);
  MPI_Group_free(&base_group);
  check_mpi(included, "dash::comm::GroupCommunicator: MPI_Group_incl");
  // The tag only has to tell concurrent creations on overlapping groups apart: the group's own.
  const int created = MPI_Comm_create_group(base_comm(), member_group, group.tags().first, &comm_);
  MPI_Group_free(&member_group);
  check_mpi(created, "dash::comm::GroupCommunicator: MPI_Comm_create_group");
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "dash::comm::GroupCommunicator: MPI_Comm_set_errhandler");
}

GroupCommunicator::~GroupCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized == 0 && comm_ != MPI_COMM_NULL) {
    MPI_Comm_free(&comm_);
  }
}

}  // namespace dash::comm
