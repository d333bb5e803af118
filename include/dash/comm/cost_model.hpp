#pragma once
// The α-β-γ cost model (docs/design.md §2 "Schedules are data": the third consumer of a schedule).
// A collective's cost is counted in units along its critical path, as the schedule verifier
// measures it (schedule/verifier.hpp): message start-ups, blocks on the wire and blocks combined,
// plus the blocks the busiest rank copies locally. Four machine parameters turn the units into
// seconds; selection (algorithms.hpp) runs the algorithm with the lowest prediction.
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
// the 2-core development machine (bench-results/results.json of scripts/demo, P = 2, medians):
// - alpha: one more start-up on the critical path. allreduce of 8 B takes 0.80 us with one
//   message (recursive_doubling) and 1.3 us with two (rabenseifner, ring): 0.5 us.
// - beta: broadcast (binomial) of 256 KiB takes 21 us, of 4 MiB 336 us: 8e-11 s/B (12.5 GB/s).
// - gamma: allreduce of 4 MiB takes 3.45 ms when every rank combines the whole vector
//   (recursive_doubling) and 2.68 ms when it combines half of it (rabenseifner): 0.77 ms for
//   2 MiB less, less one start-up: 3.7e-10 s/B; 256 KiB gives 1.9e-10; 3e-10 s/B.
// - delta: allgather of 4 MiB takes 0.64 ms without staging (ring) and 2.42 ms with Bruck's
//   scratch copy and reorder (8 MiB more copied): 2.1e-10 s/B; alltoall (Bruck, 16 MiB more):
//   2.0e-10 s/B; 2e-10 s/B.
// A collective of a group on several nodes prices its messages with alpha_net and beta_net
// instead (between_nodes): every round of its schedules has a message between nodes on the
// critical path, or waits for one. Their defaults are an assumption, not a measurement here: an
// MPI message between two nodes of an InfiniBand HDR or Slingshot cluster, about 2 us and
// 10 GB/s. scripts/cluster sets the emulated hosts' own (TCP over loopback; docs/testing.md).
// - overhead: 0, as measured here: at P = 2 no algorithm queues a send behind another, and the
//   start-ups above include the processor's part of a message. Set it where many ranks share a
//   network whose latency is close to the processor's cost per message (sim/run-alltoall: 0.2 us on
//   a 1 us network, where posting all p - 1 sends of a linear alltoall at once costs more than
//   Bruck's lg p rounds for small blocks).
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
