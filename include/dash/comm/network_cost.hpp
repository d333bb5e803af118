#pragma once
// The congestion-aware cost of a collective on a network (Sack 2011 §3.1 model "C_torus"/"C_Clos",
// §5.4): all P ranks' schedules are laid onto `network`, one rank per node (group rank = node), and
// counted stage by stage. Pure: no MPI.
//
// When each message travels: each rank runs its rounds in order; a message travels in the stage
// in which the later of its send's and its receive's rounds starts (as the verifier times the
// critical path), and a round ends one stage after the latest of its messages (a round without
// messages takes none). A round starts when the rank's previous round ended: the model never lets
// sends run ahead, as the engine may within its window unless the round is fenced.
// Messages between two ranks match in the order both list them; a send without a receive (a
// schedule written only to be priced) travels when its round starts. Lockstep schedules, whose
// round k exchanges with round k of its peers, put round k in stage k; trees and chains, whose
// ranks wait for their parents, take as many stages as their longest chain of messages.
//
// Per stage:
// - start-ups: the most messages any rank sends (start-ups on different ports never overlap);
// - bandwidth: the largest number of blocks any directed link carries (δ units per block), where
//   - flat: each node has one link into a full crossbar: the most blocks a node sends or receives;
//   - clos (two-level fat tree, T nodes per leaf switch, uplink ratio µ): one link per node (δ = β)
//     and µT uplinks per leaf with perfect ("oracular") routing: the larger of the busiest node's
//     sent or received blocks and the busiest leaf's blocks leaving or entering it divided by µT;
//   - grid (torus or mesh): messages follow dimension-ordered shortest paths, the fastest-varying
//     (last) dimension first; grids number nodes row-major like MPI_Cart_create, so Sack's X
//     (fastest) is our last dimension and its XxYxZ torus is our dims {Z, Y, X}. On a wrapped
//     dimension a transfer of exactly half the ring goes half each way (GridRouting::adaptive) or
//     one way (GridRouting::deterministic, below). One port (the default):
//     a node also sends and receives one message at a time, so its blocks sent and received
//     bound the stage as well; multi-port: each of its links is a port.
//
// Reorder stages on grids. A stage in which every rank sends at most one message and receives at
// most one (a permutation: the pre-swap of reordered recursive doubling, a ring step, any XOR
// exchange) costs the smaller of its dimension-ordered load and the time the worst permutation
// of P messages of its largest size m needs at full bisection bandwidth, m·P over the directed
// links crossing the narrowest bisection, but at least m. This is how Sack 2011 (§3.4.1, §3.5.6)
// charges its reorder stages, whatever their dimension-ordered congestion: it assumes that
// adaptive routing (BG/P's) fits any permutation through the bisection in that time; it observed
// no swap congestion, and its 8x8x8 count with this charge predicts the measured 333 MB/s.
// Regular exchanges keep their routed cost: a ring step loads a link with m,
// an XOR along one dimension of extent d with at most m·d/4 (torus) or m·d/2 (mesh), never more
// than the bound. On the 8x8x8 torus the bound is m·8/4 = 2m, Sack's n∛P/4.
//
// A grid's routing is the network's (network.routing, set by the descriptor's ",routing=" field).
// GridRouting::deterministic drops both adaptive-routing assumptions, for networks whose paths are
// fixed, such as SimGrid's torus (sim/): every message keeps its dimension-ordered path, a transfer of
// half a ring goes up the dimension (towards higher coordinates) except from coordinate d/2, which
// goes down (SimGrid's TorusZone rule), and permutation stages cost their routed load.
//
// Self-messages cost a start-up but load no link.

#include <vector>

#include <dash/comm/network.hpp>
#include <dash/comm/schedule/collective.hpp>
#include <dash/comm/schedule/verifier.hpp>

namespace dash::comm {

struct NetworkCostOptions {
  // A node drives all its links at once (the multi-port bucket algorithms on a torus); otherwise
  // it sends one message and receives one at a time. Flat and Clos nodes have one link either way.
  bool multi_port = false;
  // Multi-port bandwidth lost to the router (Sack's 0.93 for six ports on BG/P): with
  // multi_port, δ_multiport = δ / multi_port_efficiency, in (0, 1].
  double multi_port_efficiency = 1.0;
};

struct NetworkCostTerms {
  double startups = 0;     // α units: Σ over stages of the most messages any rank sends
  double link_blocks = 0;  // δ units: Σ over stages of the stage's bandwidth load, in blocks
  std::vector<double> stage_link_blocks;  // each stage's bandwidth load, in blocks
  // Local work, which Sack's model leaves out and the library's flat closed forms price
  // (cost_model.hpp's gamma per combined and delta per copied byte; not Sack's link δ above):
  // Σ over stages of the most blocks any rank combines in rounds whose last
  // message travels in that stage (a round without messages: the stage before it starts), and
  // the most blocks any rank copies locally.
  double reduced_blocks = 0;
  double copied_blocks = 0;
};

// Costs the schedules of all shape.size ranks (`schedule_of(rank)`) of one collective on
// `network`. Throws dash::InvalidArgument for a grid whose node count differs from shape.size, a
// Clos network without nodes per leaf or with µ outside (0, 1], an efficiency outside (0, 1], an
// unknown grid routing, a message to or from a peer outside the group, or rounds that wait for each
// other in a cycle.
NetworkCostTerms network_cost(const CollectiveShape& shape, const schedule::ScheduleOfRank& schedule_of,
                              const Network& network, const NetworkCostOptions& options = {});

}  // namespace dash::comm
