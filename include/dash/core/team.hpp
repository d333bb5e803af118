#pragma once
// dash::Team: a set of processes that allocate containers and run collectives together
// (docs/design.md §3).
//
// Team::All() holds every process. split(n) and split_by(color, key) create child teams that the
// parent owns; a child lives until free() or until its parent goes. Splitting never creates an
// MPI communicator: split(n) is a formula over the parent's ranks, split_by runs the team-split
// service (detail/split_service.hpp). Each team is a dash::comm::Group with its own tag space, so
// every collective runs on it and collectives of different teams never match each other. Making a
// team also settles its fast paths (dash/comm/team_paths.hpp): an arena channel for its
// members on a node, and on several nodes the hierarchical collectives, agreed in one allreduce.
//
// Everything marked collective must be called by every member of the team, in the same order.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <mpi.h>

#include <dash/comm/group.hpp>
#include <dash/core/detail/team_ranks.hpp>
#include <dash/core/scope.hpp>
#include <dash/core/split_algorithm.hpp>

namespace dash {

namespace comm {
class GroupCommunicator;
}

namespace detail {
class TagBlocks;
struct SplitTable;
}

// What a team's rank translation costs this process (Sack 2011 ch. 2).
struct TeamStats {
  std::string_view representation;  // "contiguous", "strided", "subrange of parent", "table", "none"
  std::size_t table_rows = 0;        // rows of a rank table held by this process
  std::size_t cache_entries = 0;     // remote rows cached (distributed tables)
  std::size_t cache_capacity = 0;    // at most this many
  std::size_t bytes = 0;             // memory of the above
  std::size_t split_peak_rows = 0;   // rows held at once while the split that made the team ran
};

class Team {
public:
  // split_by's color for processes that join no team: they get Team::Null().
  static constexpr int Undefined = -1;

  // Every process; rebuilt when the library is re-initialised.
  static Team& All();
  // The team of no processes: size 0, myid -1; what undefined colors and All().parent() give.
  static Team& Null();

  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team();

  bool is_null() const noexcept { return group_ == nullptr && !freed_; }
  // True once free() was called on the team or an ancestor. Every other use then throws
  // dash::InvalidState (the object stays behind as a tombstone until its parent goes).
  bool is_freed() const noexcept { return freed_; }
  // The caller's rank in the team, -1 on Team::Null().
  int myid() const;
  std::size_t size() const;
  // The team this one was split from; Team::Null() for All() and Null().
  Team& parent() const noexcept;
  // How many levels below All() the team is (All(): 0).
  int depth() const noexcept { return depth_; }

  // Collective. Waits until every member called it.
  void barrier() const;

  // Collective: n contiguous parts of near-equal size (DASH semantics): member u joins part
  // floor(u * n / size()); 1 <= n <= size(). Returns the caller's part, owned by this team.
  // O(1) memory per process: the child's ranks are a subrange of this team's.
  Team& split(int n);
  // Collective: members with the same color form a team, ranked by key, ties by rank in this
  // team (MPI_Comm_split semantics). color is >= 0 or Team::Undefined (-> Team::Null()).
  // Invalid arguments on any member, or members calling different splits, throw
  // dash::InvalidArgument on every member. A member without room in its segment of the table
  // window (DASH_TABLE_WINDOW_BYTES) for its rows of a distributed table throws dash::BadAlloc on
  // every member; the team stays as it was.
  // options select the service's variant and its number of sorters (for measurement).
  Team& split_by(int color, int key, const SplitOptions& options = {});

  // Collective: the members that share the caller's node (NUMA domain, core) form a team, in the
  // order of this team's ranks (dash::comm::locality() says where each process is). Runs split_by
  // with a color derived from the place, so it costs what split_by costs.
  Team& split_by_locality(Scope scope);

  // The base (dash::myid()) rank of team rank r; throws dash::OutOfRange outside [0, size()).
  int global_rank(int team_rank) const;
  // The team rank of base rank g, or -1 when that process is not a member.
  int team_rank(int global) const;

  // Collective (a barrier): frees the team and every team split from it. Throws
  // dash::InvalidState for All() and Null(), and on every member when a collective on the team
  // (or on one split from it) still runs in the collective arena on some member.
  void free();

  // Collective on first call: an MPI communicator of the team's members in team-rank order, for
  // interoperation (dash::comm::GroupCommunicator: O(size()) state inside MPI, one collective of
  // the team to build). Created only when asked, kept until the team is freed.
  MPI_Comm mpi_comm();

  // The team as a collective group; throws dash::InvalidState on Team::Null().
  const comm::Group& group() const;
  operator const comm::Group&() const { return group(); }  // NOLINT: a team is a group

  TeamStats stats() const;

private:
  struct Membership;
  Team() = default;
  Team(Team* parent, Membership membership);
  static std::unique_ptr<Team> make_all();
  Team& adopt(std::unique_ptr<Team> child);
  void require_member(const char* function) const;

  void release() noexcept;
  // Whether a collective of this team or of one split from it still runs in the collective arena
  // on this process (its request not yet completed).
  bool runs_in_arena() const noexcept;
  // Collective: true when every member passed the same `call`, the comm::uniform_key of which
  // operation, its arguments that must match and whether the member's own arguments are valid
  // (team.cpp's SplitCall, SplitByCall, SplitByLocalityCall). One allreduce; splits always
  // run it, so a mistake on one member is an exception on all, never a hang.
  bool members_agree(std::uint64_t call) const;
  // members_agree with a `concern` of each member riding along: the largest any member passed.
  struct Agreement {
    bool same_call;
    std::uint64_t largest_concern;
  };
  Agreement agree(std::uint64_t call, std::uint64_t concern) const;
  [[noreturn]] static void throw_disagreement(const char* function);

  bool freed_ = false;
  std::unique_ptr<comm::GroupCommunicator> communicator_;  // created by mpi_comm() only
  Team* parent_ = nullptr;
  int depth_ = 0;
  std::shared_ptr<const detail::TeamRanks> ranks_;
  std::unique_ptr<comm::Group> group_;
  std::shared_ptr<detail::TagBlocks> tag_blocks_;  // where this team's tag block came from
  int tag_block_ = -1;
  std::size_t split_peak_rows_ = 0;
  std::vector<std::unique_ptr<Team>> children_;
  // Rows this process holds for the distributed tables of this team's splits (read by members of
  // the children on other processes), kept until this team is freed.
  std::vector<std::shared_ptr<const detail::SplitTable>> retained_tables_;
};

}  // namespace dash
