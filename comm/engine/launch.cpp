#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <dash/comm/algorithms.hpp>
#include <dash/comm/detail/launch.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/allgather.hpp>
#include <dash/comm/schedule/allreduce.hpp>
#include <dash/comm/schedule/alltoall.hpp>
#include <dash/comm/schedule/barrier.hpp>
#include <dash/comm/schedule/bcast.hpp>
#include <dash/comm/schedule/gather.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>
#include <dash/comm/schedule/scan.hpp>
#include <dash/comm/schedule/scatter.hpp>
#include <dash/comm/uniform_check.hpp>

namespace dash::comm {

namespace {

using schedule::Schedule;

// What selection may look at: the same on every rank of a correct call.
struct CallFacts {
  int size = 1;
  std::size_t bytes = 0;     // per contribution
  std::size_t elements = 0;  // per contribution
  bool commutative = true;
  bool variable = false;     // contributions of different sizes (allgatherv, alltoallv)
  bool canonical = true;     // the caller needs canonical placement
};

struct Algorithm {
  Coll collective;
  std::string_view name;
  std::function<Schedule(const CollectiveShape&, int)> generate;
  // Segments per contribution the algorithm works with.
  std::function<std::uint32_t(const CallFacts&)> segments;
  // Why the algorithm cannot serve the call; empty when it can.
  std::function<std::string(const CallFacts&)> unfit;
  // Leaves the output in arrival order (non-canonical placement).
  bool reorders_output = false;
};

std::uint32_t one_segment(const CallFacts&) { return 1; }

std::uint32_t p2_segments(const CallFacts& facts) {
  return schedule::floor_pow2(static_cast<std::uint32_t>(facts.size));
}

std::uint32_t p_segments(const CallFacts& facts) { return static_cast<std::uint32_t>(facts.size); }

// A pipelined broadcast moves 32 KiB segments (at least one, at most 1024).
std::uint32_t pipeline_segments(const CallFacts& facts) {
  constexpr std::size_t segment_bytes = 32 * 1024;
  return static_cast<std::uint32_t>(std::clamp<std::size_t>(facts.bytes / segment_bytes, 1, 1024));
}

std::string fits_always(const CallFacts&) { return {}; }

std::string needs_commutative(const CallFacts& facts) {
  return facts.commutative ? std::string() : "it reorders contributions, so it needs a commutative operation";
}

std::string needs_power_of_two(const CallFacts& facts) {
  return std::has_single_bit(static_cast<unsigned>(facts.size))
             ? std::string()
             : "it needs a power-of-two group size, not " + std::to_string(facts.size);
}

std::string needs_even_size(const CallFacts& facts) {
  return facts.size % 2 == 0 ? std::string() : "it needs an even group size, not " + std::to_string(facts.size);
}

std::vector<Algorithm> build_registry() {
  using namespace schedule;
  auto kary = [](const CollectiveShape& shape, int rank) { return bcast_kary_tree(shape, rank, 4); };
  return {
      {Coll::allreduce, "recursive_doubling", allreduce_recursive_doubling, one_segment, fits_always},
      {Coll::allreduce, "rabenseifner", allreduce_rabenseifner, p2_segments, fits_always},
      {Coll::allreduce, "binary_blocks", allreduce_binary_blocks, p2_segments, fits_always},
      {Coll::allreduce, "ring", allreduce_ring, p_segments, needs_commutative},
      {Coll::allreduce, "pairwise_ring", allreduce_pairwise_ring, p_segments, fits_always},
      {Coll::allgather, "sparbit", allgather_sparbit, one_segment, fits_always},
      {Coll::allgather, "ring", allgather_ring, one_segment, fits_always},
      {Coll::allgather, "recursive_doubling", allgather_recursive_doubling, one_segment, fits_always},
      {Coll::allgather, "bruck", allgather_bruck, one_segment, fits_always},
      {Coll::allgather, "bruck_noncanonical", allgather_bruck_noncanonical, one_segment, fits_always, true},
      {Coll::allgather, "neighbor_exchange", allgather_neighbor_exchange, one_segment, needs_even_size},
      {Coll::reduce_scatter, "recursive_halving", reduce_scatter_recursive_halving, one_segment, fits_always},
      {Coll::reduce_scatter, "pairwise", reduce_scatter_pairwise, one_segment, fits_always},
      {Coll::reduce_scatter, "ring", reduce_scatter_ring, one_segment, needs_commutative},
      {Coll::alltoall, "pairwise", alltoall_pairwise, one_segment, fits_always},
      {Coll::alltoall, "bruck", alltoall_bruck, one_segment, fits_always},
      {Coll::alltoall, "bruck_noncanonical", alltoall_bruck_noncanonical, one_segment, fits_always, true},
      {Coll::alltoall, "linear", alltoall_linear, one_segment, fits_always},
      {Coll::alltoall, "one_factor", alltoall_one_factor, one_segment, fits_always},
      {Coll::alltoall, "hypercube_xor", alltoall_hypercube_xor, one_segment, needs_power_of_two},
      {Coll::bcast, "binomial", bcast_binomial, one_segment, fits_always},
      {Coll::bcast, "scatter_allgather", bcast_scatter_allgather, p_segments, fits_always},
      {Coll::bcast, "pipelined_chain", bcast_pipelined_chain, pipeline_segments, fits_always},
      {Coll::bcast, "pipelined_binary_tree", bcast_pipelined_binary_tree, pipeline_segments, fits_always},
      {Coll::bcast, "kary_tree", kary, one_segment, fits_always},
      {Coll::reduce, "binomial", reduce_binomial, one_segment, fits_always},
      {Coll::reduce, "rabenseifner", reduce_rabenseifner, p2_segments, fits_always},
      {Coll::gather, "binomial", gather_binomial, one_segment, fits_always},
      {Coll::gather, "linear", gather_linear, one_segment, fits_always},
      {Coll::scatter, "binomial", scatter_binomial, one_segment, fits_always},
      {Coll::scatter, "linear", scatter_linear, one_segment, fits_always},
      {Coll::scan, "recursive_doubling", scan_recursive_doubling, one_segment, fits_always},
      {Coll::scan, "linear", scan_linear, one_segment, fits_always},
      {Coll::exscan, "recursive_doubling", exscan_recursive_doubling, one_segment, fits_always},
      {Coll::exscan, "linear", exscan_linear, one_segment, fits_always},
      {Coll::barrier, "dissemination", barrier_dissemination, one_segment, fits_always},
  };
}

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> table = build_registry();
  return table;
}

const Algorithm* find(Coll collective, std::string_view name) {
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective == collective && algorithm.name == name) {
      return &algorithm;
    }
  }
  return nullptr;
}

std::string upper(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

std::string known_names(Coll collective) {
  std::string names;
  for (const std::string_view name : algorithms(collective)) {
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

// The library's default: simple size thresholds until the cost model takes over selection.
std::pair<std::string_view, std::string_view> default_choice(Coll collective, const CallFacts& facts) {
  constexpr std::size_t small = 16 * 1024;
  const auto p2 = schedule::floor_pow2(static_cast<std::uint32_t>(std::max(facts.size, 1)));
  switch (collective) {
    case Coll::allreduce:
      if (facts.bytes < small || facts.elements < p2) {
        return {"recursive_doubling", "short vector (< 16 KiB or fewer elements than p'): fewest start-ups"};
      }
      return {"rabenseifner", "long vector: recursive halving and doubling moves 2n bytes instead of n lg p"};
    case Coll::allgather:
      if (!facts.canonical && !facts.variable && facts.bytes * static_cast<std::size_t>(facts.size) <= 64 * 1024 &&
          facts.size > 2) {
        return {"bruck_noncanonical", "small result, arrival order allowed: ceil(lg p) rounds, no final reorder"};
      }
      if (facts.variable) {
        return {"ring", "variable sizes: every block travels as its own message, no staging"};
      }
      if (facts.bytes * static_cast<std::size_t>(facts.size) <= 64 * 1024) {
        return {"sparbit", "small result (<= 64 KiB): ceil(lg p) rounds"};
      }
      return {"ring", "large result: neighbour-only traffic, bandwidth-optimal"};
    case Coll::reduce_scatter:
      if (facts.bytes * static_cast<std::size_t>(facts.size) <= 64 * 1024 && facts.size > 2) {
        return {"recursive_halving", "small vector (<= 64 KiB in all): lg p rounds"};
      }
      if (facts.commutative) {
        return {"ring", "long vector, commutative operation: p - 1 neighbour steps, no staging copy"};
      }
      return {"pairwise", "long vector, non-commutative operation: p - 1 steps in rank order"};
    case Coll::alltoall:
      if (!facts.canonical && !facts.variable && facts.bytes <= 256 && facts.size > 2) {
        return {"bruck_noncanonical", "small blocks, arrival order allowed: Bruck without the final reorder"};
      }
      if (facts.variable) {
        return {"pairwise", "variable sizes: direct exchange, no staging"};
      }
      if (facts.bytes <= 256 && facts.size > 2) {
        return {"bruck", "small blocks (<= 256 B): ceil(lg p) rounds of combined messages"};
      }
      return {"pairwise", "direct exchange: every block sent once"};
    case Coll::bcast:
      // Scatter + allgather moves 2(p-1)/p n per rank against the tree's n lg p: a gain from p = 3.
      if (facts.bytes <= 64 * 1024 || facts.size < 3 || facts.elements < static_cast<std::size_t>(facts.size)) {
        return {"binomial", "short message (<= 64 KiB) or p < 3: ceil(lg p) start-ups, n per edge"};
      }
      return {"scatter_allgather", "long message, p >= 3: each rank receives about 2n bytes instead of n lg p"};
    case Coll::reduce:
      if (facts.bytes < small || facts.elements < p2) {
        return {"binomial", "short vector (< 16 KiB or fewer elements than p'): fewest start-ups"};
      }
      return {"rabenseifner", "long vector: reduce-scatter then gather"};
    case Coll::gather:
    case Coll::scatter:
      return {"binomial", "ceil(lg p) rounds, every block sent once per tree level"};
    case Coll::scan:
    case Coll::exscan:
      return {"recursive_doubling", "ceil(lg p) rounds"};
    case Coll::barrier:
      break;
  }
  return {"dissemination", "ceil(lg p) rounds for any p"};
}

struct Selected {
  const Algorithm* algorithm = nullptr;
  std::string_view reason;  // a literal: selection allocates nothing on the way to a collective
};

Selected select(std::string_view function, Coll collective, const CallFacts& facts, std::string_view forced) {
  std::string_view name = forced;
  std::string variable;  // DASH_COLL_<OP>, built only when such settings exist
  if (name.empty() && !config().forced_algorithms.empty()) {
    variable = "DASH_COLL_" + upper(to_string(collective));
    for (const auto& [setting, algorithm] : config().forced_algorithms) {
      if (setting == variable) {
        name = algorithm;
      }
    }
  }
  if (!name.empty()) {
    const bool from_options = !forced.empty();
    const Algorithm* algorithm = find(collective, name);
    const auto origin = [&] {
      return from_options ? std::string("forced by Options::algorithm") : "forced by " + variable;
    };
    if (algorithm == nullptr) {
      throw invalid_argument(function, "algorithm (" + origin() + ")", name, "one of " + known_names(collective));
    }
    if (algorithm->reorders_output && facts.variable) {
      throw InvalidArgument(std::string(function) + ": algorithm '" + std::string(name) + "' (" + origin() +
                            ") cannot serve this call: it reorders blocks, which variable-size collectives do "
                            "not support");
    }
    if (algorithm->reorders_output && facts.canonical) {
      throw InvalidArgument(std::string(function) + ": algorithm '" + std::string(name) + "' (" + origin() +
                            ") cannot serve this call: it leaves the output in arrival order; set "
                            "Options::canonical_placement = false to accept that");
    }
    if (const std::string why = algorithm->unfit(facts); !why.empty()) {
      throw InvalidArgument(std::string(function) + ": algorithm '" + std::string(name) + "' (" + origin() +
                            ") cannot serve this call: " + why);
    }
    return {algorithm, from_options ? "forced by Options::algorithm" : "forced by DASH_COLL_<OP>"};
  }
  const auto [default_name, reason] = default_choice(collective, facts);
  return {find(collective, default_name), reason};
}

}  // namespace

std::vector<std::string_view> algorithms(Coll collective) {
  std::vector<std::string_view> names;
  for (const Algorithm& algorithm : registry()) {
    if (algorithm.collective == collective) {
      names.push_back(algorithm.name);
    }
  }
  return names;
}

Choice explain(Coll collective, std::size_t bytes, const Group& group, bool commutative) {
  const CallFacts facts{group.size(), bytes, bytes, commutative, false, true};
  const Selected selected = select("dash::comm::explain", collective, facts, {});
  return {std::string(selected.algorithm->name), std::string(selected.reason)};
}

namespace detail {

namespace {

// The arguments every rank must pass alike, compared bitwise across the group (no padding).
struct UniformArguments {
  std::uint64_t collective;
  std::int64_t root;
  std::uint64_t commutative;
  std::uint64_t element_size;
  std::uint64_t elements;
  std::uint64_t algorithm_digest;
};

}  // namespace

// Plans (schedule + dependency analysis) depend only on these; the same call shape on the same
// rank reuses its plan instead of generating the schedule again.
struct PlanKey {
  const Algorithm* algorithm;
  int size;
  int rank;
  int root;
  std::uint32_t segments;
  bool commutative;
  friend bool operator==(const PlanKey&, const PlanKey&) = default;
};

struct PlanKeyHash {
  std::size_t operator()(const PlanKey& key) const noexcept {
    std::size_t hash = std::hash<const void*>{}(key.algorithm);
    for (const std::size_t part : {static_cast<std::size_t>(key.size), static_cast<std::size_t>(key.rank),
                                   static_cast<std::size_t>(key.root), std::size_t{key.segments},
                                   std::size_t{key.commutative}}) {
      hash = hash * 1000003u ^ part;
    }
    return hash;
  }
};

// Collectives are called from one thread at a time (docs/configuration.md), so no lock.
std::shared_ptr<const Plan> cached_plan(const PlanKey& key, const CollectiveShape& shape) {
  static std::unordered_map<PlanKey, std::shared_ptr<const Plan>, PlanKeyHash> plans;
  constexpr std::size_t capacity = 256;
  if (const auto found = plans.find(key); found != plans.end()) {
    return found->second;
  }
  if (plans.size() >= capacity) {
    plans.clear();
  }
  auto plan = make_plan(key.algorithm->generate(shape, key.rank), shape.output_blocks(key.rank));
  plans.emplace(key, plan);
  return plan;
}

Launched launch(const CollectiveCall& call, const Group& group, const Options& options) {
  const int p = group.size();
  if (call.collective == Coll::bcast || call.collective == Coll::reduce || call.collective == Coll::gather ||
      call.collective == Coll::scatter) {
    if (call.root < 0 || call.root >= p) {
      throw out_of_range(call.function, "root", call.root, "a rank in [0, " + std::to_string(p) + ")");
    }
  }
  const bool variable_sizes = call.input_sizes || call.output_sizes;
  const CallFacts facts{p,          call.elements * call.element_size, call.elements, call.commutative,
                        variable_sizes, options.canonical_placement};
  const Selected selected = select(call.function, call.collective, facts, options.algorithm);
  const Algorithm& algorithm = *selected.algorithm;

  CollectiveShape shape;
  shape.collective = call.collective;
  shape.size = p;
  shape.root = call.root;
  shape.segments = options.segments != 0 ? options.segments : algorithm.segments(facts);
  shape.op.commutative = call.commutative;

  ExecutionSetup setup;
  setup.plan = cached_plan(PlanKey{&algorithm, p, group.rank(), call.root, shape.segments, call.commutative}, shape);
  if (variable_sizes && uses_scratch(*setup.plan)) {
    throw InvalidArgument(std::string(call.function) + ": algorithm '" + std::string(algorithm.name) + "' (" +
                          std::string(selected.reason) +
                          ") cannot serve this call: it stages blocks in scratch space, which variable-size "
                          "collectives do not support");
  }
  setup.input = call.input;
  setup.output = call.output;
  setup.input_layout = BlockLayout{call.element_size, call.elements, shape.segments, call.input_sizes};
  setup.output_layout = BlockLayout{call.element_size, call.elements, shape.segments, call.output_sizes};
  setup.reduction = call.reduction;
  setup.output_ready_at_start = call.collective == Coll::bcast && group.rank() == call.root;
  setup.window = ExecutionWindow{options.window_sends, options.window_receives};
  if constexpr (cross_rank_checks_enabled) {
    // Only the world group can compare on the base communicator; teams will check through their
    // own groups.
    if (group.size() == static_cast<int>(dash::size())) {
      const UniformArguments arguments{static_cast<std::uint64_t>(call.collective),
                                       call.root,
                                       call.commutative ? 1u : 0u,
                                       call.element_size,
                                       variable_sizes ? 0 : call.elements,
                                       detail::fnv1a_digest(options.algorithm.data(), options.algorithm.size())};
      setup.argument_check = start_uniform_check(arguments, call.function,
                                                 "collective arguments (operation, root, count, algorithm)",
                                                 group.comm());
    }
  }

  Launched launched;
  launched.layout = setup.output_layout;
  launched.map = ArrivalMap{call.collective, call.root, shape.segments, placement_of(setup.plan)};
  launched.execution = std::make_unique<Execution>(std::move(setup), group, group.next_tag());
  return launched;
}

}  // namespace detail

}  // namespace dash::comm
