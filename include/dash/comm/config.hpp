#pragma once
// Run-time configuration read from DASH_* environment variables (docs/configuration.md lists
// every one). A malformed value is an error, never silently replaced by a default.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/network.hpp>

namespace dash::comm {

enum class LogLevel { off, error, warn, info, debug, trace };

// The MPI thread support the library asks for. The default, funneled, lets an application run
// threaded regions (e.g. OpenMP) while only the main thread calls dash; `multiple` is needed by
// anything that calls the library from several threads at once, and costs locking inside MPI.
enum class ThreadLevel { single, funneled, serialized, multiple };

struct Config {
  LogLevel log_level = LogLevel::warn;          // DASH_LOG_LEVEL
  ThreadLevel thread_level = ThreadLevel::funneled;  // DASH_THREAD_LEVEL
  // True when DASH_THREAD_LEVEL was set: then the level is a requirement, not a wish, and
  // dash::init fails if MPI provides less.
  bool thread_level_from_environment = false;
  // DASH_PROGRESS_THREAD=1: a background thread advances running collectives (needs MPI thread
  // level 'multiple').
  bool progress_thread = false;
  // DASH_SHARED_MEMORY=0: global memory on the same node is reached through RMA like remote
  // memory instead of by load/store (to exercise and measure the RMA path on one node).
  bool shared_memory_access = true;
  // DASH_SINGLE_COPY=0: the node's shared-memory collectives stage every chunk in the arena even
  // where a reader could copy it straight from the other process's buffer (process_vm_readv).
  bool single_copy = true;
  // DASH_STREAMING_STORE_BYTES: the node's shared-memory allgather, alltoall and broadcast write an
  // output of at least this many bytes per process with non-temporal stores (staging it rather
  // than reading in place, since the kernel's copy cannot stream).
  std::size_t streaming_store_bytes = std::size_t{32} << 20;
  // DASH_SORT_TRACE=1: dash::sort prints each unit's phase times and splitter rounds.
  bool sort_trace = false;
  // DASH_TABLE_WINDOW_BYTES: memory per process for the rows of distributed team tables.
  std::size_t table_window_bytes = std::size_t{1} << 20;
  // DASH_COLL_<OP>=<algorithm> settings, as (variable name, algorithm) pairs.
  std::vector<std::pair<std::string, std::string>> forced_algorithms;
  // DASH_COST_MODEL: the cost model's machine parameters, which pick the collectives' algorithms.
  CostParameters cost_parameters;
  // DASH_TOPOLOGY: the network between the nodes (network.hpp); flat when unset.
  Network network;
  // DASH_NODE_SIZE=k: every k consecutive processes of a node count as a node of their own
  // (the last may hold fewer), so a multi-node job and its hierarchical collectives run on one
  // machine; 0 (unset): nodes as MPI_COMM_TYPE_SHARED finds them.
  int emulated_node_size = 0;
  // DASH_ARENA_CHANNELS: the collective arena's channels for teams, per process (each 1.01 MiB of
  // the node's shared memory): a team whose members on a node share memory takes one free on all of
  // them when it is made; teams beyond run message schedules.
  int arena_team_channels = 4;
};

// Parses the DASH_* variables of the current environment. Throws dash::InvalidArgument naming
// the variable, its value and the accepted values when one is malformed.
Config config_from_environment();

// The names of all DASH_* variables the library reads.
const std::vector<std::string_view>& known_variables();

// DASH_* variables that are set but unknown to the library (usually a typo); dash::init warns.
// Names under the tool prefixes DASH_TEST_ and DASH_BENCH_ are not reported.
std::vector<std::string> unknown_dash_variables();

std::string_view to_string(LogLevel level) noexcept;
std::string_view to_string(ThreadLevel level) noexcept;

}  // namespace dash::comm
