#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
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

// Every member's part size, by rank in `team` (one allgather; the segment's construction is
// collective already).
std::vector<std::size_t> all_part_bytes(Team& team, std::size_t local_bytes) {
  std::vector<std::uint64_t> all(team.size());
  const std::array<std::uint64_t, 1> mine{local_bytes};
  comm::allgather(mine, all, team.group());
  return {all.begin(), all.end()};
}

// Every piece lies within the unit's part.
void require_pieces_in_part(const GlobalSegment& segment, int unit, std::span<const comm::RmaPiece> pieces,
                            const char* function) {
  for (const comm::RmaPiece& piece : pieces) {
    segment.require_in_part(unit, piece.offset, piece.bytes, function);
  }
}

}  // namespace

GlobalSegment::GlobalSegment(Team& team, std::size_t local_bytes)
    : team_(&member_team(team)),
      myid_(team.myid()),
      window_(std::make_unique<comm::NodeWindow>(team.mpi_comm(), local_bytes, comm::config().shared_memory_access)),
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
  start_get(unit, offset, out, bytes).wait();
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
  start_put(unit, offset, in, bytes).wait();
}

comm::RmaRequest GlobalSegment::start_get(int unit, std::size_t offset, void* out, std::size_t bytes) const {
  constexpr const char* function = "dash::GlobalSegment::get";
  require_in_part(unit, offset, bytes, function);
  return window_->start_get(unit, offset, out, bytes, function);
}

comm::RmaRequest GlobalSegment::start_put(int unit, std::size_t offset, const void* in, std::size_t bytes) const {
  constexpr const char* function = "dash::GlobalSegment::put";
  require_in_part(unit, offset, bytes, function);
  return window_->start_put(unit, offset, in, bytes, function);
}

comm::RmaRequest GlobalSegment::start_get(int unit, std::span<const comm::RmaPiece> pieces) const {
  constexpr const char* function = "dash::GlobalSegment::get";
  require_pieces_in_part(*this, unit, pieces, function);
  return window_->start_get(unit, pieces, function);
}

comm::RmaRequest GlobalSegment::start_put(int unit, std::span<const comm::RmaPiece> pieces) const {
  constexpr const char* function = "dash::GlobalSegment::put";
  require_pieces_in_part(*this, unit, pieces, function);
  return window_->start_put(unit, pieces, function);
}

void GlobalSegment::barrier() const {
  window_->sync();
  team_->barrier();
  window_->sync();
}

}  // namespace dash
