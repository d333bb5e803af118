// dash-sim-coll: times dash::comm's collective algorithms, and the MPI library's own collective, on a
// simulated machine (SimGrid's SMPI; sim/README.md, docs/benchmarks.md "SMPI at scale"). sim/run starts it
// under smpirun, once per platform, operation and set of sizes, and merges what it writes (sim/report.py).
//
//   dash-sim-coll --op allgather|reduce_scatter|allreduce|bcast|reduce --sizes 8,32768 [--dash selected,ring|all]
//                 [--skip pairwise,...] [--smpi ring,rdb,...] [--reps N] [--warmup N] [--fold-bytes N]
//                 [--platform NAME] --json FILE
//
// Sizes are bytes per contribution, as in dash-bench's coll suite: per rank for allreduce, bcast and reduce, per
// block for allgather and reduce_scatter. --dash names our contenders: `selected` is the library's own choice, other
// names force an algorithm (`all`: every algorithm the call can use, less those --skip names). --smpi names SMPI's own algorithms of the
// operation (those of smpirun's --cfg=smpi/<op>:NAME), each timed through the MPI call (MPI_Allgather,
// MPI_Reduce_scatter, MPI_Allreduce, MPI_Bcast, MPI_Reduce). Times are simulated seconds of the slowest rank, per call.
//
// Next to each of our times, rank 0 writes the congestion-aware cost model's prediction (network_cost.hpp) for
// the same schedules on the network of DASH_TOPOLOGY, in seconds with DASH_COST_MODEL's alpha (per start-up),
// beta (per byte on a link), gamma and delta (zero in sim/run); on a torus every node drives all its links at
// once, as in the library's selection and in SimGrid's torus (a k-nomial node takes its children over several
// links), the six-way bucket at 93% (Sack 2011 §3.5.6). sim/run describes SimGrid's torus with ",routing=deterministic": it routes
// on fixed paths (half a ring one way, no adaptive routing of permutations), and the library's own selection
// prices it so as well.
//
// Map: SMPI's selectors of its own algorithms; the operations and the command line; Workload (one
// operation at one size on one rank: buffers, the calls, verification); contenders and the cost
// model's prediction per contender; writing the results; run (per size: each contender timed and
// verified, then the plan point), main.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <dash/comm/selection.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/bcast.hpp>
#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/network_cost.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/reduce.hpp>
#include <dash/comm/reduce_scatter_block.hpp>

#include "selection/algorithm_costs.hpp"
#include "smpi_support.hpp"

// SMPI's own collective algorithms, chosen at run time: SimGrid 3.32 exports the setters that its
// --cfg=smpi/<op>:NAME options call at start-up. A choice holds for all simulated ranks (one process), so the
// driver switches between barriers; an unknown name ends the simulation with SimGrid's list of valid ones.
namespace simgrid::smpi::colls {
void set_allgather(const std::string& name);
void set_reduce_scatter(const std::string& name);
void set_allreduce(const std::string& name);
void set_bcast(const std::string& name);
void set_reduce(const std::string& name);
}  // namespace simgrid::smpi::colls

namespace {

constexpr std::string_view tool = "dash-sim-coll";

using dash::comm::Coll;

enum class Operation { allgather, reduce_scatter, allreduce, bcast, reduce };

struct OperationInfo {
  Operation operation;
  std::string_view name;
  Coll collective;
  void (*choose_smpi_algorithm)(const std::string& name);
};

const OperationInfo operations[] = {
    {Operation::allgather, "allgather", Coll::allgather, simgrid::smpi::colls::set_allgather},
    {Operation::reduce_scatter, "reduce_scatter", Coll::reduce_scatter, simgrid::smpi::colls::set_reduce_scatter},
    {Operation::allreduce, "allreduce", Coll::allreduce, simgrid::smpi::colls::set_allreduce},
    {Operation::bcast, "bcast", Coll::bcast, simgrid::smpi::colls::set_bcast},
    {Operation::reduce, "reduce", Coll::reduce, simgrid::smpi::colls::set_reduce},
};

struct Arguments {
  const OperationInfo* info = nullptr;
  std::vector<std::size_t> sizes;
  std::vector<std::string> dash;  // our contenders
  std::vector<std::string> skip;  // left out of `all`
  std::vector<std::string> smpi;  // SMPI's algorithms
  int reps = 1;
  int warmup = 1;
  std::string platform;
  std::string json_path;
  std::vector<std::string> command;
};

Arguments parse_arguments(int argc, char** argv) {
  using dash::sim::parse_count;
  using dash::sim::split_list;
  Arguments arguments;
  arguments.command.assign(argv, argv + argc);
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (index + 1 >= argc) {
      throw dash::InvalidArgument("dash-sim-coll: option " + option + " needs a value");
    }
    const std::string value = argv[++index];
    if (option == "--op") {
      for (const OperationInfo& info : operations) {
        if (info.name == value) {
          arguments.info = &info;
        }
      }
      if (arguments.info == nullptr) {
        throw dash::InvalidArgument("dash-sim-coll: --op must be allgather, reduce_scatter, allreduce, bcast or reduce, not '" +
                                    value + "'");
      }
    } else if (option == "--sizes") {
      for (const std::string& size : split_list(value)) {
        arguments.sizes.push_back(std::max<std::size_t>(1, parse_count(size, option, tool)));
      }
    } else if (option == "--dash") {
      arguments.dash = split_list(value);
    } else if (option == "--skip") {
      arguments.skip = split_list(value);
    } else if (option == "--smpi") {
      arguments.smpi = split_list(value);
    } else if (option == "--reps") {
      arguments.reps = static_cast<int>(std::clamp<std::size_t>(parse_count(value, option, tool), 1, 1000));
    } else if (option == "--warmup") {
      arguments.warmup = static_cast<int>(std::min<std::size_t>(parse_count(value, option, tool), 1000));
    } else if (option == "--fold-bytes") {
      dash::sim::fold_allocations_from(parse_count(value, option, tool));
    } else if (option == "--platform") {
      arguments.platform = value;
    } else if (option == "--json") {
      arguments.json_path = value;
    } else {
      throw dash::InvalidArgument("dash-sim-coll: unknown option '" + option + "' (see the comment atop sim/coll_sim.cpp)");
    }
  }
  if (arguments.info == nullptr || arguments.sizes.empty() || arguments.json_path.empty() ||
      (arguments.dash.empty() && arguments.smpi.empty())) {
    throw dash::InvalidArgument("dash-sim-coll: --op, --sizes, --json and at least one of --dash and --smpi are required");
  }
  return arguments;
}

// Values are small multiples of 1/2, so every sum is exact and verification can use ==.
double input_value(int rank, std::size_t index) { return rank + 1 + static_cast<double>(index % 7) * 0.5; }

// One operation at one size on one rank: buffers, the calls, verification.
class Workload {
public:
  Workload(const OperationInfo& info, std::size_t bytes, int rank, int size)
      : info_(info), rank_(rank), size_(size), n_(std::max<std::size_t>(1, bytes / sizeof(double))) {
    const auto p = static_cast<std::size_t>(size);
    in_.resize(info.operation == Operation::reduce_scatter ? n_ * p : info.operation == Operation::bcast ? 0 : n_);
    out_.resize(info.operation == Operation::allgather ? n_ * p : n_);
  }

  // The largest buffer the operation's algorithms allocate (output, input or scratch of p contributions).
  std::size_t largest_buffer_bytes() const {
    const bool per_block = info_.operation == Operation::allgather || info_.operation == Operation::reduce_scatter;
    return n_ * sizeof(double) * (per_block ? static_cast<std::size_t>(size_) : 2);
  }

  void reset() {
    for (std::size_t i = 0; i < in_.size(); ++i) {
      in_[i] = input_value(rank_, i);
    }
    std::fill(out_.begin(), out_.end(), std::numeric_limits<double>::quiet_NaN());
    if (info_.operation == Operation::bcast && rank_ == 0) {
      for (std::size_t i = 0; i < n_; ++i) {
        out_[i] = input_value(0, i);
      }
    }
  }

  void run_ours(const dash::comm::Options& options) {
    const auto world = dash::comm::Group::world();
    switch (info_.operation) {
      case Operation::allgather:
        dash::comm::allgather(in_, out_, world, options);
        break;
      case Operation::reduce_scatter:
        dash::comm::reduce_scatter_block(in_, out_, dash::plus{}, world, options);
        break;
      case Operation::allreduce:
        dash::comm::allreduce(in_, out_, dash::plus{}, world, options);
        break;
      case Operation::bcast:
        dash::comm::bcast(out_, 0, world, options);
        break;
      case Operation::reduce:
        dash::comm::reduce(in_, out_, dash::plus{}, 0, world, options);
        break;
    }
  }

  void run_mpi(MPI_Comm comm) {
    const int n = static_cast<int>(n_);
    switch (info_.operation) {
      case Operation::allgather:
        MPI_Allgather(in_.data(), n, MPI_DOUBLE, out_.data(), n, MPI_DOUBLE, comm);
        break;
      case Operation::reduce_scatter: {
        const std::vector<int> counts(static_cast<std::size_t>(size_), n);
        MPI_Reduce_scatter(in_.data(), out_.data(), counts.data(), MPI_DOUBLE, MPI_SUM, comm);
        break;
      }
      case Operation::allreduce:
        MPI_Allreduce(in_.data(), out_.data(), n, MPI_DOUBLE, MPI_SUM, comm);
        break;
      case Operation::bcast:
        MPI_Bcast(out_.data(), n, MPI_DOUBLE, 0, comm);
        break;
      case Operation::reduce:
        MPI_Reduce(in_.data(), out_.data(), n, MPI_DOUBLE, MPI_SUM, 0, comm);
        break;
    }
  }

  bool verify() const {
    if (info_.operation == Operation::reduce && rank_ != 0) {
      return true;  // the output is the root's only (MPI's algorithms may use the others' as scratch)
    }
    const auto p = static_cast<double>(size_);
    const double rank_sum = p * (p + 1) / 2;
    for (std::size_t i = 0; i < out_.size(); ++i) {
      double expected = 0;
      switch (info_.operation) {
        case Operation::allgather:
          expected = input_value(static_cast<int>(i / n_), i % n_);
          break;
        case Operation::reduce_scatter:
          expected = rank_sum + p * static_cast<double>((static_cast<std::size_t>(rank_) * n_ + i) % 7) * 0.5;
          break;
        case Operation::allreduce:
        case Operation::reduce:
          expected = rank_sum + p * static_cast<double>(i % 7) * 0.5;
          break;
        case Operation::bcast:
          expected = input_value(0, i);
          break;
      }
      if (!(out_[i] == expected)) {
        return false;
      }
    }
    return true;
  }

  std::size_t elements() const { return n_; }

private:
  const OperationInfo& info_;
  int rank_;
  int size_;
  std::size_t n_;
  std::vector<double> in_;
  std::vector<double> out_;
};

struct Contender {
  std::string name;       // "selected", one of our algorithms, or "smpi:" and one of SMPI's
  bool mpi = false;
  std::string algorithm;  // the algorithm that runs (ours: the library's choice for "selected")
};

// The cost model's prediction for our algorithm `name` with `segments` blocks per contribution of
// `elements` doubles, on the configured network: {start-ups, link blocks, seconds}.
nlohmann::json predict(const OperationInfo& info, const std::string& name, std::uint32_t segments,
                       std::size_t elements, int size) {
  const dash::comm::Config& config = dash::comm::config();
  dash::comm::CollectiveShape shape;
  shape.collective = info.collective;
  shape.size = size;
  shape.segments = segments;
  if (config.network.kind == dash::comm::NetworkKind::grid) {
    shape.grid = std::make_shared<const dash::comm::CartesianGrid>(config.network.dims, config.network.wrap);
  }
  const auto generate = dash::comm::detail::schedule_generator(info.collective, name);
  if (!generate) {
    return nullptr;
  }
  dash::comm::NetworkCostOptions options;
  options.multi_port = config.network.kind == dash::comm::NetworkKind::grid;
  options.multi_port_efficiency = name.ends_with("_6way") ? 0.93 : 1.0;
  const dash::comm::NetworkCostTerms terms = dash::comm::network_cost(
      shape, [&](int rank) { return generate(shape, rank); }, config.network, options);
  const std::size_t block_bytes = (elements + segments - 1) / segments * sizeof(double);
  const double seconds = dash::comm::predicted_seconds(
      {terms.startups, terms.link_blocks, terms.reduced_blocks, terms.copied_blocks}, block_bytes,
      config.cost_parameters);
  return {{"startups", terms.startups},
          {"link_blocks", terms.link_blocks},
          {"block_bytes", block_bytes},
          {"multi_port", options.multi_port},
          {"seconds", seconds}};
}

// The contenders of one point, as rank 0 plans them: each with the algorithm that runs, and for ours the
// prediction, or why it cannot serve the call ("skipped").
nlohmann::json plan_point(const OperationInfo& info, const Arguments& arguments, std::size_t bytes,
                          std::size_t elements, int size) {
  const dash::comm::Choice choice = dash::comm::explain(info.collective, bytes, dash::comm::Group::world());
  std::vector<std::string> names = arguments.dash;
  if (names.size() == 1 && names.front() == "all") {
    names = {"selected"};
    for (const dash::comm::Candidate& candidate : choice.candidates) {
      if (candidate.unfit.empty() &&
          std::find(arguments.skip.begin(), arguments.skip.end(), candidate.algorithm) == arguments.skip.end()) {
        names.push_back(candidate.algorithm);
      }
    }
  }
  nlohmann::json plan = nlohmann::json::array();
  for (const std::string& name : names) {
    const std::string algorithm = name == "selected" ? choice.algorithm : name;
    nlohmann::json entry{{"contender", name}, {"mpi", false}, {"algorithm", algorithm}};
    const auto candidate = std::find_if(choice.candidates.begin(), choice.candidates.end(),
                                        [&](const dash::comm::Candidate& c) { return c.algorithm == algorithm; });
    if (candidate == choice.candidates.end()) {
      entry["skipped"] = "no such algorithm";
    } else if (!candidate->unfit.empty()) {
      entry["skipped"] = candidate->unfit;
    } else {
      entry["prediction"] = predict(info, algorithm, candidate->segments, elements, size);
    }
    plan.push_back(entry);
  }
  for (const std::string& name : arguments.smpi) {
    plan.push_back({{"contender", "smpi:" + name}, {"mpi", true}, {"algorithm", name}});
  }
  return plan;
}

// Writes what rank 0 has measured so far, so that a simulation that dies later (an SMPI algorithm may crash
// it) leaves its earlier points behind. Returns false when the file cannot be written.
bool write_results(const Arguments& arguments, int size, const nlohmann::json& measurements) {
  const dash::comm::Config& config = dash::comm::config();
  const nlohmann::json header{
      {"tool", "dash-sim-coll"},
      {"command", arguments.command},
      {"timestamp", dash::sim::utc_timestamp()},
      {"ranks", size},
      {"mpi_library", dash::sim::mpi_library_version()},
      {"platform", arguments.platform},
      {"network", dash::comm::to_string(config.network)},
      {"cost_model", dash::comm::to_string(config.cost_parameters)},
      {"timed_reps", arguments.reps},
      {"warmup_reps", arguments.warmup},
      {"fold_bytes", dash::sim::fold_threshold()},
  };
  std::ofstream file(arguments.json_path);
  file << nlohmann::json{{"header", header}, {"measurements", measurements}}.dump(2) << '\n';
  file.close();
  if (!file) {
    std::fprintf(stderr, "dash-sim-coll: cannot write %s\n", arguments.json_path.c_str());
  }
  return static_cast<bool>(file);
}

int run(const Arguments& arguments) {
  const MPI_Comm world = dash::comm::base_comm();
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const OperationInfo& info = *arguments.info;
  nlohmann::json measurements = nlohmann::json::array();
  int failures = 0;
  bool written = true;

  for (const std::size_t bytes : arguments.sizes) {
    Workload workload(info, bytes, rank, size);
    const std::size_t fold_bytes = dash::sim::fold_threshold();
    const bool checkable = fold_bytes == 0 || workload.largest_buffer_bytes() < fold_bytes;
    // Rank 0 plans the point and tells the others: pricing the candidates on the network costs every rank
    // that does it the schedules of all P ranks, and SMPI runs the ranks one after the other on one core.
    std::string plan_text;
    if (rank == 0) {
      const dash::sim::UnfoldedAllocations planning;
      plan_text = plan_point(info, arguments, bytes, workload.elements(), size).dump();
    }
    auto plan_length = static_cast<unsigned long long>(plan_text.size());
    MPI_Bcast(&plan_length, 1, MPI_UNSIGNED_LONG_LONG, 0, world);
    plan_text.resize(plan_length);
    MPI_Bcast(plan_text.data(), static_cast<int>(plan_length), MPI_CHAR, 0, world);
    const nlohmann::json plan = nlohmann::json::parse(plan_text);

    for (const nlohmann::json& planned : plan) {
      const Contender contender{planned.at("contender").get<std::string>(), planned.at("mpi").get<bool>(),
                                planned.at("algorithm").get<std::string>()};
      // `selected` runs the library's choice on rank 0 (explain()), forced on every rank: the choice is the same
      // everywhere, and each rank's own would price every candidate again on all P ranks' schedules, in memory
      // the simulation folds.
      dash::comm::Options options;
      options.algorithm = contender.algorithm;
      const auto call = [&] {
        if (contender.mpi) {
          workload.run_mpi(world);
        } else {
          workload.run_ours(options);
        }
      };
      nlohmann::json row = planned;
      row["op"] = info.name;
      row["p"] = size;
      row["size"] = bytes;
      row["platform"] = arguments.platform;
      if (planned.contains("skipped")) {
        measurements.push_back(row);
        continue;
      }
      if (contender.mpi) {
        MPI_Barrier(world);
        if (rank == 0) {
          info.choose_smpi_algorithm(contender.algorithm);
        }
        MPI_Barrier(world);
      }
      const auto host_start = std::chrono::steady_clock::now();
      workload.reset();
      const dash::sim::PointTimes times = dash::sim::time_point(world, arguments.warmup, arguments.reps, call);
      nlohmann::json verified = nullptr;  // not checked: folded memory holds no meaningful data
      if (checkable) {
        workload.reset();
        call();
        const bool correct = dash::sim::correct_everywhere(world, workload.verify());
        verified = correct;
        failures += correct ? 0 : 1;
      }
      if (rank == 0) {
        row["reps"] = arguments.reps;
        row["median_s"] = times.median_s;
        row["min_s"] = times.min_s;
        row["max_s"] = times.max_s;
        row["verified"] = verified;
        // What simulating it cost this machine, for planning sweeps.
        row["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
        std::fprintf(stderr, "dash-sim-coll: %s %s size=%zu %s (%s): %.6g s simulated, %.0f s to simulate\n",
                     arguments.platform.c_str(), std::string(info.name).c_str(), bytes, contender.name.c_str(),
                     contender.algorithm.c_str(), row["median_s"].get<double>(), row["host_seconds"].get<double>());
      }
      measurements.push_back(row);
      if (rank == 0) {
        written = write_results(arguments, size, measurements);
      }
    }
  }

  if (rank == 0) {
    written = write_results(arguments, size, measurements);
    if (failures > 0) {
      std::fprintf(stderr, "dash-sim-coll: VERIFICATION FAILED for %d contenders\n", failures);
    }
  }
  return !written ? 2 : failures > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) { return dash::sim::driver_main(argc, argv, tool, parse_arguments, run); }
