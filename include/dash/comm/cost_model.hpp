#pragma once
// The α-β-γ cost model (docs/design.md §2 "Schedules are data": the third consumer of a schedule).
// A collective's cost is counted in units along its critical path, as the schedule verifier
// measures it (schedule/verifier.hpp): message start-ups, blocks on the wire and blocks combined,
// plus the blocks the busiest rank copies locally. Four machine parameters turn the units into
// seconds; selection (selection.hpp) runs the algorithm with the lowest prediction.
//
// The model is flat (Sack 2011 §3.1 model "C", Rabenseifner 2004 §3.1): no topology, no congestion,
// and the actions of one round overlap, so a round that sends to every peer at once costs one
// start-up; only the processor's time to post each send (LogP's overhead o, Culler et al. 1993) is
// paid one send after the other, for every send a rank queues behind another of the same round.

#include <cstddef>
#include <string>
#include <string_view>

namespace dash::comm {

// Seconds per unit, all >= 0. The defaults are calibrated for Open MPI 4.1 over shared memory on
// the 2-core development machine, each from two algorithms whose costs differ in that term alone
// (P = 2 medians; docs/collectives.md, "Selection", has the measurements):
// - alpha: one more start-up on the critical path (allreduce of 8 B with one message and with two).
// - beta: a byte on the wire (binomial broadcasts of 256 KiB and of 4 MiB).
// - gamma: a byte combined (allreduce of 4 MiB combining the whole vector or half of it).
// - delta: a byte copied locally (allgather and alltoall of 4 MiB with and without Bruck's scratch
//   copy and reorder).
// A collective of a group on several nodes prices its messages with alpha_net and beta_net
// instead (between_nodes): every round of its schedules has a message between nodes on the
// critical path, or waits for one. Their defaults are an assumption, not a measurement here: an
// MPI message between two nodes of an InfiniBand HDR or Slingshot cluster, about 2 us and
// 10 GB/s. scripts/cluster sets the emulated hosts' own (TCP over loopback; docs/testing.md).
// - overhead: 0: at P = 2 no algorithm queues a send behind another, and the start-ups above
//   include the processor's part of a message. Set it where many ranks share a network whose
//   latency is close to the processor's cost per message (as sim/run-alltoall does), where posting
//   all p - 1 sends of a linear alltoall at once costs more than Bruck's lg p rounds for small
//   blocks.
// DASH_COST_MODEL (docs/configuration.md) overrides any of them.
struct CostParameters {
  double alpha = 5e-7;   // per message start-up
  double beta = 8e-11;   // per byte on the wire
  double gamma = 3e-10;  // per byte combined by the reduction operation
  double delta = 2e-10;  // per byte copied locally (staging, Bruck's reorder)
  double alpha_net = 2e-6;   // per start-up of a message between nodes
  double beta_net = 1e-10;   // per byte on the wire between nodes
  double overhead = 0;       // per send queued behind another of the same round (LogP's o)

  friend bool operator==(const CostParameters&, const CostParameters&) = default;
};

// A collective's cost in units of one block (a contribution's bytes / segments).
struct CostTerms {
  double startups = 0;        // message start-ups along the critical path
  double blocks = 0;          // blocks on the wire along the critical path
  double reduced_blocks = 0;  // blocks combined along the critical path
  double copied_blocks = 0;   // blocks the busiest rank copies locally
  double queued_sends = 0;    // the most sends one rank posts behind another of the same round
};

// alpha * startups + overhead * queued_sends
//   + (beta * blocks + gamma * reduced_blocks + delta * copied_blocks) * block_bytes.
double predicted_seconds(const CostTerms& terms, std::size_t block_bytes, const CostParameters& parameters) noexcept;

// The parameters of messages between nodes: `parameters` with alpha_net and beta_net as alpha and beta.
CostParameters between_nodes(const CostParameters& parameters) noexcept;

// Parses "alpha=5e-7,beta=8e-11,gamma=3e-10,delta=2e-10,alpha_net=2e-6,beta_net=1e-10,overhead=0":
// comma-separated assignments of any of the seven parameters, in any order, each at most once, to a finite number >= 0 (seconds per
// unit); the others keep their defaults. Throws dash::InvalidArgument naming `function`,
// `argument`, the text and the expected format otherwise.
CostParameters parse_cost_parameters(std::string_view text,
                                     std::string_view function = "dash::comm::parse_cost_parameters",
                                     std::string_view argument = "text");

// "alpha=5e-07,beta=8e-11,gamma=3e-10,delta=2e-10,alpha_net=2e-06,beta_net=1e-10,overhead=0": what
// parse_cost_parameters reads back.
std::string to_string(const CostParameters& parameters);

}  // namespace dash::comm
