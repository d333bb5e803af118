// The cost model (include/dash/comm/cost_model.hpp) and the closed form of every registered
// algorithm (comm/selection/algorithm_costs.hpp), held against the schedule verifier.
//
// For every algorithm, p in 1..128 and sampled p up to 1024, the roots 0, p/2 and p - 1 of rooted
// collectives: at S = 1 and 3 the closed form equals the verifier's critical path (start-ups,
// blocks, combined blocks) exactly. Algorithms that cut a contribution into K = p or p' parts
// are exact at S = K (and 3K up to p = 128; those whose verification grows with p^2 at S = K up
// to p = 512 only), and at S = 1 and 3 bound the verifier from above. The verifier does
// not measure local copies; the copied blocks are checked against the schedules themselves (the
// most blocks one rank's copy actions move), exactly for every S, as is whether some rank uses
// scratch space. Schedules, hence costs, do not depend on the operation's commutativity.
//
// Map: every registered algorithm against the verifier (Sweep, the grids, measure, the ClosedForm
// sweep and its coverage); Rabenseifner 2004's totals and the independent simulation's critical
// paths (PublishedForms); the parameters and predictions (CostModel: seconds from terms, the overhead,
// parsing, messages between nodes, errors, DASH_COST_MODEL).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scoped_env.hpp"

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/verifier.hpp>

#include "rabenseifner_critical_paths.hpp"
#include "selection/algorithm_costs.hpp"

namespace {

using namespace dash::comm;
using detail::CostShape;
using detail::RegisteredAlgorithm;
using schedule::Schedule;

constexpr Coll all_collectives[] = {Coll::bcast,   Coll::reduce,    Coll::allreduce,      Coll::gather,
                                    Coll::scatter, Coll::allgather, Coll::reduce_scatter, Coll::alltoall,
                                    Coll::scan,    Coll::exscan,    Coll::barrier,        Coll::neighbor_alltoall};

// ---------------------------------------------------------------------------------------------
// Every registered algorithm against the verifier

// A range of group sizes of one algorithm: each its own test, so that none runs long.
struct Sweep {
  Coll collective;
  std::string algorithm;
  std::vector<int> sizes;
};

bool is_rooted(Coll collective) {
  return collective == Coll::bcast || collective == Coll::reduce || collective == Coll::gather ||
         collective == Coll::scatter;
}

// Algorithms whose verification grows with p^2 (messages or blocks per rank proportional to p).
bool quadratic(Coll collective, std::string_view algorithm) {
  return collective == Coll::allgather || collective == Coll::alltoall || collective == Coll::reduce_scatter ||
         (collective == Coll::allreduce && (algorithm == "ring" || algorithm == "pairwise_ring")) ||
         (collective == Coll::bcast && algorithm == "scatter_allgather");
}

std::vector<Sweep> sweeps() {
  std::vector<Sweep> all;
  for (const Coll collective : all_collectives) {
    for (const RegisteredAlgorithm& algorithm : detail::registered_algorithms(collective)) {
      auto add = [&](std::vector<int> sizes) {
        all.push_back(Sweep{collective, std::string(algorithm.name), std::move(sizes)});
      };
      auto range = [](int first, int last) {
        std::vector<int> sizes;
        for (int p = first; p <= last; ++p) {
          sizes.push_back(p);
        }
        return sizes;
      };
      if (quadratic(collective, algorithm.name)) {
        add(range(1, 100));
        add(range(101, 128));
        add({129, 256, 257, 512});
        add({1000, 1024});
      } else {
        add(range(1, 128));
        add({129, 255, 256, 257, 500, 512, 1000, 1023, 1024});
      }
    }
  }
  return all;
}

void PrintTo(const Sweep& sweep, std::ostream* out) {
  *out << to_string(sweep.collective) << " " << sweep.algorithm << " P=" << sweep.sizes.front() << ".."
       << sweep.sizes.back();
}

std::string sweep_name(const ::testing::TestParamInfo<Sweep>& info) {
  return std::string(to_string(info.param.collective)) + "_" + info.param.algorithm + "_P" +
         std::to_string(info.param.sizes.front()) + "to" + std::to_string(info.param.sizes.back());
}

RegisteredAlgorithm registered(Coll collective, std::string_view name) {
  for (RegisteredAlgorithm& algorithm : detail::registered_algorithms(collective)) {
    if (algorithm.name == name) {
      return algorithm;
    }
  }
  ADD_FAILURE() << "no algorithm " << name;
  return {};
}

// Process grids of p ranks for neighbor_alltoall: a periodic ring, a non-periodic 2-D grid as
// square as p allows, and a ring with a periodic dimension of size 1 (whose slots a rank copies).
std::vector<std::shared_ptr<const CartesianGrid>> grids_of(int p) {
  int rows = static_cast<int>(std::sqrt(static_cast<double>(p)));
  while (p % rows != 0) {
    --rows;
  }
  return {std::make_shared<const CartesianGrid>(std::vector<int>{p}, std::vector<bool>{true}),
          std::make_shared<const CartesianGrid>(std::vector<int>{rows, p / rows}, std::vector<bool>{false, false}),
          std::make_shared<const CartesianGrid>(std::vector<int>{p, 1}, std::vector<bool>{false, true})};
}

struct Measured {
  schedule::ScheduleMetrics metrics;
  double copied_blocks = 0;  // the most blocks one rank's copy actions move
  double queued_sends = 0;   // the most sends one rank posts behind another of the same round
  bool uses_scratch = false;
};

Measured measure(const RegisteredAlgorithm& algorithm, const CollectiveShape& shape, const std::string& where) {
  Measured measured;
  auto schedule_of = [&](int rank) {
    Schedule schedule = algorithm.generate(shape, rank);
    double copied = 0;
    double queued = 0;
    for (const schedule::Round& round : schedule.rounds) {
      double sends = 0;
      for (const schedule::Action& action : round.actions) {
        copied += action.kind == schedule::ActionKind::copy ? action.blocks.size() : 0;
        sends += action.kind == schedule::ActionKind::send ? 1 : 0;
      }
      queued += std::max(0.0, sends - 1);
    }
    measured.copied_blocks = std::max(measured.copied_blocks, copied);
    measured.queued_sends = std::max(measured.queued_sends, queued);
    measured.uses_scratch = measured.uses_scratch || schedule.scratch_blocks > 0;
    return schedule;
  };
  schedule::VerifyOptions options;
  options.allow_non_canonical = algorithm.reorders_output;
  const schedule::VerificationReport report = schedule::verify(shape, schedule_of, options);
  EXPECT_TRUE(report.ok) << where << ": " << report.error;
  measured.metrics = report.metrics;
  return measured;
}

class ClosedForm : public ::testing::TestWithParam<Sweep> {};

TEST_P(ClosedForm, EqualsTheVerifiersCriticalPath) {
  const Sweep& sweep = GetParam();
  const RegisteredAlgorithm algorithm = registered(sweep.collective, sweep.algorithm);
  for (const int p : sweep.sizes) {
    if (!algorithm.unfit(p, true).empty()) {
      continue;  // e.g. an odd group for neighbor_exchange: never run
    }
    const std::uint32_t parts = algorithm.cost.parts(p);
    std::vector<std::uint32_t> segment_counts{1, 3};
    // At S = p a quadratic algorithm's verification grows with p^3: exact there up to p = 512,
    // bounded at S = 1 and 3 beyond.
    if (parts > 1 && !(quadratic(sweep.collective, sweep.algorithm) && p > 512)) {
      segment_counts.push_back(parts);
    }
    if (parts > 1 && p <= 128) {
      segment_counts.push_back(3 * parts);
    }
    const std::vector<int> roots =
        is_rooted(sweep.collective) ? std::vector<int>{0, p / 2, p - 1} : std::vector<int>{0};
    std::vector<std::shared_ptr<const CartesianGrid>> grids{nullptr};
    if (sweep.collective == Coll::neighbor_alltoall) {
      grids = grids_of(p);
    }
    for (const std::uint32_t s : segment_counts) {
      bool uses_scratch = false;  // for some root (or grid)
      for (const int root : roots) {
        for (const auto& grid : grids) {
          CollectiveShape shape;
          shape.collective = sweep.collective;
          shape.size = p;
          shape.root = root;
          shape.segments = s;
          shape.grid = grid;
          const std::string where = sweep.algorithm + " P=" + std::to_string(p) + " S=" + std::to_string(s) +
                                    " root=" + std::to_string(root) + (grid ? " grid" : "");
          const Measured measured = measure(algorithm, shape, where);
          const CostShape cost_shape{p, s, grid.get()};
          const CostTerms terms = algorithm.cost.terms(cost_shape);
          if (s % parts == 0) {
            EXPECT_EQ(terms.startups, measured.metrics.critical_startups) << where;
            EXPECT_EQ(terms.blocks, measured.metrics.critical_blocks) << where;
            EXPECT_EQ(terms.reduced_blocks, measured.metrics.critical_reduced_blocks) << where;
          } else {
            EXPECT_GE(terms.startups, measured.metrics.critical_startups) << where;
            EXPECT_GE(terms.blocks, measured.metrics.critical_blocks) << where;
            EXPECT_GE(terms.reduced_blocks, measured.metrics.critical_reduced_blocks) << where;
          }
          EXPECT_EQ(terms.copied_blocks, measured.copied_blocks) << where;
          EXPECT_EQ(terms.queued_sends, measured.queued_sends) << where;
          uses_scratch = uses_scratch || measured.uses_scratch;
        }
      }
      EXPECT_EQ(algorithm.cost.uses_scratch(CostShape{p, s}), uses_scratch)
          << sweep.algorithm << " P=" << p << " S=" << s;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, ClosedForm, ::testing::ValuesIn(sweeps()), sweep_name);

TEST(ClosedForm, CoversEveryCollective) {
  for (const Coll collective : all_collectives) {
    EXPECT_FALSE(detail::registered_algorithms(collective).empty()) << to_string(collective);
  }
}

// ---------------------------------------------------------------------------------------------
// Rabenseifner 2004's totals (§3.4-§3.7, f_α = f_β = 1), n = S blocks

void expect_published(const detail::AlgorithmCost& cost, int p, std::uint32_t n, const double (&want)[3], const char* what) {
  const CostTerms terms = cost.terms(CostShape{p, n});
  const double printed = 0.0005 + 1e-9;  // half a unit of the third decimal
  EXPECT_EQ(terms.startups, want[0]) << what << " p=" << p;
  EXPECT_NEAR(terms.blocks / n, want[1], printed) << what << " p=" << p;
  EXPECT_NEAR(terms.reduced_blocks / n, want[2], printed) << what << " p=" << p;
}

TEST(PublishedForms, MatchTheRabenseifnerOracleTable) {
  for (const dash::testing::RabenseifnerRow& row : dash::testing::rabenseifner_critical_paths) {
    const auto p2 = schedule::floor_pow2(static_cast<std::uint32_t>(row.p));
    const auto n = static_cast<std::uint32_t>(row.p) * p2;  // a multiple of both part counts
    expect_published(detail::allreduce_rabenseifner_cost, row.p, n, row.halving_doubling, "halving and doubling");
    expect_published(detail::allreduce_ring_cost, row.p, n, row.ring, "ring");
    expect_published(detail::allreduce_recursive_doubling_cost, row.p, n, row.recursive_doubling, "recursive doubling");
    expect_published(detail::reduce_rabenseifner_cost, row.p, n, row.reduce, "reduce");
  }
}

// §2.3 totals: p = 2^k: 2 lg p start-ups, 2(1 - 1/p)n sent, (1 - 1/p)n combined; otherwise
// allreduce 2⌊lg p⌋ + 3 start-ups, (4 - 2/p')n, (3/2 - 1/p')n, and reduce 2⌊lg p⌋ + 2,
// (3 - 2/p')n, (3/2 - 1/p')n; the paper's ≃ forms 2⌊lg p⌋ + 3 and 2⌊lg p⌋ + 2 start-ups.
TEST(PublishedForms, RabenseifnerTotalsForEveryGroupUpTo1024) {
  for (int p = 1; p <= 1024; ++p) {
    const double p2 = schedule::floor_pow2(static_cast<std::uint32_t>(p));
    const double lg = schedule::floor_log2(static_cast<std::uint32_t>(p));
    const auto n = static_cast<std::uint32_t>(2 * p2);
    const CostTerms allreduce = detail::allreduce_rabenseifner_cost.terms(CostShape{p, n});
    const CostTerms reduce = detail::reduce_rabenseifner_cost.terms(CostShape{p, n});
    if (p2 == p) {
      for (const CostTerms& terms : {allreduce, reduce}) {
        EXPECT_EQ(terms.startups, 2 * lg) << p;
        EXPECT_DOUBLE_EQ(terms.blocks, 2 * (1 - 1 / p2) * n) << p;
        EXPECT_DOUBLE_EQ(terms.reduced_blocks, (1 - 1 / p2) * n) << p;
      }
      continue;
    }
    EXPECT_EQ(allreduce.startups, 2 * lg + 3) << p;
    EXPECT_DOUBLE_EQ(allreduce.blocks, (4 - 2 / p2) * n) << p;
    EXPECT_DOUBLE_EQ(allreduce.reduced_blocks, (1.5 - 1 / p2) * n) << p;
    EXPECT_EQ(reduce.startups, 2 * lg + 2) << p;
    EXPECT_DOUBLE_EQ(reduce.blocks, (3 - 2 / p2) * n) << p;
    EXPECT_DOUBLE_EQ(reduce.reduced_blocks, (1.5 - 1 / p2) * n) << p;
  }
}

// Binary blocks' combined blocks per n: an independent simulation of the
// binary-blocks reconstruction (Rabenseifner 2004 §3.6 gives no closed form), p = 13 .. 100.
TEST(PublishedForms, BinaryBlocksCombineAsPublished) {
  const std::pair<int, double> rows[] = {{13, 1.125}, {15, 1.375}, {24, 1.0}, {33, 1.0},
                                         {36, 1.0},   {60, 1.09375}, {96, 1.0}, {100, 1.015625}};
  for (const auto& [p, combined] : rows) {
    const auto n = 2 * schedule::floor_pow2(static_cast<std::uint32_t>(p));
    EXPECT_EQ(detail::allreduce_binary_blocks_cost.terms(CostShape{p, n}).reduced_blocks, combined * n) << p;
  }
}

// ---------------------------------------------------------------------------------------------
// Parameters and predictions

TEST(CostModel, PredictsSecondsFromTermsAndBlockSize) {
  const CostParameters parameters{1e-6, 1e-9, 2e-9, 3e-9};
  const CostTerms terms{4, 6, 3, 2};
  EXPECT_DOUBLE_EQ(predicted_seconds(terms, 1000, parameters), 4e-6 + (6e-9 + 6e-9 + 6e-9) * 1000);
  EXPECT_DOUBLE_EQ(predicted_seconds(terms, 0, parameters), 4e-6);
  EXPECT_EQ(predicted_seconds(CostTerms{}, 1 << 20, parameters), 0);
}

// LogP's overhead: a linear alltoall posts its p - 1 sends one after another, so where the
// processor's time per send is 0.2 us and a start-up 0.7 us (sim/run-alltoall's platform within a
// leaf switch), Bruck's lg p rounds beat it for small blocks at p = 16, while without the overhead
// linear's one round wins.
TEST(CostModel, ChargesTheOverheadOfEverySendQueuedBehindAnother) {
  CostParameters parameters = parse_cost_parameters("alpha=7e-7,beta=8e-11,gamma=0,delta=0,overhead=2e-7");
  EXPECT_EQ(parameters.overhead, 2e-7);
  CostTerms terms;
  terms.startups = 1;
  terms.queued_sends = 14;
  EXPECT_DOUBLE_EQ(predicted_seconds(terms, 0, parameters), 7e-7 + 14 * 2e-7);
  const CostShape shape{16, 1};
  EXPECT_EQ(detail::alltoall_linear_cost.terms(shape).queued_sends, 14);
  EXPECT_EQ(detail::alltoall_bruck_cost.terms(shape).queued_sends, 0);
  auto linear_over_bruck = [&](std::size_t bytes) {
    return predicted_seconds(detail::alltoall_linear_cost.terms(shape), bytes, parameters) /
           predicted_seconds(detail::alltoall_bruck_cost.terms(shape), bytes, parameters);
  };
  EXPECT_GT(linear_over_bruck(1), 1);
  parameters.overhead = 0;
  EXPECT_LT(linear_over_bruck(1), 1);
}

TEST(CostModel, ParsesAnySubsetOfTheParameters) {
  const CostParameters defaults;
  const CostParameters all = parse_cost_parameters("alpha=1e-6,beta=2e-10, gamma = 3e-10 ,delta=0");
  EXPECT_EQ(all, (CostParameters{1e-6, 2e-10, 3e-10, 0}));
  const CostParameters one = parse_cost_parameters("gamma=5e-10");
  EXPECT_EQ(one, (CostParameters{defaults.alpha, defaults.beta, 5e-10, defaults.delta}));
  EXPECT_EQ(parse_cost_parameters(to_string(all)), all);
}

TEST(CostModel, MessagesBetweenNodesTakeTheNetworksStartUpAndBytes) {
  const CostParameters parameters = parse_cost_parameters("alpha_net=9e-6,beta=1e-10,beta_net=4e-10");
  EXPECT_EQ(parameters.alpha_net, 9e-6);
  EXPECT_EQ(parameters.beta_net, 4e-10);
  EXPECT_EQ(parameters.alpha, CostParameters{}.alpha);
  const CostParameters network = between_nodes(parameters);
  EXPECT_EQ(network.alpha, 9e-6);
  EXPECT_EQ(network.beta, 4e-10);
  EXPECT_EQ(network.gamma, parameters.gamma);  // combining and copying stay on the node
  EXPECT_EQ(network.delta, parameters.delta);
  EXPECT_EQ(parse_cost_parameters(to_string(parameters)), parameters);
  const CostTerms one_message{1, 1, 0, 0};
  EXPECT_DOUBLE_EQ(predicted_seconds(one_message, 1000, network), 9e-6 + 4e-10 * 1000);
}

TEST(CostModel, RejectsMalformedParametersNamingTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "'' is not name=value"},
      {"alpha", "'alpha' is not name=value"},
      {"alpha=1e-6,", "'' is not name=value"},
      {"epsilon=1", "unknown name 'epsilon'"},
      {"beta=1,beta=2", "'beta' is set twice"},
      {"gamma=fast", "'gamma' is 'fast', not a finite number >= 0"},
      {"delta=-1e-9", "'delta' is '-1e-9', not a finite number >= 0"},
      {"alpha=inf", "'alpha' is 'inf', not a finite number >= 0"},
      {"alpha=1e-6x", "'alpha' is '1e-6x', not a finite number >= 0"},
      {"alpha_net=1e-6,alpha_net=2e-6", "'alpha_net' is set twice"},
      {"beta_network=1e-10", "unknown name 'beta_network'"},
  };
  for (const auto& [text, problem] : cases) {
    try {
      parse_cost_parameters(text, "f", "parameters");
      ADD_FAILURE() << "no exception for '" << text << "'";
    } catch (const dash::InvalidArgument& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("f: invalid argument 'parameters' = '" + std::string(text) + "'; expected ", 0), 0u)
          << message;
      EXPECT_NE(message.find(problem), std::string::npos) << message;
    }
  }
}

using dash::testing::ScopedEnv;

TEST(CostModel, DashCostModelOverridesTheDefaults) {
  unsetenv("DASH_COST_MODEL");
  EXPECT_EQ(config_from_environment().cost_parameters, CostParameters{});
  {
    const ScopedEnv set("DASH_COST_MODEL", "alpha=2e-6,delta=1e-10");
    const CostParameters parameters = config_from_environment().cost_parameters;
    EXPECT_EQ(parameters, (CostParameters{2e-6, CostParameters{}.beta, CostParameters{}.gamma, 1e-10}));
  }
  const ScopedEnv bad("DASH_COST_MODEL", "alpha=slow");
  try {
    config_from_environment();
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()).rfind("dash::init: invalid argument 'environment variable DASH_COST_MODEL' "
                                              "= 'alpha=slow'; expected ",
                                              0),
              0u)
        << error.what();
  }
  const auto& known = known_variables();
  EXPECT_NE(std::find(known.begin(), known.end(), "DASH_COST_MODEL"), known.end());
}

}  // namespace
