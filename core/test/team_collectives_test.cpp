// Collectives on teams in the collective arena: a team whose members share a node runs them in an
// arena channel its members agreed on when it was made (comm/groups/group_paths.hpp); on several nodes
// the hierarchical algorithms serve it. Every collective against MPI's on a communicator of the
// same members in the same order (contiguous, sibling and reordered teams, vectors from one cache
// line to many slots), nested teams each on a channel of its own until the channels run out (then
// on messages, with the reason), collectives of different channels started in different orders on
// different ranks, a freed team's channel serving the next team, and freeing a team whose
// collective still runs.
//
// Map: helpers (whether the arena is on and serves a team, test values, what explain() says:
// shared_memory_unfit, arena_channel) and expect_collectives_match (every arena collective against
// MPI's); then the tests in the order above: split teams, reordered teams, nested teams in any
// order, channels of teams that share a process, a freed team's channel, freeing while running.

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "reference_comm.hpp"

namespace {

using dash::Team;
using dash::comm::Coll;
using dash::testing::ReferenceComm;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

// Whether the arena is on in this run.
bool arena_on() { return dash::comm::config().shared_memory_access; }

// Whether the members of `team` share one node: the node indices of its members agree (MPI's
// reduction on the team's reference communicator is the oracle).
bool on_one_node(MPI_Comm reference) {
  const int node = dash::comm::locality().node;
  std::array<int, 2> mine{node, -node};
  std::array<int, 2> least{};
  MPI_Allreduce(mine.data(), least.data(), 2, MPI_INT, MPI_MIN, reference);
  return least[0] == -least[1];
}

// Whether the node arena serves a team of `size` members on `reference`'s processes: the arena is
// on, and they are several on one node.
bool arena_serves(int size, MPI_Comm reference) { return arena_on() && size > 1 && on_one_node(reference); }

std::vector<std::int64_t> values(std::size_t n, int seed) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<std::int64_t>(seed) * 1000003 + static_cast<std::int64_t>(i % 9973) * 7 - 5;
  }
  return v;
}

// Why shared_memory is unfit for an allreduce of `bytes` on `team` (empty when it fits); explain()
// says the same of the team's arena path.
std::string shared_memory_unfit(const Team& team, std::size_t bytes) {
  const dash::comm::Choice choice = dash::comm::explain(Coll::allreduce, bytes, team.group());
  for (const dash::comm::Candidate& candidate : choice.candidates) {
    if (candidate.algorithm == "shared_memory") {
      EXPECT_EQ(choice.arena.serves, candidate.unfit.empty());
      EXPECT_EQ(choice.arena.serves ? "" : choice.arena.detail, candidate.unfit);
      return candidate.unfit;
    }
  }
  return "no shared_memory candidate";
}

// The team channel explain() names for `team`'s arena path ("arena channel c of the node ..."), 0
// when the arena does not serve it.
int arena_channel(const Team& team) {
  const dash::comm::Choice choice = dash::comm::explain(Coll::allreduce, 8, team.group());
  if (!choice.arena.serves) {
    return 0;
  }
  return std::stoi(choice.arena.detail.substr(std::string("arena channel ").size()));
}

// Every collective of the arena on `team` at `n` elements per contribution (the library's choice,
// and shared_memory forced where the arena serves the team) against MPI's on `reference`.
void expect_collectives_match(const Team& team, MPI_Comm reference, std::size_t n) {
  const int p = static_cast<int>(team.size());
  const int rank = team.myid();
  const auto np = static_cast<std::size_t>(p);
  std::vector<dash::comm::Options> choices(1);
  if (arena_serves(p, reference)) {
    choices.emplace_back().algorithm = "shared_memory";
  }
  const std::vector<std::int64_t> in = values(n, me() + 1);
  const std::vector<std::int64_t> blocks = values(n * np, me() + 7);
  for (const dash::comm::Options& options : choices) {
    const std::string how = options.algorithm.empty() ? "library's choice" : options.algorithm;
    const std::string what = " of " + std::to_string(n) + " on a team of " + std::to_string(p) + " (" + how + ")";
    const int count = static_cast<int>(n);

    std::vector<std::int64_t> ours(n);
    std::vector<std::int64_t> theirs(n);
    dash::comm::allreduce(in, ours, dash::plus{}, team.group(), options);
    MPI_Allreduce(in.data(), theirs.data(), count, MPI_INT64_T, MPI_SUM, reference);
    EXPECT_EQ(ours, theirs) << "allreduce" << what;

    std::vector<std::int64_t> gathered(n * np);
    std::vector<std::int64_t> gathered_mpi(n * np);
    dash::comm::allgather(in, gathered, team.group(), options);
    MPI_Allgather(in.data(), count, MPI_INT64_T, gathered_mpi.data(), count, MPI_INT64_T, reference);
    EXPECT_EQ(gathered, gathered_mpi) << "allgather" << what;

    std::vector<std::int64_t> exchanged(n * np);
    std::vector<std::int64_t> exchanged_mpi(n * np);
    dash::comm::alltoall(blocks, exchanged, team.group(), options);
    MPI_Alltoall(blocks.data(), count, MPI_INT64_T, exchanged_mpi.data(), count, MPI_INT64_T, reference);
    EXPECT_EQ(exchanged, exchanged_mpi) << "alltoall" << what;

    std::vector<std::int64_t> scattered(n);
    std::vector<std::int64_t> scattered_mpi(n);
    dash::comm::reduce_scatter_block(blocks, scattered, dash::plus{}, team.group(), options);
    MPI_Reduce_scatter_block(blocks.data(), scattered_mpi.data(), count, MPI_INT64_T, MPI_SUM, reference);
    EXPECT_EQ(scattered, scattered_mpi) << "reduce_scatter_block" << what;

    const int root = p - 1;
    std::vector<std::int64_t> broadcast = rank == root ? in : std::vector<std::int64_t>(n, -1);
    std::vector<std::int64_t> broadcast_mpi = broadcast;
    dash::comm::bcast(broadcast, root, team.group(), options);
    MPI_Bcast(broadcast_mpi.data(), count, MPI_INT64_T, root, reference);
    EXPECT_EQ(broadcast, broadcast_mpi) << "bcast" << what;
  }
}

// One cache line, a few slots, and enough for the in-place (single-copy) paths.
const std::vector<std::size_t> sizes = {1, 15, 40000, 300000};

TEST(TeamCollectives, TeamsOfASplitRunInTheirArenaChannel) {
  for (const int parts : {1, std::min(2, P())}) {
    Team& team = Team::All().split(parts);
    const ReferenceComm reference(me() * parts / P(), me());
    EXPECT_EQ(shared_memory_unfit(team, 8).empty(), arena_serves(static_cast<int>(team.size()), reference.get()))
        << shared_memory_unfit(team, 8);
    for (const std::size_t n : sizes) {
      expect_collectives_match(team, reference.get(), n);
    }
    team.free();
  }
}

// Members in reverse order and not contiguous: group rank and node rank differ.
TEST(TeamCollectives, ReorderedTeamsMapTheirRanksToTheirMembersRegions) {
  Team& team = Team::All().split_by(me() % 2, -me());
  const ReferenceComm reference(me() % 2, -me());
  for (const std::size_t n : sizes) {
    expect_collectives_match(team, reference.get(), n);
  }
  team.free();
}

// Each split of a team takes a channel of its own while there are free ones (DASH_ARENA_CHANNELS, 4
// by default), lowest first; the next level finds none and runs on messages, and explain() says so.
// Collectives of the world and of every level are started in one order on even ranks and in the
// reverse order on odd ones, and waited for in start order: each wait must drive the others' runs,
// which the other ranks wait for first.
TEST(TeamCollectives, NestedTeamsAndCollectivesOfSeveralChannelsInAnyOrder) {
  const int channels = dash::comm::config().arena_team_channels;
  std::vector<Team*> teams{&Team::All().split(std::min(2, P()))};
  while (static_cast<int>(teams.size()) <= channels) {
    teams.push_back(&teams.back()->split(1));
  }
  const ReferenceComm team_reference(me() * std::min(2, P()) / P(), me());
  const bool served = arena_serves(static_cast<int>(teams.front()->size()), team_reference.get());
  for (std::size_t level = 0; level < teams.size(); ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    const bool has_channel = served && static_cast<int>(level) < channels;
    EXPECT_EQ(arena_channel(*teams[level]), has_channel ? static_cast<int>(level) + 1 : 0);
    if (served && !has_channel) {
      EXPECT_EQ(shared_memory_unfit(*teams[level], 8),
                "no arena channel was free on every member when the team was made (each process has " +
                    std::to_string(channels) +
                    " for teams, DASH_ARENA_CHANNELS, and its live teams hold them: free teams no longer needed)");
    }
  }

  constexpr std::size_t n = 200000;  // several slots: no run completes when it starts
  const std::vector<std::int64_t> in = values(n, me() + 3);
  std::vector<const dash::comm::Group*> groups = {&dash::comm::Group::world()};
  for (const Team* team : teams) {
    groups.push_back(&team->group());
  }
  std::vector<std::vector<std::int64_t>> outputs(groups.size(), std::vector<std::int64_t>(n));
  std::vector<std::size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  if (me() % 2 == 1) {
    std::reverse(order.begin(), order.end());
  }
  std::vector<dash::comm::Request<std::int64_t>> requests;
  for (const std::size_t g : order) {
    requests.push_back(dash::comm::iallreduce(in, outputs[g], dash::plus{}, *groups[g]));
  }
  for (dash::comm::Request<std::int64_t>& request : requests) {
    request.wait();
  }
  const ReferenceComm world_reference(0, me());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::int64_t> expected(n);
    MPI_Allreduce(in.data(), expected.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM,
                  g == 0 ? world_reference.get() : team_reference.get());
    EXPECT_EQ(outputs[g], expected) << "group " << g;
  }
  teams.front()->free();
}

// Two live teams that share a process never share a channel; sibling teams, whose members are
// disjoint, may. A team made after another was freed may take its channel again.
TEST(TeamCollectives, TeamsThatShareAProcessNeverShareAChannel) {
  Team& halves = Team::All().split(std::min(2, P()));
  Team& parity = Team::All().split_by(me() % 2, me());
  Team& whole = Team::All().split(1);
  const std::array<int, 3> mine{arena_channel(halves), arena_channel(parity), arena_channel(whole)};
  for (std::size_t a = 0; a < mine.size(); ++a) {
    for (std::size_t b = a + 1; b < mine.size(); ++b) {
      EXPECT_TRUE(mine[a] == 0 || mine[a] != mine[b]) << "teams " << a << " and " << b << " share channel " << mine[a];
    }
  }
  // Every member of a team names the same channel.
  const ReferenceComm halves_reference(me() * std::min(2, P()) / P(), me());
  std::array<int, 2> extremes{mine[0], -mine[0]};
  std::array<int, 2> least{};
  MPI_Allreduce(extremes.data(), least.data(), 2, MPI_INT, MPI_MIN, halves_reference.get());
  EXPECT_EQ(least[0], -least[1]);
  const int freed = mine[2];
  whole.free();
  Team& again = Team::All().split(1);
  EXPECT_EQ(arena_channel(again), freed);
  again.free();
  parity.free();
  halves.free();
}

// Every split of Team::All() below takes channel 1, with other members each time: freeing a team
// zeroes its channel, so the next team's tickets start afresh everywhere. The
// first and the last round broadcast in the same packed entries, the others use lines and slots.
TEST(TeamCollectives, AFreedTeamsChannelServesTheNextTeam) {
  const std::array<std::size_t, 4> round_sizes = {1, 15, 40000, 1};
  for (int round = 0; round < 4; ++round) {
    const int color = round % 2 == 0 ? me() % 2 : me() * 2 / std::max(P(), 1);
    const int key = round % 3 == 0 ? me() : -me();
    Team& team = Team::All().split_by(color, key);
    const ReferenceComm reference(color, key);
    expect_collectives_match(team, reference.get(), round_sizes[static_cast<std::size_t>(round)]);
    // Bytes that differ from round to round: a stamp left from an earlier team would hand a reader
    // that team's bytes.
    for (int call = 0; call < 8; ++call) {
      const auto expected = static_cast<std::uint8_t>(round * 16 + call);
      std::vector<std::uint8_t> byte(1, team.myid() == 0 ? expected : std::uint8_t{0xff});
      dash::comm::bcast(byte, 0, team.group());
      EXPECT_EQ(byte[0], expected) << "round " << round << ", broadcast " << call;
    }
    team.free();
  }
}

// A collective still running in the team's channel on some member makes free() throw on every
// member (the next team would reuse the channel under it); once it completed, free() succeeds. On
// several nodes the team's allreduce runs hierarchically, in the channels of its nodes.
TEST(TeamCollectives, FreeingATeamWhoseCollectiveRunsIsRefused) {
  Team& team = Team::All().split(1);
  const dash::comm::Choice choice = dash::comm::explain(Coll::allreduce, 8, team.group());
  if (!choice.arena.serves && !choice.hierarchy.serves) {
    team.free();
    return;  // the collective completes when it starts: a single member, or messages
  }
  dash::comm::Options in_arena;
  in_arena.algorithm = choice.arena.serves ? "shared_memory" : "hierarchical";
  constexpr std::size_t n = 200000;
  const std::vector<std::int64_t> in = values(n, me());
  std::vector<std::int64_t> out(n);
  // The others start first and cannot finish without rank 0, which starts after they told it.
  std::optional<dash::comm::Request<std::int64_t>> running;
  int token = 0;
  if (me() != 0) {
    running.emplace(dash::comm::iallreduce(in, out, dash::plus{}, team.group(), in_arena));
    MPI_Send(&token, 1, MPI_INT, 0, 77, dash::comm::base_comm());
  } else {
    for (int other = 1; other < P(); ++other) {
      MPI_Recv(&token, 1, MPI_INT, other, 77, dash::comm::base_comm(), MPI_STATUS_IGNORE);
    }
    running.emplace(dash::comm::iallreduce(in, out, dash::plus{}, team.group(), in_arena));
  }
  try {
    team.free();
    FAIL() << "no exception";
  } catch (const dash::InvalidState& error) {
    EXPECT_STREQ(error.what(),
                 "dash::Team::free: a collective on the team, or on a team split from it, is still running on a "
                 "member (complete its request before freeing the team)");
  }
  running->wait();
  std::vector<std::int64_t> expected(n);
  MPI_Allreduce(in.data(), expected.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM, dash::comm::base_comm());
  EXPECT_EQ(out, expected);
  team.free();
  EXPECT_TRUE(team.is_freed());
}

}  // namespace
