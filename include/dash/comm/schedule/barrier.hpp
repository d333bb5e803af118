#pragma once
// Barrier schedules (Coll::barrier): a token block per rank, combined with an idempotent
// operation until every rank's output has heard from every rank.

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Dissemination (Kowalewski 2021 §4.4, Fig. 4.4): in round j rank r sends its token to r + 2^j and
// combines the one from r - 2^j (mod p); ⌈lg p⌉ rounds, ⌈lg p⌉ one-block messages per rank,
// ⌈lg p⌉ start-ups on the critical path. For p not a power of two the last round brings some
// contributions twice, so the operation must be idempotent.
Schedule barrier_dissemination(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
