// dash::Team (include/dash/core/team.hpp; docs/teams.md).
//
// Map: Team::Membership and the rails' tag count; construction (the team's group, tag block, arena
// channel and hierarchy), release and the tombstones; All and Null; the queries (myid, size, group,
// barrier); the splits: split, split_by (on the team-split service), split_by_locality; rank
// translation; free; mpi_comm on demand; the agreements behind collective calls; stats.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/barrier.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/group_communicator.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/team_paths.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/core/detail/split_service.hpp>
#include <dash/core/detail/tag_blocks.hpp>
#include <dash/core/team.hpp>

namespace dash {

struct Team::Membership {
  int size = 0;
  int rank = 0;
  std::shared_ptr<const detail::TeamRanks> ranks;
  std::shared_ptr<detail::TagBlocks> tag_blocks;
  int tag_block = -1;
  std::size_t peak_rows = 0;
};

namespace {

// The last tags of a team's block go to the rails of its hierarchical collectives (a chunk's tag
// follows from its ticket, and a few tickets are in flight at a time: dash/comm/team_paths.hpp).
constexpr int rail_tags = 64;
static_assert(detail::TagBlockLayout::min_block_tags - rail_tags >= 128, "a team keeps most of its block");

// The team operations whose members agree on the call before they act (Team::agree): each call's
// key (comm::uniform_key) starts with its operation, so members in different operations disagree.
enum class Operation : std::int32_t { split = 1, split_by, split_by_locality };

struct SplitCall {
  Operation operation;
  std::int32_t parts;  // 0 where invalid
};

// The color and key differ between members; the variant, the options and the validity of the
// arguments not. An invalid option counts as -1.
struct SplitByCall {
  Operation operation;
  std::int32_t color_valid;
  std::int32_t algorithm;
  std::int32_t sorters;
  std::int32_t table_holders;
};

struct SplitByLocalityCall {
  Operation operation;
  std::int32_t scope;
  std::int32_t fits;
};

}  // namespace

Team::Team(Team* parent, Membership membership)
    : parent_(parent),
      depth_(parent == nullptr ? 0 : parent->depth_ + 1),
      ranks_(std::move(membership.ranks)),
      tag_blocks_(std::move(membership.tag_blocks)),
      tag_block_(membership.tag_block),
      split_peak_rows_(membership.peak_rows) {
  if (tag_block_ < 0) {
    // All() shares Group::world()'s state (its tag sequence), so collectives on either never collide.
    group_ = std::make_unique<comm::Group>(comm::Group::world());
    return;
  }
  const comm::TagSpace block = tag_blocks_->layout().space(tag_block_);
  group_ = std::make_unique<comm::Group>(membership.size, membership.rank, ranks_,
                                         comm::TagSpace{block.first, block.count - rail_tags});
  // Collective over the new team: its arena channel and hierarchy, agreed by its members.
  comm::open_team_paths(
      *group_, [ranks = ranks_](int base) { return ranks->from_base(base); },
      comm::TagSpace{block.first + block.count - rail_tags, rail_tags});
}

Team::~Team() { release(); }

// Drops everything the team holds; its children become tombstones too.
void Team::release() noexcept {
  for (const std::unique_ptr<Team>& child : children_) {
    child->release();
    child->freed_ = true;
  }
  communicator_.reset();
  retained_tables_.clear();
  // Released teams are freed (after their barrier) or children of a freed parent (after its), so
  // no member reads this process's part of the channel any more.
  if (group_) {
    comm::release_team_paths(*group_);
  }
  group_.reset();
  ranks_.reset();
  if (tag_blocks_ && tag_block_ >= 0) {
    tag_blocks_->release(tag_block_);
  }
  tag_blocks_.reset();
  tag_block_ = -1;
}

std::unique_ptr<Team> Team::make_all() {
  const int size = static_cast<int>(dash::size());
  Membership membership;
  membership.size = size;
  membership.rank = dash::myid();
  membership.ranks = std::make_shared<detail::StridedRanks>(0, 1, size);
  return std::unique_ptr<Team>(new Team(nullptr, std::move(membership)));
}

Team& Team::All() {
  static std::unique_ptr<Team> all;
  static unsigned built_for = 0;  // the initialisation (a reused communicator handle would not tell)
  const unsigned generation = comm::runtime_generation();
  if (!all || built_for != generation) {
    all = make_all();
    built_for = generation;
  }
  return *all;
}

Team& Team::Null() {
  static Team null;
  return null;
}

int Team::myid() const {
  if (freed_) {
    require_member("dash::Team::myid");
  }
  return group_ ? group_->rank() : -1;
}

std::size_t Team::size() const {
  if (freed_) {
    require_member("dash::Team::size");
  }
  return group_ ? static_cast<std::size_t>(group_->size()) : 0;
}

Team& Team::parent() const noexcept { return parent_ != nullptr ? *parent_ : Null(); }

void Team::require_member(const char* function) const {
  if (freed_) {
    throw InvalidState(std::string(function) + ": the team was freed (Team::free on it or on a team it was split from)");
  }
  if (is_null()) {
    throw InvalidState(std::string(function) + ": called on Team::Null(), which has no members");
  }
}

const comm::Group& Team::group() const {
  require_member("dash::Team::group");
  return *group_;
}

void Team::barrier() const {
  require_member("dash::Team::barrier");
  comm::barrier(*group_);
}

Team& Team::adopt(std::unique_ptr<Team> child) {
  children_.push_back(std::move(child));
  return *children_.back();
}

Team& Team::split(int n) {
  require_member("dash::Team::split");
  const int size = group_->size();
  const bool valid = n >= 1 && n <= size;
  const bool agreed = members_agree(comm::uniform_key(SplitCall{Operation::split, valid ? n : 0}));
  if (!valid) {
    throw invalid_argument("dash::Team::split", "n", n,
                           "a number of parts in [1, " + std::to_string(size) + "] (the team size)");
  }
  if (!agreed) {
    throw_disagreement("dash::Team::split");
  }
  const int me = group_->rank();
  const int part = static_cast<int>(static_cast<long long>(me) * n / size);
  // Part c holds the members u with floor(u * n / size) == c: [ceil(c * size / n), ...).
  const auto part_start = [&](long long c) { return static_cast<int>((c * size + n - 1) / n); };
  const int first = part_start(part);
  const int last = part_start(part + 1);
  auto blocks = detail::TagBlocks::current();
  const int block = blocks->choose(*group_, "dash::Team::split");
  blocks->claim(block);
  Membership membership;
  membership.size = last - first;
  membership.rank = me - first;
  membership.ranks = std::make_shared<detail::SubrangeRanks>(ranks_, first, last - first);
  membership.tag_blocks = std::move(blocks);
  membership.tag_block = block;
  return adopt(std::unique_ptr<Team>(new Team(this, std::move(membership))));
}

Team& Team::split_by(int color, int key, const SplitOptions& options) {
  require_member("dash::Team::split_by");
  const bool color_valid = color >= 0 || color == Undefined;
  const bool sorters_valid =
      options.sorters == 0 || (options.sorters > 0 && std::has_single_bit(static_cast<unsigned>(options.sorters)));
  const int size = group_->size();
  const bool holders_valid = options.table_holders >= 0 && options.table_holders <= size;
  const std::uint64_t call = comm::uniform_key(SplitByCall{Operation::split_by, color_valid ? 1 : 0,
                                                           static_cast<std::int32_t>(options.algorithm),
                                                           sorters_valid ? options.sorters : -1,
                                                           holders_valid ? options.table_holders : -1});
  // The caller's rows of a distributed table are reserved before the agreement, which then also
  // says whether any member had no room (the lowest such rank, as size - rank).
  detail::TableReservation reservation = color_valid && sorters_valid && holders_valid
                                             ? detail::reserve_table_rows(size, group_->rank(), options)
                                             : detail::TableReservation{};
  const Agreement agreement =
      agree(call, reservation.no_room ? static_cast<std::uint64_t>(size - group_->rank()) : 0);
  if (!color_valid) {
    throw invalid_argument("dash::Team::split_by", "color", color, "a color >= 0 or dash::Team::Undefined (-1)");
  }
  if (!sorters_valid) {
    throw invalid_argument("dash::Team::split_by", "options.sorters", options.sorters,
                           "0 (the library's choice) or a power of two");
  }
  if (!holders_valid) {
    throw invalid_argument("dash::Team::split_by", "options.table_holders", options.table_holders,
                           "0 (the sorters hold the table) or a number of holders in [1, " + std::to_string(size) +
                               "] (the team size)");
  }
  if (!agreement.same_call) {
    throw_disagreement("dash::Team::split_by");
  }
  if (agreement.largest_concern != 0) {
    detail::throw_no_room_for_table(*group_, size - static_cast<int>(agreement.largest_concern), reservation);
  }
  auto blocks = detail::TagBlocks::current();
  const int block = blocks->choose(*group_, "dash::Team::split_by");
  detail::SplitResult result = detail::split_service(*group_, ranks_, color, key, options,
                                                     blocks->layout().space(block), std::move(reservation));
  if (result.retained) {
    retained_tables_.push_back(std::move(result.retained));
  }
  if (!result.member) {
    return Null();
  }
  blocks->claim(block);
  Membership membership;
  membership.size = result.size;
  membership.rank = result.rank;
  membership.ranks = std::move(result.ranks);
  membership.tag_blocks = std::move(blocks);
  membership.tag_block = block;
  membership.peak_rows = result.peak_rows;
  return adopt(std::unique_ptr<Team>(new Team(this, std::move(membership))));
}

Team& Team::split_by_locality(Scope scope) {
  require_member("dash::Team::split_by_locality");
  const comm::Locality& place = comm::locality();
  // Colors: the node index, refined by the domain or core index inside the node.
  std::int64_t color = place.node;
  if (scope == Scope::NUMA) {
    color = color * 4096 + place.numa_domain;
  } else if (scope == Scope::Core) {
    color = color * 65536 + place.core;
  }
  const bool fits = color >= 0 && color <= std::int64_t{INT32_MAX} && place.numa_domain < 4096 && place.core < 65536;
  if (!members_agree(comm::uniform_key(
          SplitByLocalityCall{Operation::split_by_locality, static_cast<std::int32_t>(scope), fits ? 1 : 0}))) {
    throw InvalidArgument("dash::Team::split_by_locality: the members disagree: they passed different scopes, or a "
                          "member's node, NUMA domain or core index is too large for a split color (more than 32767 "
                          "nodes, 4095 domains or 65535 cores per node)");
  }
  return split_by(static_cast<int>(color), myid());
}

int Team::global_rank(int team_rank) const {
  require_member("dash::Team::global_rank");
  if (team_rank < 0 || team_rank >= group_->size()) {
    throw out_of_range("dash::Team::global_rank", "team_rank", team_rank,
                       "a rank in [0, " + std::to_string(group_->size()) + ")");
  }
  return ranks_->to_base(team_rank);
}

int Team::team_rank(int global) const {
  if (freed_) {
    require_member("dash::Team::team_rank");
  }
  if (is_null()) {
    return -1;
  }
  return ranks_->from_base(global).value_or(-1);
}

void Team::free() {
  require_member("dash::Team::free");
  if (parent_ == nullptr) {
    throw InvalidState("dash::Team::free: Team::All() cannot be freed");
  }
  // Members of the teams split from this one may still read rows this process holds for them, and
  // of the team's arena channel: nobody goes before everybody is done. The agreement runs on
  // messages, so its end on one member means that every member entered it, past its own runs in
  // the channel (an arena run ends on one member while others may still read its slots). A
  // collective still running there would read a channel the next team reuses.
  const std::array<std::uint64_t, 1> busy{runs_in_arena() ? 1U : 0U};
  std::array<std::uint64_t, 1> any_busy{};
  comm::Options on_messages;
  on_messages.algorithm = "recursive_doubling";
  comm::allreduce(busy, any_busy, dash::max{}, *group_, on_messages);
  if (any_busy[0] != 0) {
    throw InvalidState("dash::Team::free: a collective on the team, or on a team split from it, is still running "
                       "on a member (complete its request before freeing the team)");
  }
  release();
  freed_ = true;
}

bool Team::runs_in_arena() const noexcept {
  if (group_ && comm::team_channel_busy(*group_)) {
    return true;
  }
  return std::any_of(children_.begin(), children_.end(),
                     [](const std::unique_ptr<Team>& child) { return child->runs_in_arena(); });
}

MPI_Comm Team::mpi_comm() {
  require_member("dash::Team::mpi_comm");
  if (parent_ == nullptr) {
    return comm::base_comm();  // All(): the library's own duplicate of MPI_COMM_WORLD
  }
  if (!communicator_) {
    communicator_ = std::make_unique<comm::GroupCommunicator>(*group_);
  }
  return communicator_->get();
}

Team::Agreement Team::agree(std::uint64_t call, std::uint64_t concern) const {
  const std::array<std::uint64_t, 3> mine{call, ~call, concern};
  std::array<std::uint64_t, 3> extremes{};
  comm::allreduce(mine, extremes, dash::max{}, *group_);
  return {extremes[0] == call && extremes[1] == ~call, extremes[2]};
}

bool Team::members_agree(std::uint64_t call) const { return agree(call, 0).same_call; }

void Team::throw_disagreement(const char* function) {
  throw InvalidArgument(std::string(function) +
                        ": the members of the team disagree: another member passed invalid arguments, or called "
                        "a different team operation, or passed a different n, algorithm, number of sorters or "
                        "of table holders");
}

TeamStats Team::stats() const {
  if (freed_) {
    require_member("dash::Team::stats");
  }
  TeamStats stats;
  if (is_null()) {
    stats.representation = "none";
    return stats;
  }
  stats.representation = ranks_->representation();
  stats.table_rows = ranks_->rows_held();
  stats.cache_entries = ranks_->cache_entries();
  stats.cache_capacity = ranks_->cache_capacity();
  stats.bytes = ranks_->bytes_held();
  stats.split_peak_rows = split_peak_rows_;
  return stats;
}

}  // namespace dash
