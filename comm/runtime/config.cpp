#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <string>
#include <utility>

#include <dash/comm/config.hpp>
#include <dash/comm/exception.hpp>

extern char** environ;  // POSIX: the process environment, scanned for unknown DASH_* names

namespace dash::comm {

namespace {

constexpr std::array<std::pair<std::string_view, LogLevel>, 6> log_levels{{
    {"off", LogLevel::off},
    {"error", LogLevel::error},
    {"warn", LogLevel::warn},
    {"info", LogLevel::info},
    {"debug", LogLevel::debug},
    {"trace", LogLevel::trace},
}};

constexpr std::array<std::pair<std::string_view, ThreadLevel>, 4> thread_levels{{
    {"single", ThreadLevel::single},
    {"funneled", ThreadLevel::funneled},
    {"serialized", ThreadLevel::serialized},
    {"multiple", ThreadLevel::multiple},
}};

constexpr std::array<std::pair<std::string_view, bool>, 2> switches{{{"0", false}, {"1", true}}};

std::string lowercase(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

// Looks `variable` up and maps it through `table`; unset keeps `fallback`.
template <class Value, std::size_t N>
Value parse_choice(const char* variable, const std::array<std::pair<std::string_view, Value>, N>& table,
                   Value fallback) {
  const char* raw = std::getenv(variable);
  if (raw == nullptr) {
    return fallback;
  }
  const std::string value = lowercase(raw);
  for (const auto& [name, choice] : table) {
    if (value == name) {
      return choice;
    }
  }
  std::string expected = "one of";
  for (std::size_t i = 0; i < N; ++i) {
    expected += (i == 0 ? " " : ", ");
    expected += table[i].first;
  }
  throw invalid_argument("dash::init", std::string("environment variable ") + variable,
                         std::string_view(raw), expected);
}

// Looks `variable` up as a number of bytes of at least `minimum`; unset keeps `fallback`.
std::size_t parse_bytes(const char* variable, std::size_t minimum, std::size_t fallback) {
  const char* raw = std::getenv(variable);
  if (raw == nullptr) {
    return fallback;
  }
  const std::string text(raw);
  std::size_t parsed = 0;
  std::size_t used = 0;
  try {
    parsed = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text.front() == '-' || parsed < minimum) {
    throw invalid_argument("dash::init", std::string("environment variable ") + variable, std::string_view(raw),
                           "a number of bytes >= " + std::to_string(minimum));
  }
  return parsed;
}

// Looks `variable` up as a whole number in [minimum, maximum]; unset keeps `fallback`. `expected`
// says what it counts.
int parse_count(const char* variable, int minimum, int maximum, int fallback, const std::string& expected) {
  const char* raw = std::getenv(variable);
  if (raw == nullptr) {
    return fallback;
  }
  const std::string text(raw);
  int parsed = 0;
  std::size_t used = 0;
  try {
    parsed = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || parsed < minimum || parsed > maximum) {
    throw invalid_argument("dash::init", std::string("environment variable ") + variable, std::string_view(raw),
                           expected);
  }
  return parsed;
}

template <class Value, std::size_t N>
std::string_view name_of(Value value, const std::array<std::pair<std::string_view, Value>, N>& table) {
  for (const auto& [name, choice] : table) {
    if (choice == value) {
      return name;
    }
  }
  return "?";
}

}  // namespace

Config config_from_environment() {
  Config config;
  config.log_level = parse_choice("DASH_LOG_LEVEL", log_levels, config.log_level);
  config.thread_level = parse_choice("DASH_THREAD_LEVEL", thread_levels, config.thread_level);
  config.thread_level_from_environment = std::getenv("DASH_THREAD_LEVEL") != nullptr;
  config.progress_thread = parse_choice("DASH_PROGRESS_THREAD", switches, config.progress_thread);
  config.shared_memory_access = parse_choice("DASH_SHARED_MEMORY", switches, config.shared_memory_access);
  config.single_copy = parse_choice("DASH_SINGLE_COPY", switches, config.single_copy);
  config.sort_trace = parse_choice("DASH_SORT_TRACE", switches, config.sort_trace);
  config.table_window_bytes = parse_bytes("DASH_TABLE_WINDOW_BYTES", 4096, config.table_window_bytes);
  config.streaming_store_bytes = parse_bytes("DASH_STREAMING_STORE_BYTES", 1, config.streaming_store_bytes);
  config.emulated_node_size = parse_count("DASH_NODE_SIZE", 1, INT_MAX, config.emulated_node_size,
                                          "a number of processes per node >= 1");
  config.arena_team_channels = parse_count("DASH_ARENA_CHANNELS", 0, 64, config.arena_team_channels,
                                           "a number of team channels per process in [0, 64]");
  if (const char* parameters = std::getenv("DASH_COST_MODEL"); parameters != nullptr) {
    config.cost_parameters = parse_cost_parameters(parameters, "dash::init", "environment variable DASH_COST_MODEL");
  }
  if (const char* descriptor = std::getenv("DASH_TOPOLOGY"); descriptor != nullptr) {
    config.network = parse_network(descriptor, "dash::init: environment variable DASH_TOPOLOGY");
  }
  for (const std::string_view name : known_variables()) {
    if (!name.starts_with("DASH_COLL_")) {
      continue;
    }
    const std::string variable(name);
    if (const char* value = std::getenv(variable.c_str()); value != nullptr) {
      config.forced_algorithms.emplace_back(variable, value);
    }
  }
  return config;
}

// Prefixes reserved for the test harness and the benchmark runner, which read their own variables.
constexpr std::array<std::string_view, 2> tool_prefixes{"DASH_TEST_", "DASH_BENCH_"};

const std::vector<std::string_view>& known_variables() {
  static const std::vector<std::string_view> names{
      "DASH_LOG_LEVEL",      "DASH_THREAD_LEVEL",   "DASH_PROGRESS_THREAD",     "DASH_COST_MODEL",
      "DASH_COLL_BCAST",     "DASH_COLL_REDUCE",    "DASH_COLL_ALLREDUCE",      "DASH_COLL_GATHER",
      "DASH_COLL_SCATTER",   "DASH_COLL_ALLGATHER", "DASH_COLL_REDUCE_SCATTER", "DASH_COLL_ALLTOALL",
      "DASH_COLL_SCAN",      "DASH_COLL_EXSCAN",    "DASH_COLL_BARRIER",        "DASH_COLL_NEIGHBOR_ALLTOALL",
      "DASH_TABLE_WINDOW_BYTES", "DASH_SHARED_MEMORY", "DASH_SINGLE_COPY", "DASH_SORT_TRACE", "DASH_TOPOLOGY",
      "DASH_NODE_SIZE", "DASH_STREAMING_STORE_BYTES", "DASH_ARENA_CHANNELS"};
  return names;
}

std::vector<std::string> unknown_dash_variables() {
  std::vector<std::string> unknown;
  const auto& known = known_variables();
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view assignment(*entry);
    if (!assignment.starts_with("DASH_") ||
        std::any_of(tool_prefixes.begin(), tool_prefixes.end(),
                    [&](std::string_view prefix) { return assignment.starts_with(prefix); })) {
      continue;
    }
    const std::string_view name = assignment.substr(0, assignment.find('='));
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      unknown.emplace_back(name);
    }
  }
  return unknown;
}

std::string_view to_string(LogLevel level) noexcept { return name_of(level, log_levels); }
std::string_view to_string(ThreadLevel level) noexcept { return name_of(level, thread_levels); }

}  // namespace dash::comm
