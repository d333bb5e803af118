#include "runner/environment_header.hpp"

#include <ctime>
#include <string_view>
#include <thread>

#include <dash/comm/config.hpp>
#include <dash/comm/cost_model.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/mpi_call.hpp>

#include "dash_bench_git_revision.hpp"  // in the build tree, refreshed at every build
#include "runner/cache_size.hpp"

// DASH_BENCH_* macros: the revision from the header above, the others defined at configure time by
// bench/CMakeLists.txt (DASH_BENCH_MPI_IMPLEMENTATION: openmpi or mpich, cmake/DashMpi.cmake).

namespace dash::bench {

namespace {

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  comm::check_mpi(MPI_Get_library_version(text, &length), "dash-bench: MPI_Get_library_version");
  std::string_view version(text, static_cast<std::size_t>(length));
  // Some libraries append newlines and NULs.
  version = version.substr(0, version.find_last_not_of(std::string_view("\n\r \0", 4)) + 1);
  return std::string(version);
}

// "Open MPI v4.1.4", "MPICH 4.0.2 (ch4:ucx)": which MPI ran, in a few words, from its version text.
std::string mpi_summary(std::string_view library) {
  const auto field = [&](std::string_view key) -> std::string_view {
    const std::size_t start = library.find(key);
    if (start == std::string_view::npos) {
      return {};
    }
    std::string_view value = library.substr(start + key.size());
    value = value.substr(0, value.find('\n'));
    const std::size_t first = value.find_first_not_of(" \t");
    return first == std::string_view::npos ? std::string_view{} : value.substr(first);
  };
  if (const std::string_view version = field("MPICH Version:"); !version.empty()) {
    const std::string_view device = field("MPICH Device:");
    return "MPICH " + std::string(version) + (device.empty() ? "" : " (" + std::string(device) + ")");
  }
  return std::string(library.substr(0, library.find_first_of(",\n")));
}

std::string mpi_standard_version() {
  int major = 0;
  int minor = 0;
  comm::check_mpi(MPI_Get_version(&major, &minor), "dash-bench: MPI_Get_version");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string host_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  comm::check_mpi(MPI_Get_processor_name(name, &length), "dash-bench: MPI_Get_processor_name");
  return std::string(name, static_cast<std::size_t>(length));
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

std::string build_type() { return DASH_BENCH_BUILD_TYPE; }

nlohmann::json environment_header(MPI_Comm world, const RunOptions& options,
                                  const std::vector<std::string>& command) {
  int ranks = 0;
  comm::check_mpi(MPI_Comm_size(world, &ranks), "dash-bench: MPI_Comm_size");
  const std::string library = mpi_library_version();
  return nlohmann::json{
      {"tool", "dash-bench"},
      {"command", command},
      {"timestamp", utc_timestamp()},
      {"host", host_name()},
      {"cores", std::thread::hardware_concurrency()},
      {"last_level_cache_bytes", last_level_cache_bytes()},
      {"ranks", ranks},
      {"mpi", mpi_summary(library)},
      {"mpi_implementation", DASH_BENCH_MPI_IMPLEMENTATION},
      {"mpi_library", library},
      {"mpi_standard", mpi_standard_version()},
      {"mpi_thread_level", std::string(comm::to_string(comm::provided_thread_level()))},
      {"git_revision", DASH_BENCH_GIT_REVISION},
      {"compiler", DASH_BENCH_COMPILER},
      {"cxx_flags", DASH_BENCH_CXX_FLAGS},
      {"build_type", build_type()},
      {"build_type_cxx_flags", DASH_BENCH_BUILD_TYPE_CXX_FLAGS},
      {"sweep", options.sweep == Sweep::quick ? "quick" : "full"},
      {"warmup_reps", options.warmup_reps},
      {"timed_reps", options.timed_reps},
      {"cost_model", comm::to_string(comm::config().cost_parameters)},
  };
}

}  // namespace dash::bench
