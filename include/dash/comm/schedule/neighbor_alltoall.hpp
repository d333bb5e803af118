#pragma once
// Neighbourhood all-to-all schedules (Coll::neighbor_alltoall) over the Cartesian grid of
// shape.grid (collective.hpp): input slot k goes to the neighbour in slot k, output slot k comes
// from it (Kowalewski 2021 §5.3.1, Lst. 7.1).

#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

// Direct exchange: one round in which every slot with a neighbour sends its S blocks to it and
// receives S blocks from it. With m slots whose neighbour is another rank: m messages and m S
// blocks each way, one start-up on the critical path. A periodic dimension of size 1 makes the
// rank its own neighbour (a local copy); one of size 2 makes both neighbours the same rank, and
// the order of the two messages to it tells them apart (sends down then up, receives from up
// then down). Throws dash::InvalidArgument unless shape.grid is set and covers shape.size ranks.
Schedule neighbor_alltoall_direct(const CollectiveShape& shape, int rank);

}  // namespace dash::comm::schedule
