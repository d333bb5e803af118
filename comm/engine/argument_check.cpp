// The cross-rank argument check of the collectives, and the report of a call that failed its
// local checks on one member (local_failure_report.hpp).

#include "engine/argument_check.hpp"

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include <dash/comm/detail/local_failure_report.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/log.hpp>

#include "selection/choice.hpp"
#include "engine/grid_hash.hpp"

namespace dash::comm::detail {

namespace {

// The arguments every rank must pass alike, compared bitwise across the group (no padding).
struct UniformArguments {
  std::uint64_t collective;
  std::int64_t root;
  std::uint64_t commutative;
  std::uint64_t element_size;
  std::uint64_t elements;
  std::uint64_t algorithm_hash;
  std::uint64_t segments;
  std::uint64_t canonical_placement;
  std::uint64_t grid_hash;
};

std::uint64_t checks_started = 0;

constexpr std::string_view compared_arguments =
    "collective arguments (operation, root, count, algorithm, segments, placement, grid)";

// The hash a member whose call failed its local checks compares: the others' calls, whatever
// their arguments, see a difference (unless their hash hits this one value by chance).
constexpr std::uint64_t failed_call_hash = 0x6661696c65642121;

}  // namespace

std::uint64_t argument_checks_started() noexcept { return checks_started; }

void report_failed_call(std::string_view function, const Group& group) noexcept {
  ++checks_started;  // an enclosing front end must not report the call again
  try {
    PendingUniformCheck check(failed_call_hash, std::string(function), std::string(compared_arguments), "", group);
    try {
      while (!check.test()) {
      }
    } catch (const InvalidArgument&) {
      // The others passed a valid call: the difference is the point. The caller's own error says more.
    }
  } catch (const std::exception& error) {
    log(LogLevel::error, function, ": could not tell the other members that this call failed: ", error.what());
  }
}

// The cross-rank comparison of the call's arguments over the group's members in builds with
// DASH_CROSS_RANK_CHECKS, else null.
std::unique_ptr<PendingUniformCheck> start_argument_check(const CollectiveCall& call, const Group& group,
                                                          const Options& options) {
  if constexpr (cross_rank_checks_enabled) {
    // A hierarchical call's stages start at different times on different processes, so they
    // cannot take their group's next tag for a comparison; their call was checked.
    if (call.internal) {
      return nullptr;
    }
    ++checks_started;
    const bool variable_sizes = call.input_sizes || call.output_sizes;
    // The algorithm the call forces, by its options or by the environment of this process.
    const std::string_view forced =
        options.algorithm.empty() ? selection::environment_algorithm(call.collective) : std::string_view(options.algorithm);
    const UniformArguments arguments{static_cast<std::uint64_t>(call.collective),
                                     call.root,
                                     call.commutative ? 1u : 0u,
                                     call.element_size,
                                     variable_sizes ? 0 : call.elements,
                                     detail::fnv1a_hash(forced.data(), forced.size()),
                                     options.segments,
                                     options.canonical_placement ? 1u : 0u,
                                     grid_hash(call.grid.get())};
    return start_uniform_check(arguments, call.function, compared_arguments, group);
  }
  return nullptr;
}

}  // namespace dash::comm::detail
