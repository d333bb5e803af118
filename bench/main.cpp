// dash-bench: every benchmark next to its baseline, in the same run (docs/benchmarks.md).
//
//   dash-bench list
//   dash-bench run <suite>[/<case>]|all [--quick] [--np N] [--hosts KxN] [--reps N] [--json F] [--csv F]

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>

#include "runner/catalogue.hpp"
#include "runner/environment_header.hpp"
#include "runner/host_layout.hpp"
#include "runner/job_abort.hpp"
#include "runner/launcher.hpp"
#include "runner/registry.hpp"
#include "runner/report.hpp"
#include "runner/sweep.hpp"
#include "runner/thread_multiple.hpp"

namespace {

struct RunArguments {
  std::string target;
  bool quick = false;
  int ranks = 2;
  std::optional<int> reps;
  int warmup_reps = 1;
  std::optional<std::size_t> size;
  std::string json_path;
  std::string csv_path;
  std::string hosts;  // --hosts: the host layout to run on, empty for the launcher's
};

dash::bench::RunOptions run_options(const RunArguments& arguments) {
  dash::bench::RunOptions options;
  options.sweep = arguments.quick ? dash::bench::Sweep::quick : dash::bench::Sweep::full;
  options.warmup_reps = arguments.warmup_reps;
  options.timed_reps = arguments.reps.value_or(arguments.quick ? 5 : 10);
  options.size = arguments.size;
  return options;
}

// The benchmark run proper, on every rank of the job. Returns the process exit code.
int run_benchmarks(const RunArguments& arguments, bool ranks_given,
                   const std::vector<std::string>& command) {
  const MPI_Comm world = dash::comm::base_comm();
  const bool is_root = dash::myid() == 0;
  const int ranks = static_cast<int>(dash::size());
  if (ranks_given && arguments.ranks != ranks) {
    if (is_root) {
      std::fprintf(stderr, "dash-bench: --np %d given, but the MPI job has %d ranks\n",
                   arguments.ranks, ranks);
    }
    return 2;
  }
  const dash::bench::RunOptions options = run_options(arguments);
  if (is_root && dash::bench::build_type() == "Debug") {
    std::fprintf(stderr, "dash-bench: warning: this is a Debug build; its timings do not "
                         "represent the library\n");
  }
  // Every rank computes the layout and checks it, so that all stop alike on a mismatch.
  const std::vector<dash::bench::Host> hosts = dash::bench::host_layout(world);
  if (!arguments.hosts.empty()) {
    try {
      dash::bench::check_layout(hosts, arguments.hosts);
    } catch (const std::exception& error) {
      if (is_root) {
        std::fprintf(stderr, "%s\n", error.what());
      }
      return 2;
    }
  }
  const auto plan =
      dash::bench::plan_sweep(dash::bench::select_cases(arguments.target), options, ranks);
  nlohmann::json header = is_root ? dash::bench::environment_header(world, options, command) : nlohmann::json{};
  if (is_root) {
    header["hosts"] = dash::bench::to_json(hosts);
  }
  // The files are rewritten after every point, so that a run killed midway (out of memory, a time
  // limit) keeps what it measured; "complete" tells such a file from a finished run's.
  const auto write_files = [&](const nlohmann::json& rows, bool complete) {
    header["complete"] = complete;
    if (!arguments.json_path.empty()) {
      dash::bench::write_json_file(arguments.json_path, header, rows);
    }
    if (!arguments.csv_path.empty()) {
      dash::bench::write_csv_file(arguments.csv_path, rows);
    }
  };
  const auto record_skipped = [&](const dash::bench::SweepResults& so_far) {
    header["skipped"] = dash::bench::skipped_points(so_far.skipped);
  };
  const dash::bench::SweepResults done =
      dash::bench::run_sweep(plan, options, world, [&](const dash::bench::SweepResults& so_far) {
        record_skipped(so_far);
        write_files(dash::bench::result_rows(so_far.results), false);
      });
  const std::vector<dash::bench::Result>& results = done.results;

  const auto failures = static_cast<std::size_t>(std::count_if(
      results.begin(), results.end(), [](const auto& result) { return !result.verified(); }));
  if (is_root) {
    record_skipped(done);
    const auto rows = dash::bench::result_rows(results);
    dash::bench::print_table(std::cout, header, rows);
    std::cout.flush();
    write_files(rows, true);
    if (failures > 0) {
      std::fprintf(stderr, "dash-bench: VERIFICATION FAILED for %zu of %zu results (see above)\n",
                   failures, results.size());
    }
  }
  return failures > 0 ? 1 : 0;
}

int run_command(const RunArguments& arguments, bool ranks_given, int argc, char** argv) {
  const std::vector<std::string> command(argv, argv + argc);
  const dash::bench::ThreadMultipleMpi thread_multiple(dash::bench::select_cases(arguments.target), argc, argv);
  dash::Environment environment(argc, argv);
  int code = 0;
  try {
    code = run_benchmarks(arguments, ranks_given, command);
  } catch (const std::exception& error) {
    dash::bench::abort_job(error);  // the other ranks may be waiting in a collective
  }
  dash::bench::exit_if_finalize_hangs(code);  // the destructors finalise dash and MPI
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dash-bench: runs each benchmark alternately with its baseline and reports "
               "median/min/max times and their ratio."};
  app.require_subcommand(1);
  CLI::App* list = app.add_subcommand("list", "Print the suites, their cases and baselines");
  CLI::App* run = app.add_subcommand("run", "Run benchmarks");
  RunArguments arguments;
  run->add_option("target", arguments.target, "all, <suite> or <suite>/<case>")->required();
  run->add_flag("--quick", arguments.quick, "Short sweep with fewer repetitions");
  CLI::Option* ranks_option =
      run->add_option("--np", arguments.ranks,
                      "Ranks to start when dash-bench launches itself under mpiexec (default 2); "
                      "under a launcher it must match the job size")
          ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  run->add_option("--reps", arguments.reps, "Timed repetitions (default 5 with --quick, else 10)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  run->add_option("--warmup", arguments.warmup_reps, "Untimed repetitions before timing")
      ->capture_default_str()
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  run->add_option("--size", arguments.size,
                  "Run every case at this one size (in the case's unit) instead of its sweep; "
                  "for smoke tests")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
  run->add_option("--hosts", arguments.hosts,
                  "Run across hosts: KxN (K hosts of N ranks, e.g. 2x1) or N1,N2,... ranks per host. Started "
                  "without a launcher, dash-bench starts itself on emulated hosts through scripts/cluster; under "
                  "a launcher it checks that the job has this layout");
  run->add_option("--json", arguments.json_path, "Write the header and results as JSON");
  run->add_option("--csv", arguments.csv_path, "Write the results as CSV");
  CLI11_PARSE(app, argc, argv);

  try {
    if (list->parsed()) {
      dash::bench::print_catalogue(std::cout);
      return 0;
    }
    // Checked before launching so that a typo costs no MPI start-up.
    dash::bench::select_cases(arguments.target);
    if (!arguments.hosts.empty()) {
      const std::vector<int> per_host = dash::bench::parse_hosts(arguments.hosts);
      const int layout_ranks = std::accumulate(per_host.begin(), per_host.end(), 0);
      if (ranks_option->count() > 0 && arguments.ranks != layout_ranks) {
        throw dash::InvalidArgument("dash-bench: --np " + std::to_string(arguments.ranks) + " given, but --hosts " +
                                    arguments.hosts + " has " + std::to_string(layout_ranks) + " ranks");
      }
      arguments.ranks = layout_ranks;
    }
    if (!dash::bench::started_by_mpi_launcher()) {
      dash::bench::relaunch(arguments.ranks, arguments.hosts, argc, argv);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  return run_command(arguments, ranks_option->count() > 0, argc, argv);
}
