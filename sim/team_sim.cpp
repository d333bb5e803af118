// dash-sim-team: times Team::split_by with each variant of the team-split service against the MPI library's
// MPI_Comm_split on a simulated machine (SimGrid's SMPI; sim/README.md, docs/teams.md "Measured"). sim/run-team
// starts it under smpirun once per machine size and writes the tables of docs/results/team_smpi.md.
//
//   dash-sim-team --variants conventional,merge_per_step,...,mpi --colors 1,16 [--sorters N] [--holders N]
//                 [--reps N] [--platform NAME] --json FILE
//
// Variants are the names of dash::SplitAlgorithm (automatic, conventional, merge_per_step,
// parallel_sort_full_table, parallel_sort_distributed_table) and `mpi` for MPI_Comm_split. The workload is Sack
// 2011 §2.4's, a reorder with random keys (many ties), with `colors` colors (rank mod colors). Each variant is
// timed --reps times (simulated seconds of the slowest rank, median), then the result is verified on every rank
// against the expected membership (computed from every rank's color and key, untimed), and an 8-byte
// allreduce on the new team is timed twice: the first call resolves its peers' ranks (distributed tables read
// rows one-sidedly), the second runs from the cache. Memory per process is what the caller holds for the
// team (TeamStats) and its peak while splitting; for MPI_Comm_split, which keeps its state inside the MPI
// library, the size of a rank table of the team (4 bytes per member, MPICH's lpid) is written instead.
//
// Map: Arguments and parse_arguments; key_of (the workload) and expected_members; the
// verifications (probed ranks, verify_team, verify_comm); median and largest; measure (one variant
// at one number of colors: splits, verification, the two allreduces, memory); write_results; run
// (variants x colors); main.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/core/detail/split_service.hpp>
#include <dash/core/split_algorithm.hpp>
#include <dash/core/team.hpp>

#include "smpi_support.hpp"

namespace {

constexpr std::string_view tool = "dash-sim-team";

const dash::SplitAlgorithm algorithms[] = {
    dash::SplitAlgorithm::automatic,
    dash::SplitAlgorithm::conventional,
    dash::SplitAlgorithm::merge_per_step,
    dash::SplitAlgorithm::parallel_sort_full_table,
    dash::SplitAlgorithm::parallel_sort_distributed_table,
};

struct Arguments {
  std::vector<std::string> variants;
  std::vector<std::size_t> colors;
  int sorters = 0;
  int holders = 0;
  int reps = 3;
  std::string platform;
  std::string json_path;
  std::vector<std::string> command;
};

std::optional<dash::SplitAlgorithm> algorithm_named(std::string_view name) {
  for (const dash::SplitAlgorithm algorithm : algorithms) {
    if (dash::to_string(algorithm) == name) {
      return algorithm;
    }
  }
  return std::nullopt;
}

Arguments parse_arguments(int argc, char** argv) {
  using dash::sim::parse_count;
  Arguments arguments;
  arguments.command.assign(argv, argv + argc);
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (index + 1 >= argc) {
      throw dash::InvalidArgument(std::string(tool) + ": option " + option + " needs a value");
    }
    const std::string value = argv[++index];
    if (option == "--variants") {
      arguments.variants = dash::sim::split_list(value);
      for (const std::string& variant : arguments.variants) {
        if (variant != "mpi" && !algorithm_named(variant)) {
          throw dash::InvalidArgument(std::string(tool) + ": unknown variant '" + variant +
                                      "' (automatic, conventional, merge_per_step, parallel_sort_full_table, "
                                      "parallel_sort_distributed_table or mpi)");
        }
      }
    } else if (option == "--colors") {
      for (const std::string& colors : dash::sim::split_list(value)) {
        arguments.colors.push_back(std::max<std::size_t>(1, parse_count(colors, option, tool)));
      }
    } else if (option == "--sorters") {
      arguments.sorters = static_cast<int>(std::min<std::size_t>(parse_count(value, option, tool), 1 << 20));
    } else if (option == "--holders") {
      arguments.holders = static_cast<int>(std::min<std::size_t>(parse_count(value, option, tool), 1 << 20));
    } else if (option == "--reps") {
      arguments.reps = static_cast<int>(std::clamp<std::size_t>(parse_count(value, option, tool), 1, 1000));
    } else if (option == "--platform") {
      arguments.platform = value;
    } else if (option == "--json") {
      arguments.json_path = value;
    } else {
      throw dash::InvalidArgument(std::string(tool) + ": unknown option '" + option +
                                  "' (see the comment atop sim/team_sim.cpp)");
    }
  }
  if (arguments.variants.empty() || arguments.colors.empty() || arguments.json_path.empty()) {
    throw dash::InvalidArgument(std::string(tool) + ": --variants, --colors and --json are required");
  }
  return arguments;
}

// Random keys in [0, n): with n ranks drawing n values, about a third of the keys are shared (Sack 2011 §2.4:
// random keys), so the tie-break by parent rank is exercised.
int key_of(int rank, int size) {
  std::uint64_t z = static_cast<std::uint64_t>(rank) + std::uint64_t{0x9e3779b97f4a7c15};
  z = (z ^ (z >> 30)) * std::uint64_t{0xbf58476d1ce4e5b9};
  z = (z ^ (z >> 27)) * std::uint64_t{0x94d049bb133111eb};
  return static_cast<int>((z ^ (z >> 31)) % static_cast<std::uint64_t>(size));
}

int color_of(int rank, std::size_t colors) { return static_cast<int>(static_cast<std::size_t>(rank) % colors); }

// The base ranks of the caller's team in team-rank order, as MPI_Comm_split defines it.
std::vector<int> expected_members(int rank, int size, std::size_t colors) {
  std::vector<dash::detail::SplitRecord> records;
  for (int other = 0; other < size; ++other) {
    if (color_of(other, colors) == color_of(rank, colors)) {
      records.push_back({color_of(other, colors), key_of(other, size), other, other});
    }
  }
  std::sort(records.begin(), records.end());
  std::vector<int> members;
  for (const dash::detail::SplitRecord& record : records) {
    members.push_back(record.base_rank);
  }
  return members;
}

// The ranks a verification translates: both ends, the caller's neighbours and the member half a team away.
std::vector<int> probed_team_ranks(int me, int size) {
  std::vector<int> probes{0, size - 1, (me + 1) % size, (me + size - 1) % size, (me + size / 2) % size};
  std::sort(probes.begin(), probes.end());
  probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
  return probes;
}

bool verify_team(const dash::Team& team, const std::vector<int>& expected, int rank) {
  const int me = static_cast<int>(std::find(expected.begin(), expected.end(), rank) - expected.begin());
  if (team.myid() != me || team.size() != expected.size()) {
    return false;
  }
  for (const int probe : probed_team_ranks(me, static_cast<int>(expected.size()))) {
    const int global = expected[static_cast<std::size_t>(probe)];
    if (team.global_rank(probe) != global || team.team_rank(global) != probe) {
      return false;
    }
  }
  return true;
}

bool verify_comm(MPI_Comm comm, const std::vector<int>& expected, int rank) {
  int me = -1;
  int size = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  return static_cast<std::size_t>(size) == expected.size() && expected[static_cast<std::size_t>(me)] == rank;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The largest of every rank's `value`, on rank 0.
std::uint64_t largest(std::uint64_t value, MPI_Comm comm) {
  std::uint64_t result = 0;
  MPI_Reduce(&value, &result, 1, MPI_UINT64_T, MPI_MAX, 0, comm);
  return result;
}

// One variant at one number of colors: the row rank 0 writes (the other ranks' rows are not used).
nlohmann::json measure(const Arguments& arguments, const std::string& variant, std::size_t colors) {
  const MPI_Comm world = dash::comm::base_comm();
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const int color = color_of(rank, colors);
  const int key = key_of(rank, size);
  const std::optional<dash::SplitAlgorithm> algorithm = algorithm_named(variant);
  const dash::SplitOptions options{algorithm.value_or(dash::SplitAlgorithm::automatic), arguments.sorters,
                                   arguments.holders};
  dash::Team& all = dash::Team::All();

  dash::Team* team = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  const auto split = [&] {
    if (algorithm) {
      team = &all.split_by(color, key, options);
    } else {
      MPI_Comm_split(world, color, key, &comm);
    }
  };
  const auto release = [&] {
    if (team != nullptr) {
      team->free();
      team = nullptr;
    }
    if (comm != MPI_COMM_NULL) {
      MPI_Comm_free(&comm);
    }
  };
  std::vector<double> times;
  for (int rep = 0; rep < arguments.reps; ++rep) {
    times.push_back(dash::sim::slowest_rank_seconds(world, split));
    if (rep + 1 < arguments.reps) {
      release();
    }
  }

  const std::vector<int> expected = expected_members(rank, size, colors);
  int correct = algorithm ? verify_team(*team, expected, rank) : verify_comm(comm, expected, rank);
  MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, world);

  std::uint64_t in = 1;
  std::uint64_t out = 0;
  const auto allreduce = [&] {
    if (algorithm) {
      dash::comm::allreduce(std::span<const std::uint64_t>(&in, 1), std::span<std::uint64_t>(&out, 1),
                            dash::plus{}, *team);
    } else {
      MPI_Allreduce(&in, &out, 1, MPI_UINT64_T, MPI_SUM, comm);
    }
  };
  const double first_allreduce = dash::sim::slowest_rank_seconds(world, allreduce);
  const double second_allreduce = dash::sim::slowest_rank_seconds(world, allreduce);
  correct = correct != 0 && out == expected.size() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, world);

  const dash::TeamStats stats = algorithm ? team->stats() : dash::TeamStats{};
  const std::uint64_t team_bytes = algorithm ? stats.bytes : expected.size() * sizeof(std::int32_t);
  const std::uint64_t peak_bytes = stats.split_peak_rows * sizeof(dash::detail::SplitRecord);
  const std::uint64_t largest_team_bytes = largest(team_bytes, world);
  const std::uint64_t largest_peak_bytes = largest(peak_bytes, world);
  const std::uint64_t largest_rows = largest(stats.table_rows, world);
  const std::uint64_t largest_cache = largest(stats.cache_entries, world);
  nlohmann::json row{{"variant", variant},
                     {"p", size},
                     {"colors", colors},
                     {"platform", arguments.platform},
                     {"reps", arguments.reps},
                     {"median_s", median(times)},
                     {"min_s", *std::min_element(times.begin(), times.end())},
                     {"max_s", *std::max_element(times.begin(), times.end())},
                     {"verified", correct == 1},
                     {"first_allreduce_s", first_allreduce},
                     {"second_allreduce_s", second_allreduce},
                     {"team_bytes_max", largest_team_bytes},
                     {"split_peak_bytes_max", largest_peak_bytes},
                     {"table_rows_max", largest_rows},
                     {"cache_entries_max", largest_cache}};
  if (algorithm) {
    row["representation"] = std::string(stats.representation);
  }
  release();
  return row;
}

bool write_results(const Arguments& arguments, int size, const nlohmann::json& measurements) {
  const nlohmann::json header{{"tool", tool},
                              {"command", arguments.command},
                              {"timestamp", dash::sim::utc_timestamp()},
                              {"ranks", size},
                              {"mpi_library", dash::sim::mpi_library_version()},
                              {"platform", arguments.platform},
                              {"sorters", arguments.sorters},
                              {"table_holders", arguments.holders},
                              {"timed_reps", arguments.reps}};
  std::ofstream file(arguments.json_path);
  file << nlohmann::json{{"header", header}, {"measurements", measurements}}.dump(2) << '\n';
  file.close();
  if (!file) {
    std::fprintf(stderr, "%s: cannot write %s\n", tool.data(), arguments.json_path.c_str());
  }
  return static_cast<bool>(file);
}

int run(const Arguments& arguments) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(dash::comm::base_comm(), &rank);
  MPI_Comm_size(dash::comm::base_comm(), &size);
  nlohmann::json measurements = nlohmann::json::array();
  int failures = 0;
  bool written = true;
  for (const std::size_t colors : arguments.colors) {
    for (const std::string& variant : arguments.variants) {
      const auto host_start = std::chrono::steady_clock::now();
      nlohmann::json row = measure(arguments, variant, colors);
      failures += row.at("verified").get<bool>() ? 0 : 1;
      if (rank == 0) {
        std::fprintf(stderr, "%s: P=%d colors=%zu %s: %.6g s simulated%s\n", tool.data(), size, colors,
                     variant.c_str(), row.at("median_s").get<double>(),
                     row.at("verified").get<bool>() ? "" : " VERIFICATION FAILED");
        // What simulating it cost this machine, for planning sweeps.
        row["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
        measurements.push_back(row);
        written = write_results(arguments, size, measurements);
      }
    }
  }
  return !written ? 2 : failures > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) { return dash::sim::driver_main(argc, argv, tool, parse_arguments, run); }
