// dash-sim-alltoall: the partial-aggregation workloads of Kowalewski 2021 (dissertation §7.3, §7.4.3) on a
// simulated machine (SimGrid's SMPI; sim/README.md). sim/run-alltoall starts it under smpirun, once per
// platform size and workload, and tabulates what it writes (sim/alltoall_report.py).
//
//   dash-sim-alltoall --workload exchange|merge|overlap --sizes 8,1024 [--dash selected,one_factor@8,bruck,...]
//                     [--smpi pair,bruck,ompi,...] [--variants mpi,blocking,nonblocking,partial,...]
//                     [--merge-threads T] [--progress-every-ns NS] [--tests-per-compute K] [--reps N] [--warmup N]
//                     [--fold-bytes N] [--platform NAME] --json FILE
//
// exchange: one all-to-all of `size` bytes per block (one-byte elements). --dash names our contenders:
//   `selected` is the library's choice, other names force an algorithm, and NAME@W also sets the sliding
//   window (Options::window_sends = window_receives = W, messages of later rounds in flight), NAME@S/R the two
//   windows apart (S sends, R receives). --smpi names
//   SMPI's algorithms and selectors (those of smpirun's --cfg=smpi/alltoall:NAME), timed through MPI_Alltoall.
// merge: the last phases of a distributed sort (§7.4.3): every rank holds one sorted run of `size` bytes of
//   doubles per destination and ends with one sorted sequence of all it received. --variants:
//   mpi          MPI_Alltoall (SMPI's algorithm of --smpi's first name, else its default), then a pairwise merge
//   blocking     dash::comm::alltoall, then the same merge
//   nonblocking  dash::comm::ialltoall, wait, then the same merge (asynchrony without partial consumption)
//   partial      dash::comm::ialltoall, each run merged as it arrives (binary-counter merge)
//   partial_noncanonical  the same, the output in arrival order (Options::canonical_placement = false)
//   Our variants run the library's choice of all-to-all; VARIANT:NAME[@W] forces algorithm NAME (and window W).
// overlap: the overlap ratio of a non-blocking all-to-all with balanced computation (§7.3.3.2, Eq. 7.1):
//   r = (t_comm + t_compute - T) / max(t_comm, t_compute), where t_comm is start + wait alone, t_compute the
//   computation alone (charged so that it takes as long as t_comm) and T start, compute, wait. --dash names our
//   contenders as for exchange, --smpi ialltoall adds SMPI's MPI_Ialltoall (it posts every receive and send at
//   once; tested and awaited by polling at the cost of our tests). Each is measured with two kinds of progress:
//   manual  the computation is cut into K pieces (--tests-per-compute, default 16) with a test of the
//           collective after each, on the computing rank (dash's default: progress only inside test and wait)
//   thread  a progress thread on a core of its own (DASH_PROGRESS_THREAD=1 on a node with a spare core, as the
//           dissertation's offloading library had): the simulated rank drives the collective to its end while the
//           computation, started when the start call returned, runs beside it; T ends when both have.
//   The computation is charged simulated time and touches no memory: no cache or memory-bus contention.
//
// Times are simulated seconds of the slowest rank, per call. The merges are the computation: the driver times
// each on this machine and charges it to the simulated rank (smpi_execute), so a merge costs in simulation what
// it costs here; --merge-threads T charges a T-th of it instead, as if T threads merged at perfect speed-up
// (the dissertation's ranks merged with 24 threads each, §7.4.2). --progress-every-ns NS charges a partial
// variant's merges in slices of NS with a test of the exchange after each (queuing what arrived), as a progress
// thread beside the merging threads would keep the exchange moving; without it, the exchange waits for each
// merge to end. Everything else runs with smpirun's smpi/simulate-computation off, for our library and for
// SMPI's alike: SMPI's automatic timing of the bursts between MPI calls charged our engine many times its
// native cost per message (each rank's privatized copy of the code runs cold, and every burst carries a
// CPU-clock read; sim/README.md has the numbers), while SMPI's own collectives run inside the simulator
// uncharged. Both pay the per-message CPU overheads sim/run-alltoall sets (smpi/or at the receiver; smpi/os
// at the sender of a blocking send only: a non-blocking send's, smpi/ois, is not set). Results are
// verified wherever no buffer is folded (below --fold-bytes).
//
// Each point records rank 0's timeline and the timeline of the rank that finished last (of a call that all ranks
// start together after a barrier): when each run arrived and each merge ended.
//
// Map: Arguments and parse_arguments; compute_in_slices and compute (charge a merge); mix and key (the data);
// Point with Exchange (also the overlap workload's non-blocking call and its computation) and Merge (one
// contender's call at one point: buffers, call, verification, timeline); Contender and parse_contender;
// write_results; selected_algorithm (rank 0's explain); slowest_timeline_of; measure_charge_factor,
// measure_overlap (the three times of Eq. 7.1) and overlap_rows; run (sizes x contenders); main (turns the node
// arena off).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <dash/comm/selection.hpp>
#include <dash/comm/alltoall.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "smpi_support.hpp"
#include "suites/merge_runs.hpp"

// SMPI's all-to-all algorithm, chosen at run time (see sim/coll_sim.cpp): holds for all simulated ranks.
namespace simgrid::smpi::colls {
void set_alltoall(const std::string& name);
}  // namespace simgrid::smpi::colls

namespace {

constexpr std::string_view tool = "dash-sim-alltoall";

using dash::bench::alltoall_merge::merge_pairwise;
using dash::bench::alltoall_merge::ProgressiveMerge;

enum class WorkloadKind { exchange, merge, overlap };

struct Arguments {
  WorkloadKind workload = WorkloadKind::exchange;
  std::vector<std::size_t> sizes;
  std::vector<std::string> dash;      // exchange: our contenders
  std::vector<std::string> smpi;      // exchange: SMPI's contenders; merge: the first is the mpi variant's
  std::vector<std::string> variants;  // merge
  double merge_threads = 1;           // merge: charge a merge 1 / merge_threads of its time here
  double progress_every = 0;          // partial: progress the exchange every so many seconds of merging (0: never)
  int tests_per_compute = 16;         // overlap, manual progress: tests of the collective while computing
  int reps = 5;
  int warmup = 1;
  std::string platform;
  std::string json_path;
  std::vector<std::string> command;
};

const std::vector<std::string> merge_variants = {"mpi", "blocking", "nonblocking", "partial", "partial_noncanonical"};

Arguments parse_arguments(int argc, char** argv) {
  using dash::sim::parse_count;
  using dash::sim::split_list;
  Arguments arguments;
  arguments.command.assign(argv, argv + argc);
  bool workload_given = false;
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (index + 1 >= argc) {
      throw dash::InvalidArgument("dash-sim-alltoall: option " + option + " needs a value");
    }
    const std::string value = argv[++index];
    if (option == "--workload") {
      if (value != "exchange" && value != "merge" && value != "overlap") {
        throw dash::InvalidArgument("dash-sim-alltoall: --workload must be exchange, merge or overlap, not '" + value +
                                    "'");
      }
      arguments.workload = value == "merge"     ? WorkloadKind::merge
                           : value == "overlap" ? WorkloadKind::overlap
                                                : WorkloadKind::exchange;
      workload_given = true;
    } else if (option == "--sizes") {
      for (const std::string& size : split_list(value)) {
        arguments.sizes.push_back(std::max<std::size_t>(1, parse_count(size, option, tool)));
      }
    } else if (option == "--dash") {
      arguments.dash = split_list(value);
    } else if (option == "--smpi") {
      arguments.smpi = split_list(value);
    } else if (option == "--variants") {
      arguments.variants = split_list(value);
      for (const std::string& variant : arguments.variants) {
        const std::string base = variant.substr(0, variant.find(':'));
        if (std::find(merge_variants.begin(), merge_variants.end(), base) == merge_variants.end() ||
            (base == "mpi" && base != variant)) {
          throw dash::InvalidArgument("dash-sim-alltoall: unknown merge variant '" + variant +
                                      "' (mpi, blocking, nonblocking, partial, partial_noncanonical; ours may "
                                      "add :ALGORITHM or :ALGORITHM@WINDOW)");
        }
      }
    } else if (option == "--merge-threads") {
      arguments.merge_threads = static_cast<double>(std::clamp<std::size_t>(parse_count(value, option, tool), 1, 1024));
    } else if (option == "--progress-every-ns") {
      arguments.progress_every = static_cast<double>(parse_count(value, option, tool)) * 1e-9;
    } else if (option == "--tests-per-compute") {
      arguments.tests_per_compute =
          static_cast<int>(std::clamp<std::size_t>(parse_count(value, option, tool), 1, 1u << 20));
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
      throw dash::InvalidArgument("dash-sim-alltoall: unknown option '" + option +
                                  "' (see the comment atop sim/alltoall_sim.cpp)");
    }
  }
  if (!workload_given || arguments.sizes.empty() || arguments.json_path.empty()) {
    throw dash::InvalidArgument("dash-sim-alltoall: --workload, --sizes and --json are required");
  }
  if (arguments.workload != WorkloadKind::merge && arguments.dash.empty() && arguments.smpi.empty()) {
    throw dash::InvalidArgument("dash-sim-alltoall: --workload exchange and overlap need --dash or --smpi");
  }
  if (arguments.workload == WorkloadKind::overlap &&
      std::any_of(arguments.smpi.begin(), arguments.smpi.end(), [](const std::string& name) {
        return name != "ialltoall";
      })) {
    throw dash::InvalidArgument("dash-sim-alltoall: --workload overlap knows one SMPI contender, --smpi ialltoall "
                                "(SMPI's MPI_Ialltoall has one algorithm)");
  }
  if (arguments.workload == WorkloadKind::merge && arguments.variants.empty()) {
    arguments.variants = merge_variants;
  }
  return arguments;
}

// Runs `work` and charges the simulated rank the time it took on this machine, divided by `speedup`, in slices of
// at most `slice` seconds with `between()` after each but the last: a merge that lets the exchange progress while
// it runs, as a progress thread would.
template <class Work, class Between>
void compute_in_slices(double speedup, double slice, Between&& between, Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  double left = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / speedup;
  while (left > slice) {
    dash::sim::charge(slice);
    left -= slice;
    between();
  }
  dash::sim::charge(left);
}

// The same in one piece.
template <class Work>
void compute(double speedup, Work&& work) {
  compute_in_slices(speedup, std::numeric_limits<double>::infinity(), [] {}, std::forward<Work>(work));
}

// A SplitMix64 hash of (from, to, index): any rank can compute what any rank sends any other.
std::uint64_t mix(int from, int to, std::size_t index) {
  std::uint64_t x = (static_cast<std::uint64_t>(from) << 48) ^ (static_cast<std::uint64_t>(to) << 32) ^ index;
  x += 0x9e3779b97f4a7c15;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

// Uniform in [-1e6, 1e6), as in the dissertation's sort benchmark.
double key(int from, int to, std::size_t index) {
  return static_cast<double>(mix(from, to, index) >> 11) * 0x1.0p-53 * 2e6 - 1e6;
}

// One contender's call at one point.
class Point {
public:
  virtual ~Point() = default;
  virtual void reset() = 0;
  virtual void call() = 0;
  virtual bool verify() const = 0;
  // What happened when in the last call on this rank, in simulated seconds from its start; null if not traced.
  virtual nlohmann::json timeline() const { return nullptr; }
};

// How an overlap call keeps its collective moving while it computes (the comment atop this file).
enum class Progress { manual, thread };

// exchange: `n` bytes per block, block q of rank r's input holds mix(r, q, i) truncated to a byte.
// overlap: the same exchange, non-blocking (ialltoall or MPI_Ialltoall), with computation while it runs.
class Exchange final : public Point {
public:
  Exchange(std::size_t n, int rank, int size, std::string mpi_algorithm, dash::comm::Options options)
      : n_(n), rank_(rank), mpi_algorithm_(std::move(mpi_algorithm)), options_(std::move(options)) {
    const auto p = static_cast<std::size_t>(size);
    in_.resize(n * p);
    out_.resize(n * p);
    for (std::size_t i = 0; i < in_.size(); ++i) {
      in_[i] = static_cast<std::uint8_t>(mix(rank, static_cast<int>(i / n), i % n));
    }
  }

  void reset() override { std::fill(out_.begin(), out_.end(), std::uint8_t{0}); }

  // From now on a call starts the non-blocking form, computes `compute_seconds` of simulated time (0: none;
  // dash::sim::charge(x) lasts `charge_factor` x) with `progress`, and waits: `tests` tests spread over the
  // computation (manual), or the rank drives the collective while the computation runs beside it (thread).
  void make_nonblocking(double compute_seconds, double charge_factor, Progress progress, int tests) {
    nonblocking_ = true;
    compute_seconds_ = compute_seconds;
    charge_factor_ = charge_factor;
    progress_ = progress;
    tests_ = tests;
  }

  void call() override {
    if (nonblocking_) {
      call_nonblocking();
    } else if (!mpi_algorithm_.empty()) {
      dash::comm::check_mpi(MPI_Alltoall(in_.data(), static_cast<int>(n_), MPI_BYTE, out_.data(), static_cast<int>(n_),
                                         MPI_BYTE, dash::comm::base_comm()),
                            "dash-sim-alltoall: MPI_Alltoall");
    } else {
      dash::comm::alltoall(in_, out_, dash::comm::Group::world(), options_);
    }
  }

  bool verify() const override {
    for (std::size_t i = 0; i < out_.size(); ++i) {
      if (out_[i] != static_cast<std::uint8_t>(mix(static_cast<int>(i / n_), rank_, i % n_))) {
        return false;
      }
    }
    return true;
  }

private:
  void call_nonblocking() {
    if (mpi_algorithm_.empty()) {
      auto request = dash::comm::ialltoall(in_, out_, dash::comm::Group::world(), options_);
      overlap([&] { return request.test(); }, [&] { request.wait(); });
      return;
    }
    const int n = static_cast<int>(n_);
    MPI_Request request = MPI_REQUEST_NULL;
    dash::comm::check_mpi(
        MPI_Ialltoall(in_.data(), n, MPI_BYTE, out_.data(), n, MPI_BYTE, dash::comm::base_comm(), &request),
        "dash-sim-alltoall: MPI_Ialltoall");
    // Tested and awaited by polling, at the cost of the library's tests (dash::sim::test_with_cost).
    auto test = [&] {
      int done = 0;
      dash::comm::check_mpi(dash::sim::test_with_cost(&request, &done), "dash-sim-alltoall: MPI_Test");
      return done != 0;
    };
    overlap(test, [&] {
      while (!test()) {
      }
    });
  }

  // What follows the start call: the computation with the chosen progress, then the end of the collective.
  template <class Test, class Wait>
  void overlap(Test&& test, Wait&& wait) {
    // Read in every mode, alone included: SMPI's MPI_Wtime yields the simulated rank, and that alone moved a paced
    // schedule's time by 7 % (pairwise at P = 32, 32 KiB: 171 against 182 us), which would pass for overlap.
    const double computing_until = MPI_Wtime() + compute_seconds_;
    if (progress_ == Progress::thread) {
      wait();
      if (const double left = computing_until - MPI_Wtime(); left > 0) {
        dash::sim::charge(left / charge_factor_);
      }
      return;
    }
    bool done = false;
    for (int piece = 0; compute_seconds_ > 0 && piece < tests_; ++piece) {
      dash::sim::charge(compute_seconds_ / charge_factor_ / tests_);
      done = done || test();
    }
    if (!done) {
      wait();
    }
  }

  std::size_t n_;
  int rank_;
  std::string mpi_algorithm_;  // empty: ours
  dash::comm::Options options_;
  std::vector<std::uint8_t> in_;
  std::vector<std::uint8_t> out_;
  bool nonblocking_ = false;
  double compute_seconds_ = 0;
  double charge_factor_ = 1;
  Progress progress_ = Progress::manual;
  int tests_ = 1;
};

// merge: runs of `n` doubles, sorted; run q of rank r's input holds key(r, q, i) sorted.
class Merge final : public Point {
public:
  Merge(std::string variant, dash::comm::Options options, std::size_t n, int rank, int size, bool checkable,
        double speedup, double progress_every)
      : variant_(std::move(variant)), n_(n), speedup_(speedup), progress_every_(progress_every),
        options_(std::move(options)) {
    const auto p = static_cast<std::size_t>(size);
    in_.resize(n * p);
    received_.resize(n * p);
    scratch_.resize(n * p);
    out_.resize(n * p);
    arrived_.resize(p);
    for (int q = 0; q < size; ++q) {
      fill_sorted(std::span<double>(in_).subspan(static_cast<std::size_t>(q) * n, n), rank, q);
    }
    if (checkable) {
      expected_.resize(n * p);
      for (int q = 0; q < size; ++q) {
        fill_sorted(std::span<double>(expected_).subspan(static_cast<std::size_t>(q) * n, n), q, rank);
      }
      std::sort(expected_.begin(), expected_.end());
    }
    options_.canonical_placement = variant_ != "partial_noncanonical";
    progressive_ = std::make_unique<ProgressiveMerge>(p, n, std::span<double>(out_));
  }

  void reset() override {
    for (std::vector<double>* buffer : {&received_, &scratch_, &out_}) {
      std::fill(buffer->begin(), buffer->end(), std::numeric_limits<double>::quiet_NaN());
    }
  }

  void call() override {
    start_ = MPI_Wtime();
    timeline_ = nlohmann::json::array();
    if (variant_ == "mpi") {
      const int n = static_cast<int>(n_);
      dash::comm::check_mpi(MPI_Alltoall(in_.data(), n, MPI_DOUBLE, received_.data(), n, MPI_DOUBLE,
                                         dash::comm::base_comm()),
                            "dash-sim-alltoall: MPI_Alltoall");
      merge_all();
    } else if (variant_ == "blocking") {
      dash::comm::alltoall(in_, received_, dash::comm::Group::world(), options_);
      merge_all();
    } else if (variant_ == "nonblocking") {
      auto request = dash::comm::ialltoall(in_, received_, dash::comm::Group::world(), options_);
      request.wait();
      merge_all();
    } else {
      auto request = dash::comm::ialltoall(in_, received_, dash::comm::Group::world(), options_);
      std::fill(arrived_.begin(), arrived_.end(), RunArrival{});
      if (progress_every_ <= 0) {
        request.for_each_arrival([&](const dash::comm::Arrival<double>& arrival) { take(arrival, [] {}); });
        return;
      }
      // Arrivals queue; a merge polls the exchange every progress_every_ seconds and queues what it brings.
      // Waiting for one of its last two runs, the rank merges the stored runs ahead of time: what would otherwise
      // follow the last run. Not earlier: each consolidation would copy the long merged run once more.
      std::vector<dash::comm::Arrival<double>> queued;
      auto enqueue = [&](const dash::comm::Arrival<double>& arrival) { queued.push_back(arrival); };
      auto poll = [&] { request.test_arrivals(enqueue); };
      for (std::size_t next = 0;;) {
        const bool complete = request.test_arrivals(enqueue);
        if (next < queued.size()) {
          const dash::comm::Arrival<double> arrival = queued[next++];  // polls in take() may grow `queued`
          take(arrival, poll);
        } else if (complete) {
          break;
        } else if (progressive_->runs_to_come() <= 2 && progressive_->stored_runs() >= 2) {
          compute_in_slices(speedup_, slice(), poll, [&] { progressive_->consolidate(); });
          note("consolidated");
        }
      }
    }
  }

  bool verify() const override { return out_ == expected_; }
  nlohmann::json timeline() const override { return timeline_; }

private:
  // What arrived of one rank's run: the library may cut a run into segments, which lie next to each other.
  struct RunArrival {
    const double* first = nullptr;
    std::size_t elements = 0;
  };

  static void fill_sorted(std::span<double> run, int from, int to) {
    for (std::size_t i = 0; i < run.size(); ++i) {
      run[i] = key(from, to, i);
    }
    std::sort(run.begin(), run.end());
  }

  // Events: ["exchanged", t] when a blocking exchange returned, ["arrived", t, source] when a run was complete
  // (taken up, with --progress-every-ns), ["merged", t] when a merge it started ended, ["consolidated", t] when a
  // merge of stored runs ahead of time ended.
  void note(const char* what, int source = -1) {
    timeline_.push_back(source < 0 ? nlohmann::json{what, MPI_Wtime() - start_}
                                   : nlohmann::json{what, MPI_Wtime() - start_, source});
  }

  void merge_all() {
    note("exchanged");
    compute(speedup_, [&] { merge_pairwise(received_, n_, scratch_, out_); });
    note("merged");
  }

  // How much merging is charged between two tests of the exchange.
  double slice() const {
    return progress_every_ > 0 ? progress_every_ : std::numeric_limits<double>::infinity();
  }

  template <class Poll>
  void take(const dash::comm::Arrival<double>& arrival, Poll&& poll) {
    RunArrival& run = arrived_[static_cast<std::size_t>(arrival.source)];
    run.first = run.first == nullptr ? arrival.data : std::min(run.first, static_cast<const double*>(arrival.data));
    run.elements += arrival.count;
    if (run.elements == n_) {
      note("arrived", arrival.source);
      compute_in_slices(speedup_, slice(), poll, [&] { progressive_->add({run.first, n_}); });
      note("merged");
    }
  }

  std::string variant_;  // without the forced algorithm
  std::size_t n_;
  double speedup_;
  double progress_every_;
  dash::comm::Options options_;
  std::vector<double> in_, received_, scratch_, out_, expected_;
  std::vector<RunArrival> arrived_;
  std::unique_ptr<ProgressiveMerge> progressive_;
  double start_ = 0;
  nlohmann::json timeline_;
};

// A contender as named on the command line: "selected", an algorithm, NAME@W, or "smpi:NAME".
struct Contender {
  std::string name;
  std::string algorithm;  // ours: the algorithm that runs; SMPI's: its name
  bool mpi = false;
  std::uint32_t window_sends = 0;  // 0: the default window
  std::uint32_t window_receives = 0;
};

// NAME, NAME@W (both windows W) or NAME@S/R (S sends, R receives of later rounds in flight).
Contender parse_contender(const std::string& name, bool mpi) {
  Contender contender{name, name, mpi, 0, 0};
  if (const auto at = name.find('@'); !mpi && at != std::string::npos) {
    contender.algorithm = name.substr(0, at);
    const std::string windows = name.substr(at + 1);
    const auto slash = windows.find('/');
    auto window = [&](const std::string& text) {
      return static_cast<std::uint32_t>(
          std::clamp<std::size_t>(dash::sim::parse_count(text, "--dash", tool), 1, 1u << 20));
    };
    contender.window_sends = window(windows.substr(0, slash));
    contender.window_receives = slash == std::string::npos ? contender.window_sends : window(windows.substr(slash + 1));
  }
  return contender;
}

bool write_results(const Arguments& arguments, int size, const nlohmann::json& measurements) {
  const nlohmann::json header{
      {"tool", tool},
      {"command", arguments.command},
      {"timestamp", dash::sim::utc_timestamp()},
      {"ranks", size},
      {"mpi_library", dash::sim::mpi_library_version()},
      {"platform", arguments.platform},
      {"cost_model", dash::comm::to_string(dash::comm::config().cost_parameters)},
      {"timed_reps", arguments.reps},
      {"warmup_reps", arguments.warmup},
      {"fold_bytes", dash::sim::fold_threshold()},
  };
  std::ofstream file(arguments.json_path);
  file << nlohmann::json{{"header", header}, {"measurements", measurements}}.dump(2) << '\n';
  file.close();
  if (!file) {
    std::fprintf(stderr, "dash-sim-alltoall: cannot write %s\n", arguments.json_path.c_str());
  }
  return static_cast<bool>(file);
}

// The library's choice for `bytes` per block, as rank 0 explains it, told to every rank (each would choose
// alike; one explanation spares the simulation P of them).
std::string selected_algorithm(std::size_t bytes, MPI_Comm world, int rank) {
  std::string name;
  if (rank == 0) {
    const dash::sim::UnfoldedAllocations planning;
    name = dash::comm::explain(dash::comm::Coll::alltoall, bytes, dash::comm::Group::world()).algorithm;
  }
  int length = static_cast<int>(name.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, world);
  name.resize(static_cast<std::size_t>(length));
  MPI_Bcast(name.data(), length, MPI_CHAR, 0, world);
  return name;
}

// The timeline of the rank whose last call ended last (its last event), on rank 0: what held the call up.
std::pair<int, nlohmann::json> slowest_timeline_of(const Point& point, MPI_Comm world, int rank) {
  const nlohmann::json timeline = point.timeline();
  if (!timeline.is_array() || timeline.empty()) {
    return {-1, nullptr};
  }
  struct {
    double end;
    int rank;
  } mine{timeline.back()[1].get<double>(), rank}, slowest{};
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, world);
  if (slowest.rank == 0) {
    return {0, timeline};
  }
  // Length first: SMPI's MPI_Probe spins without simulated time passing under smpi/iprobe:0.
  if (rank == slowest.rank) {
    const std::string text = timeline.dump();
    int length = static_cast<int>(text.size());
    MPI_Send(&length, 1, MPI_INT, 0, 0, world);
    MPI_Send(text.data(), length, MPI_CHAR, 0, 0, world);
  } else if (rank == 0) {
    int length = 0;
    MPI_Recv(&length, 1, MPI_INT, slowest.rank, 0, world, MPI_STATUS_IGNORE);
    std::string text(static_cast<std::size_t>(length), '\0');
    MPI_Recv(text.data(), length, MPI_CHAR, slowest.rank, 0, world, MPI_STATUS_IGNORE);
    return {slowest.rank, nlohmann::json::parse(text)};
  }
  return {slowest.rank, nullptr};
}

// Simulated seconds that dash::sim::charge(1) lasts (smpi/host-speed against the platform's speed), as every rank
// measures it.
double measure_charge_factor(MPI_Comm world) {
  constexpr double probe = 1e-3;
  double factor = dash::sim::slowest_rank_seconds(world, [] { dash::sim::charge(probe); }) / probe;
  MPI_Bcast(&factor, 1, MPI_DOUBLE, 0, world);
  return factor;
}

// The times of Eq. 7.1 for one contender at one point, on rank 0 (medians of the slowest rank's times), and
// whether the calls with computation delivered the right data (null: folded, not checked).
struct OverlapTimes {
  double comm_s = 0;     // start + wait alone
  double comm_min_s = 0;
  double comm_max_s = 0;
  double compute_s = 0;  // the computation alone
  dash::sim::PointTimes manual;
  dash::sim::PointTimes thread;
  nlohmann::json verified = nullptr;
};

OverlapTimes measure_overlap(const Arguments& arguments, Exchange& point, bool checkable, MPI_Comm world,
                             double charge_factor) {
  const int tests = arguments.tests_per_compute;
  OverlapTimes times;
  point.make_nonblocking(0, charge_factor, Progress::manual, tests);
  point.reset();
  const dash::sim::PointTimes alone =
      dash::sim::time_point(world, arguments.warmup, arguments.reps, [&] { point.call(); });
  times.comm_s = alone.median_s;
  times.comm_min_s = alone.min_s;
  times.comm_max_s = alone.max_s;
  MPI_Bcast(&times.comm_s, 1, MPI_DOUBLE, 0, world);
  const double compute = times.comm_s;  // balanced: as long as the collective alone
  times.compute_s = dash::sim::time_point(world, arguments.warmup, arguments.reps, [&] {
                      dash::sim::charge(compute / charge_factor);
                    }).median_s;
  bool correct = true;
  for (const Progress progress : {Progress::manual, Progress::thread}) {
    point.make_nonblocking(compute, charge_factor, progress, tests);
    (progress == Progress::manual ? times.manual : times.thread) =
        dash::sim::time_point(world, arguments.warmup, arguments.reps, [&] { point.call(); });
    if (checkable) {
      point.reset();
      point.call();
      correct = dash::sim::correct_everywhere(world, point.verify()) && correct;
    }
  }
  if (checkable) {
    times.verified = correct;
  }
  return times;
}

// The fields of every result row: what ran, where, and the slowest rank's times of `name` (the contender as the
// tables show it).
nlohmann::json point_row(const char* workload, const std::string& name, const Contender& contender,
                         const std::string& runs, int p, std::size_t bytes, const Arguments& arguments,
                         const dash::sim::PointTimes& times, const nlohmann::json& verified) {
  return {{"workload", workload},
          {"contender", name},
          {"mpi", contender.mpi},
          {"algorithm", runs},
          {"window_sends", contender.window_sends},
          {"window_receives", contender.window_receives},
          {"p", p},
          {"size", bytes},
          {"platform", arguments.platform},
          {"reps", arguments.reps},
          {"median_s", times.median_s},
          {"min_s", times.min_s},
          {"max_s", times.max_s},
          {"verified", verified}};
}

// Rank 0's rows of one overlap point: one per kind of progress.
nlohmann::json overlap_rows(const OverlapTimes& times, const Contender& contender, const std::string& runs, int p,
                            std::size_t bytes, const Arguments& arguments) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Progress progress : {Progress::manual, Progress::thread}) {
    const dash::sim::PointTimes& total = progress == Progress::manual ? times.manual : times.thread;
    const double longer = std::max(times.comm_s, times.compute_s);
    nlohmann::json row = point_row("overlap", contender.mpi ? "smpi:" + contender.name : contender.name, contender,
                                   runs, p, bytes, arguments, total, times.verified);
    row["progress"] = progress == Progress::manual ? "manual" : "thread";
    row["tests_per_compute"] = progress == Progress::manual ? arguments.tests_per_compute : 0;
    row["t_comm_s"] = times.comm_s;
    row["t_comm_min_s"] = times.comm_min_s;
    row["t_comm_max_s"] = times.comm_max_s;
    row["t_compute_s"] = times.compute_s;
    row["overlap_ratio"] = longer > 0 ? (times.comm_s + times.compute_s - total.median_s) / longer : 0.0;
    rows.push_back(row);
  }
  return rows;
}

int run(const Arguments& arguments) {
  const MPI_Comm world = dash::comm::base_comm();
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const auto p = static_cast<std::size_t>(size);
  nlohmann::json measurements = nlohmann::json::array();
  int failures = 0;
  bool written = true;
  const bool merge = arguments.workload == WorkloadKind::merge;
  const bool overlap = arguments.workload == WorkloadKind::overlap;
  if (merge || overlap) {
    // Partial consumption merges and overlap computes between tests: they must return when nothing arrived (0.1 us
    // for an idle test, about what MPI_Testsome on a few requests costs; more for idle tests in a row,
    // smpi_support.hpp).
    dash::sim::poll_with_cost(1e-7);
  }
  const double charge_factor = overlap ? measure_charge_factor(world) : 1.0;

  std::vector<Contender> contenders;
  if (merge) {
    for (const std::string& variant : arguments.variants) {
      const std::size_t colon = variant.find(':');
      Contender contender = colon == std::string::npos ? Contender{variant, "selected", false, 0, 0}
                                                       : parse_contender(variant.substr(colon + 1), false);
      contender.name = variant;
      contender.mpi = variant == "mpi";
      contenders.push_back(contender);
    }
  } else {
    for (const std::string& name : arguments.dash) {
      contenders.push_back(parse_contender(name, false));
    }
    for (const std::string& name : arguments.smpi) {
      contenders.push_back(parse_contender(name, true));
    }
  }

  for (const std::size_t bytes : arguments.sizes) {
    // merge: whole doubles per run; exchange: bytes per block.
    const std::size_t n = merge ? std::max<std::size_t>(1, bytes / sizeof(double)) : bytes;
    const std::size_t block_bytes = merge ? n * sizeof(double) : n;
    const std::size_t fold_bytes = dash::sim::fold_threshold();
    const bool checkable = fold_bytes == 0 || block_bytes * p < fold_bytes;
    const std::string selected = selected_algorithm(block_bytes, world, rank);  // the same for ialltoall

    for (const Contender& contender : contenders) {
      dash::comm::Options options;
      std::string runs = contender.algorithm;
      if (!contender.mpi) {
        options.algorithm = contender.algorithm == "selected" ? selected : contender.algorithm;
        runs = options.algorithm;
        if (contender.window_sends != 0) {
          options.window_sends = contender.window_sends;
          options.window_receives = contender.window_receives;
        }
      }
      if (overlap) {
        Exchange point(n, rank, size, contender.mpi ? contender.algorithm : std::string(), options);
        const auto host_start = std::chrono::steady_clock::now();
        const OverlapTimes times = measure_overlap(arguments, point, checkable, world, charge_factor);
        failures += times.verified == false ? 1 : 0;
        if (rank == 0) {
          for (nlohmann::json row : overlap_rows(times, contender, runs, size, block_bytes, arguments)) {
            row["host_seconds"] =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
            std::fprintf(stderr, "dash-sim-alltoall: p=%d size=%zu %s (%s, %s progress): T %.6g s, t_comm %.6g s, "
                         "overlap %.2f\n", size, block_bytes, row["contender"].get<std::string>().c_str(),
                         runs.c_str(), row["progress"].get<std::string>().c_str(), row["median_s"].get<double>(),
                         times.comm_s, row["overlap_ratio"].get<double>());
            measurements.push_back(row);
          }
          written = write_results(arguments, size, measurements);
        }
        continue;
      }
      std::unique_ptr<Point> point;
      if (merge) {
        point = std::make_unique<Merge>(contender.name.substr(0, contender.name.find(':')), options, n, rank, size,
                                        checkable, arguments.merge_threads, arguments.progress_every);
        if (contender.mpi) {
          runs = arguments.smpi.empty() ? "default" : arguments.smpi.front();
        }
      } else {
        point = std::make_unique<Exchange>(n, rank, size, contender.mpi ? contender.algorithm : std::string(), options);
      }
      if (contender.mpi && runs != "default") {
        MPI_Barrier(world);
        if (rank == 0) {
          simgrid::smpi::colls::set_alltoall(runs);
        }
        MPI_Barrier(world);
      }
      const auto host_start = std::chrono::steady_clock::now();
      point->reset();
      const dash::sim::PointTimes times =
          dash::sim::time_point(world, arguments.warmup, arguments.reps, [&] { point->call(); });
      nlohmann::json verified = nullptr;  // not checked: folded memory holds no meaningful data
      if (checkable) {
        point->reset();
        MPI_Barrier(world);  // the timelines start together
        point->call();
        const bool correct = dash::sim::correct_everywhere(world, point->verify());
        verified = correct;
        failures += correct ? 0 : 1;
      }
      const auto [slowest_rank, slowest_timeline] = slowest_timeline_of(*point, world, rank);
      if (rank == 0) {
        nlohmann::json row =
            point_row(merge ? "merge" : "exchange", contender.mpi && !merge ? "smpi:" + contender.name : contender.name,
                      contender, runs, size, block_bytes, arguments, times, verified);
        row["merge_threads"] = merge ? arguments.merge_threads : 1.0;
        row["progress_every_s"] = merge ? arguments.progress_every : 0.0;
        row["timeline_rank0"] = point->timeline();
        row["slowest_rank"] = slowest_rank;
        row["timeline_slowest"] = slowest_timeline;
        row["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
        std::fprintf(stderr, "dash-sim-alltoall: p=%d size=%zu %s (%s): %.6g s simulated, %.0f s to simulate\n",
                     size, block_bytes, row["contender"].get<std::string>().c_str(), runs.c_str(),
                     row["median_s"].get<double>(), row["host_seconds"].get<double>());
        measurements.push_back(row);
        written = write_results(arguments, size, measurements);
      }
    }
  }

  if (rank == 0) {
    written = write_results(arguments, size, measurements);
    if (failures > 0) {
      std::fprintf(stderr, "dash-sim-alltoall: VERIFICATION FAILED for %d contenders\n", failures);
    }
  }
  return !written ? 2 : failures > 0 ? 1 : 0;
}

}  // namespace

// The node arena is off: SMPI does not simulate communication by loads and stores through shared windows (it
// lacks MPI_Win_sync, and a rank spinning on a flag never lets the simulated clock reach its peer's write), so
// ranks of one node would wait forever. They talk through MPI over the platform's loopback link instead.
int main(int argc, char** argv) {
  setenv("DASH_SHARED_MEMORY", "0", 1);
  return dash::sim::driver_main(argc, argv, tool, parse_arguments, run);
}
