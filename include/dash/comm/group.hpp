#pragma once
// The set of processes a collective runs over.
//
// A Group knows its size, the caller's rank in it, how to translate its ranks to ranks of the
// library's base communicator (dash::comm::base_comm()), and its own tag space. Every collective
// on a group takes the next tag of that space (and one more for its argument check in builds with
// DASH_CROSS_RANK_CHECKS, uniform_check.hpp); members call collectives on a group in the same
// order (as MPI requires), so they agree on the tag without communicating, and messages of
// concurrent collectives - on this group or on any group with a disjoint tag space - never match
// each other. Copies of a Group share its state (the tag sequence).
//
// Group::world() covers all processes. dash::Team (layer 1) provides its own groups from its
// distributed rank table; Group::of_base_ranks serves tests and small ad-hoc groups.

#include <memory>
#include <span>
#include <vector>

#include <mpi.h>

namespace dash::comm {

namespace detail {
struct GroupAccess;
}  // namespace detail

// The tags [first, first + count) of the base communicator a group uses.
struct TagSpace {
  int first = 0;
  int count = 0;
};

// Translates a group's ranks to base-communicator ranks.
class RankMap {
public:
  virtual ~RankMap() = default;
  virtual int to_base(int group_rank) const = 0;
};

class Group {
public:
  // All processes, ranks as in MPI_COMM_WORLD. Tags: world_tag_space().
  static const Group& world();
  // The tags the world group uses; other groups must use disjoint spaces.
  static TagSpace world_tag_space();
  // The tags of the library's internal groups (the rails of hierarchical collectives), disjoint
  // from the world group's and below them.
  static TagSpace internal_tag_space();

  // A group of the listed base ranks (distinct, each in [0, dash::size())); group rank i is
  // base_ranks[i]. Every listed process constructs it with the same list and tags; the caller
  // must be a member. Holds O(size) memory: teams use their distributed tables instead.
  static Group of_base_ranks(std::vector<int> base_ranks, TagSpace tags);

  // A group over `size` processes whose ranks `map` translates; `rank` is the caller's.
  Group(int size, int rank, std::shared_ptr<const RankMap> map, TagSpace tags);

  int size() const noexcept;
  int rank() const noexcept;
  int base_rank(int group_rank) const;
  MPI_Comm comm() const;
  const TagSpace& tags() const noexcept;

  // The tag of this member's next collective on the group (advances the sequence).
  int next_tag() const;

  // True for Group::world() and the groups that share its state (dash::Team::All()).
  bool is_world() const;

private:
  friend struct detail::GroupAccess;  // the layer's own code (its fast paths, selection)

  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace dash::comm
