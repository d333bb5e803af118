#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
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

std::unique_ptr<comm::NodeWindow> open_window(Team& team, std::size_t local_bytes) {
  try {
    return std::make_unique<comm::NodeWindow>(team.mpi_comm(), local_bytes, comm::config().shared_memory_access);
  } catch (const MpiError& error) {
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    if (comm::provided_thread_level() == comm::ThreadLevel::multiple) {
      throw InvalidState(std::string(error.what()) +
                         " (Open MPI 4 has no correct one-sided component for windows under MPI_THREAD_MULTIPLE, "
                         "which DASH_PROGRESS_THREAD=1 needs; see docs/configuration.md)");
    }
#endif
    throw;
  }
}

// Every member's part size, by rank in `team` (one allgather; the segment's construction is
// collective already).
std::vector<std::size_t> all_part_bytes(Team& team, std::size_t local_bytes) {
  std::vector<std::uint64_t> all(team.size());
  const std::array<std::uint64_t, 1> mine{local_bytes};
  comm::allgather(mine, all, team.group());
  return {all.begin(), all.end()};
}

// A committed datatype, freed at scope exit (MPI lets a pending transfer finish with a freed type).
class CommittedType {
public:
  CommittedType(const std::vector<int>& lengths, const std::vector<MPI_Aint>& displacements, const char* function) {
    comm::check_mpi(MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(),
                                             MPI_BYTE, &type_),
                    std::string(function) + ": MPI_Type_create_hindexed");
    comm::check_mpi(MPI_Type_commit(&type_), std::string(function) + ": MPI_Type_commit");
  }
  ~CommittedType() { MPI_Type_free(&type_); }
  CommittedType(const CommittedType&) = delete;
  CommittedType& operator=(const CommittedType&) = delete;
  MPI_Datatype get() const noexcept { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// One request for all `pieces`: origin pieces by absolute address (MPI_BOTTOM), target pieces
// relative to the smallest offset.
template <class Start>
PendingTransfer start_pieces(const GlobalSegment& segment, int unit, std::span<const TransferPiece> pieces,
                             const char* function, Start start) {
  for (const TransferPiece& piece : pieces) {
    segment.require_in_part(unit, piece.offset, piece.bytes, function);
  }
  PendingTransfer transfer;
  transfer.unit = unit;
  if (pieces.empty()) {
    return transfer;
  }
  comm::to_int_count(pieces.size(), function, "pieces");
  std::size_t base = pieces.front().offset;
  for (const TransferPiece& piece : pieces) {
    base = std::min(base, piece.offset);
  }
  std::vector<int> lengths;
  std::vector<MPI_Aint> origin;
  std::vector<MPI_Aint> target;
  lengths.reserve(pieces.size());
  origin.reserve(pieces.size());
  target.reserve(pieces.size());
  for (const TransferPiece& piece : pieces) {
    MPI_Aint address = 0;
    comm::check_mpi(MPI_Get_address(piece.local, &address), std::string(function) + ": MPI_Get_address");
    lengths.push_back(comm::to_int_count(piece.bytes, function, "piece bytes"));
    origin.push_back(address);
    target.push_back(static_cast<MPI_Aint>(piece.offset - base));
  }
  const CommittedType origin_type(lengths, origin, function);
  const CommittedType target_type(lengths, target, function);
  start(origin_type.get(), displacement(base), target_type.get(), &transfer.request);
  return transfer;
}

}  // namespace

GlobalSegment::GlobalSegment(Team& team, std::size_t local_bytes)
    : team_(&member_team(team)),
      myid_(team.myid()),
      window_(open_window(team, local_bytes)),
      part_bytes_(all_part_bytes(team, local_bytes)) {}

GlobalSegment::~GlobalSegment() = default;

void GlobalSegment::require_in_part(int unit, std::size_t offset, std::size_t bytes, const char* function) const {
  if (unit < 0 || static_cast<std::size_t>(unit) >= part_bytes_.size()) {
    throw OutOfRange(std::string(function) + ": unit " + std::to_string(unit) +
                     " is not a member of the segment's team (units 0 to " + std::to_string(part_bytes_.size() - 1) +
                     ")");
  }
  const std::size_t part = part_bytes_[static_cast<std::size_t>(unit)];
  if (offset > part || bytes > part - offset) {
    throw OutOfRange(std::string(function) + ": " + std::to_string(bytes) + " bytes at byte offset " +
                     std::to_string(offset) + " of unit " + std::to_string(unit) + " lie outside unit " +
                     std::to_string(unit) + "'s part of the segment, which has " + std::to_string(part) +
                     " bytes (GlobPtr arithmetic stays within one unit's part; to walk a container across units "
                     "use its global iterators)");
  }
}

std::size_t GlobalSegment::part_bytes(int unit) const {
  require_in_part(unit, 0, 0, "dash::GlobalSegment::part_bytes");
  return part_bytes_[static_cast<std::size_t>(unit)];
}

void GlobalSegment::get(int unit, std::size_t offset, void* out, std::size_t bytes) const {
  require_in_part(unit, offset, bytes, "dash::GlobalSegment::get");
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
  require_in_part(unit, offset, bytes, "dash::GlobalSegment::put");
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
  require_in_part(unit, offset, bytes, "dash::GlobalSegment::get");
  PendingTransfer transfer;
  transfer.unit = unit;
  transfer.count = std::make_unique<comm::MessageCount>(bytes, MPI_BYTE, "dash::GlobalSegment::get");
  comm::check_mpi(MPI_Rget(out, transfer.count->count(), transfer.count->type(), unit, displacement(offset),
                           transfer.count->count(), transfer.count->type(), window(), &transfer.request),
                  "dash::GlobalSegment::get: MPI_Rget");
  return transfer;
}

PendingTransfer GlobalSegment::start_put(int unit, std::size_t offset, const void* in, std::size_t bytes) const {
  require_in_part(unit, offset, bytes, "dash::GlobalSegment::put");
  PendingTransfer transfer;
  transfer.unit = unit;
  transfer.count = std::make_unique<comm::MessageCount>(bytes, MPI_BYTE, "dash::GlobalSegment::put");
  comm::check_mpi(MPI_Rput(in, transfer.count->count(), transfer.count->type(), unit, displacement(offset),
                           transfer.count->count(), transfer.count->type(), window(), &transfer.request),
                  "dash::GlobalSegment::put: MPI_Rput");
  return transfer;
}

PendingTransfer GlobalSegment::start_get(int unit, std::span<const TransferPiece> pieces) const {
  constexpr const char* function = "dash::GlobalSegment::get";
  return start_pieces(*this, unit, pieces, function,
                      [&](MPI_Datatype origin, MPI_Aint offset, MPI_Datatype target, MPI_Request* request) {
                        comm::check_mpi(MPI_Rget(MPI_BOTTOM, 1, origin, unit, offset, 1, target, window(), request),
                                        std::string(function) + ": MPI_Rget");
                      });
}

PendingTransfer GlobalSegment::start_put(int unit, std::span<const TransferPiece> pieces) const {
  constexpr const char* function = "dash::GlobalSegment::put";
  return start_pieces(*this, unit, pieces, function,
                      [&](MPI_Datatype origin, MPI_Aint offset, MPI_Datatype target, MPI_Request* request) {
                        comm::check_mpi(MPI_Rput(MPI_BOTTOM, 1, origin, unit, offset, 1, target, window(), request),
                                        std::string(function) + ": MPI_Rput");
                      });
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
