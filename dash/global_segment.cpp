#include <cstring>
#include <string>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/core/global_segment.hpp>

namespace dash {

namespace {

Team& member_team(Team& team) {
  if (team.is_freed() || team.is_null() || team.myid() < 0) {
    throw InvalidArgument(std::string("dash::GlobalSegment: the calling process (unit ") +
                          std::to_string(dash::myid()) +
                          " of Team::All()) is not a member of the team the memory is allocated on; only "
                          "members take part in an allocation");
  }
  return team;
}

MPI_Aint displacement(std::size_t offset) { return static_cast<MPI_Aint>(offset); }

}  // namespace

GlobalSegment::GlobalSegment(Team& team, std::size_t local_bytes)
    : team_(&member_team(team)),
      myid_(team.myid()),
      window_(std::make_unique<comm::NodeWindow>(team.mpi_comm(), local_bytes, comm::config().shared_memory_access)) {}

GlobalSegment::~GlobalSegment() = default;

void GlobalSegment::get(int unit, std::size_t offset, void* out, std::size_t bytes) const {
  if (bytes == 0) {
    return;
  }
  if (const std::byte* memory = direct(unit); memory != nullptr) {
    std::memcpy(out, memory + offset, bytes);
    return;
  }
  PendingTransfer transfer = start_get(unit, offset, out, bytes);
  wait_for(transfer);
}

void GlobalSegment::put(int unit, std::size_t offset, const void* in, std::size_t bytes) const {
  if (bytes == 0) {
    return;
  }
  if (std::byte* memory = direct(unit); memory != nullptr) {
    std::memcpy(memory + offset, in, bytes);
    return;
  }
  PendingTransfer transfer = start_put(unit, offset, in, bytes);
  wait_for(transfer);
}

PendingTransfer GlobalSegment::start_get(int unit, std::size_t offset, void* out, std::size_t bytes) const {
  PendingTransfer transfer;
  transfer.unit = unit;
  transfer.count = std::make_unique<comm::MessageCount>(bytes, MPI_BYTE, "dash::GlobalSegment::get");
  comm::check_mpi(MPI_Rget(out, transfer.count->count(), transfer.count->type(), unit, displacement(offset),
                           transfer.count->count(), transfer.count->type(), window(), &transfer.request),
                  "dash::GlobalSegment::get: MPI_Rget");
  return transfer;
}

PendingTransfer GlobalSegment::start_put(int unit, std::size_t offset, const void* in, std::size_t bytes) const {
  PendingTransfer transfer;
  transfer.unit = unit;
  transfer.count = std::make_unique<comm::MessageCount>(bytes, MPI_BYTE, "dash::GlobalSegment::put");
  comm::check_mpi(MPI_Rput(in, transfer.count->count(), transfer.count->type(), unit, displacement(offset),
                           transfer.count->count(), transfer.count->type(), window(), &transfer.request),
                  "dash::GlobalSegment::put: MPI_Rput");
  return transfer;
}

bool GlobalSegment::test(PendingTransfer& transfer) const {
  if (transfer.request != MPI_REQUEST_NULL) {
    int done = 0;
    comm::check_mpi(MPI_Test(&transfer.request, &done, MPI_STATUS_IGNORE), "dash::GlobalSegment: MPI_Test");
    if (done == 0) {
      return false;
    }
  }
  if (transfer.unit >= 0) {
    // A completed MPI_Rput request only frees the origin buffer; the flush makes it land.
    flush(transfer.unit);
    transfer.unit = -1;
    transfer.count.reset();
  }
  return true;
}

void GlobalSegment::wait_for(PendingTransfer& transfer) const {
  if (transfer.request != MPI_REQUEST_NULL) {
    comm::check_mpi(MPI_Wait(&transfer.request, MPI_STATUS_IGNORE), "dash::GlobalSegment: MPI_Wait");
  }
  test(transfer);
}

void GlobalSegment::barrier() const {
  window_->sync();
  team_->barrier();
  window_->sync();
}

}  // namespace dash
