#pragma once
// The schedule verifier: runs all P ranks of a collective's schedules symbolically in one
// process and proves that they compute what the collective promises (collective.hpp).
//
// It tracks, for every block of every rank's buffers, which block of which ranks' data it holds
// (an ordered set of rank intervals per origin block). It checks that
// - every send meets a receive of the same size from the same peer (messages match in the order
//   both sides list them), and that the schedules cannot deadlock;
// - no action writes the input, addresses a block outside its buffer, or sends a block that was
//   never written; no two actions of one round write the same block or read a block another
//   writes;
// - combinations never count a contribution twice (unless the operation is idempotent), and keep
//   rank order for non-commutative operations;
// - every output block ends with exactly the expected content, in canonical order unless the
//   caller allows non-canonical placement (then the output is a permutation of it); blocks the
//   collective leaves untouched (exscan's rank 0, neighbour slots at a non-periodic edge) are
//   never written.
//
// It also measures the schedules: rounds, messages and blocks per rank, and the critical path
// under the α-β-γ model, one unit vector at a time (start-ups, blocks transferred, blocks
// combined), which tests compare with the published closed forms. Each term is maximised on its
// own, so the three may come from different paths. A message costs from the later of its send's
// and its receive's round start; the actions of a round overlap (multi-port), so one-port
// algorithms give each send its own round. Barriers are verified as idempotent whatever
// shape.op says: a token heard twice is harmless.

#include <cstdint>
#include <functional>
#include <string>

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

struct VerifyOptions {
  // Accept non-canonical placement: each output block must hold what its Schedule::placement
  // declares, or, for schedules that declare none, the output must be a permutation of the
  // expected blocks.
  bool allow_non_canonical = false;
};

struct ScheduleMetrics {
  std::size_t max_communication_rounds = 0;  // most rounds with a message, over all ranks
  std::size_t max_messages_sent = 0;       // most sends of any rank
  std::size_t total_messages = 0;
  std::uint64_t max_blocks_sent = 0;       // most blocks sent by any rank
  std::uint64_t total_blocks_sent = 0;
  // Critical path, each term on its own: message start-ups (α = 1), blocks on the wire along the
  // path (β = 1 per block), blocks combined along the path (γ = 1 per block).
  double critical_startups = 0;
  double critical_blocks = 0;
  double critical_reduced_blocks = 0;
};

struct VerificationReport {
  bool ok = false;
  std::string error;  // the first problem found, naming rank, round and action
  ScheduleMetrics metrics;
};

using ScheduleOfRank = std::function<Schedule(int rank)>;

VerificationReport verify(const CollectiveShape& shape, const ScheduleOfRank& schedule_of,
                          VerifyOptions options = {});

}  // namespace dash::comm::schedule
