#pragma once
// A rank's part of a collective algorithm as data (docs/design.md §2 "Schedules are data"): an
// ordered list of rounds, each an unordered set of actions. Generators produce schedules as pure
// functions; the verifier, the execution engine and the cost model consume them.
//
// Semantics every consumer relies on:
// - an action of round k starts only after every action of rounds < k of the same rank
//   completed; the engine may start it earlier, as soon as its own inputs are ready;
// - no two actions of one round may touch the same block unless both only read it (a combining
//   action counts as reading and writing its destination): MPI reads a send buffer until the
//   send completes, so a receive into it during the same round would race;
// - the actions of one round run concurrently (multi-port); an algorithm designed for one port
//   per rank puts its sends into successive rounds;
// - messages between two ranks match in the order both sides list them (MPI's non-overtaking
//   rule), so a send and its receive carry the same number of blocks;
// - a send reads its blocks when its round starts; a receive writes when it completes;
// - a fenced round holds its sends, and those of every later round, until every action of the
//   earlier rounds completed (the engine may still post its receives early).

#include <cstdint>
#include <string>
#include <vector>

#include <dash/comm/schedule/action.hpp>

namespace dash::comm::schedule {

struct Round {
  std::vector<Action> actions;
  // A barrier before this round's messages leave: algorithms whose stages must not overlap on
  // the network (the multi-port bucket phases, Sack 2011 §3.4.2) set it where a stage begins, since
  // sends that run ahead on their own inputs would share links with the stage still in flight.
  bool fence = false;
};

struct Schedule {
  std::vector<Round> rounds;
  // Blocks of scratch space the schedule uses (Buffer::scratch indices are below this).
  std::uint32_t scratch_blocks = 0;
  // Name of the algorithm, for explain() and error messages.
  std::string algorithm;
  // Non-canonical schedules (output in arrival order, Kowalewski 2021 §5.2.3): output block i ends
  // with the content canonical output block placement[i] would have. Empty: canonical placement.
  std::vector<std::uint32_t> placement;

  // Appends a new, empty round and returns it.
  Round& add_round() { return rounds.emplace_back(); }
  // Fences every round: the rank's actions run one round at a time, as the cost model prices them.
  void fence_every_round() noexcept;
  std::size_t message_count() const noexcept;
};

}  // namespace dash::comm::schedule
