#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/runtime.hpp>

#include "groups/group_state.hpp"

namespace dash::comm {

namespace {

class IdentityMap final : public RankMap {
public:
  int to_base(int group_rank) const override { return group_rank; }
};

class ExplicitMap final : public RankMap {
public:
  explicit ExplicitMap(std::vector<int> base_ranks) : base_ranks_(std::move(base_ranks)) {}
  int to_base(int group_rank) const override { return base_ranks_[static_cast<std::size_t>(group_rank)]; }

private:
  std::vector<int> base_ranks_;
};

// Tags 1 .. 256 serve the library's internal groups, the world group takes 257 .. 2^14; MPI
// guarantees tags up to at least 32767, so the rest stays for other groups.
constexpr int internal_tags = 256;
constexpr int world_tags = (1 << 14) - internal_tags;

}  // namespace

TagSpace Group::world_tag_space() { return TagSpace{1 + internal_tags, world_tags}; }

TagSpace Group::internal_tag_space() { return TagSpace{1, internal_tags}; }

const Group& Group::world() {
  // Rebuilt when the library is re-initialised (possible when the application owns MPI): keyed on
  // the initialisation, not on the base communicator's handle, which MPI may hand out again.
  static std::unique_ptr<Group> group;
  static unsigned built_for = 0;
  const unsigned generation = runtime_generation();
  if (!group || built_for != generation) {
    group = std::make_unique<Group>(static_cast<int>(dash::size()), dash::myid(),
                                    std::make_shared<IdentityMap>(), world_tag_space());
    group->state_->world = true;
    built_for = generation;
  }
  return *group;
}

bool Group::is_world() const { return state_->world; }

Group Group::of_base_ranks(std::vector<int> base_ranks, TagSpace tags) {
  const int world_size = static_cast<int>(dash::size());
  const int me = dash::myid();
  std::vector<int> sorted = base_ranks;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw invalid_argument("dash::comm::Group::of_base_ranks", "base_ranks", "a list with duplicates",
                           "distinct ranks");
  }
  if (!sorted.empty() && (sorted.front() < 0 || sorted.back() >= world_size)) {
    throw out_of_range("dash::comm::Group::of_base_ranks", "base_ranks",
                       sorted.front() < 0 ? sorted.front() : sorted.back(),
                       "ranks in [0, " + std::to_string(world_size) + ")");
  }
  const auto mine = std::find(base_ranks.begin(), base_ranks.end(), me);
  if (mine == base_ranks.end()) {
    throw invalid_argument("dash::comm::Group::of_base_ranks", "base_ranks", "a list without the caller",
                           "a list that contains the calling process (rank " + std::to_string(me) + ")");
  }
  const int rank = static_cast<int>(mine - base_ranks.begin());
  const int size = static_cast<int>(base_ranks.size());
  return Group(size, rank, std::make_shared<ExplicitMap>(std::move(base_ranks)), tags);
}

Group::Group(int size, int rank, std::shared_ptr<const RankMap> map, TagSpace tags)
    : state_(std::make_shared<State>()) {
  // Two tags at least: a collective and its cross-rank argument check run at once, each on its own tag.
  if (tags.first < 0 || tags.count < 2 || tags.first > INT_MAX - tags.count) {
    throw invalid_argument("dash::comm::Group", "tags.count", tags.count,
                           "a tag range [first, first + count) of at least two tags within [0, INT_MAX]");
  }
  static std::uint64_t groups_made = 0;  // groups are made by one thread at a time, as collectives run
  state_->serial = ++groups_made;
  state_->size = size;
  state_->rank = rank;
  state_->map = std::move(map);
  state_->tags = tags;
}

int Group::size() const noexcept { return state_->size; }
int Group::rank() const noexcept { return state_->rank; }
const TagSpace& Group::tags() const noexcept { return state_->tags; }
MPI_Comm Group::comm() const { return base_comm(); }

int Group::base_rank(int group_rank) const {
  if (group_rank < 0 || group_rank >= state_->size) {
    throw out_of_range("dash::comm::Group::base_rank", "group_rank", group_rank,
                       "a rank in [0, " + std::to_string(state_->size) + ")");
  }
  return state_->map->to_base(group_rank);
}

}  // namespace dash::comm
