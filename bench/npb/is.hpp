#pragma once
// NPB IS (Integer Sort, NAS Parallel Benchmarks 3.4) on dash (NPB 3.4, docs/references.md).
//
// The keys lie in a dash::Array<int>, BLOCKED over the team, generated from NPB's randlc stream so
// that they are the same as the reference code's for any number of units. Each of the 10 timed
// iterations (after one untimed warm-up) sets key[it] = it and key[it + 10] = max_key - it, copies
// the keys into a second array and ranks them all with dash::sort; the rank of a key (the number of
// keys strictly smaller) is then its value's first position in the sorted array. Partial
// verification checks the ranks of the class's 5 test keys in every iteration against NPB's table;
// full verification (untimed) checks that the last sorted array is in order and holds the same keys.
// Unlike NPB's MPI code, any number of units works.

#include <array>
#include <cstddef>
#include <cstdint>

#include <dash/algorithms/sort.hpp>
#include <dash/core/team.hpp>

#include "npb/randlc.hpp"

namespace dash::bench::npb {

inline constexpr int is_iterations = 10;
inline constexpr std::size_t is_test_keys = 5;

// A problem class: its size and the reference ranks of its test keys.
struct IsClass {
  char name;
  std::size_t total_keys;
  int max_key;  // keys lie in [0, max_key)
  std::array<std::size_t, is_test_keys> test_index;
  std::array<std::int64_t, is_test_keys> test_rank;
};

// Class 'S', 'W', 'A' or 'B'; throws dash::InvalidArgument for any other letter.
const IsClass& is_class(char name);

// The rank test key t (0-based) must have in iteration `iteration` (1-based): the class's test rank
// shifted by the iteration, as NPB's partial verification does per class.
std::int64_t expected_test_rank(const IsClass& klass, std::size_t t, int iteration);

// Key g of a class with keys in [0, max_key), computed from the generator state `state` before it
// (randlc_jump(randlc_seed, 4 g)): floor(max_key / 4 (r1 + r2 + r3 + r4)) of the next four values,
// summed in that order as NPB does. Advances `state` past them.
int next_key(std::uint64_t& state, int max_key);

struct IsResult {
  char klass = 0;
  std::size_t total_keys = 0;
  std::size_t units = 0;
  // Test-key ranks found right, of is_test_keys * is_iterations.
  int partial_checks_passed = 0;
  // After the last iteration the sorted keys are in order on every unit and across units, and they
  // are the same multiset as the keys.
  bool fully_verified = false;
  // Every partial check passed and the full verification too.
  bool verified = false;
  // The timed iterations, on the slowest unit.
  double seconds = 0;
  // Million keys ranked per second (NPB's Mop/s): is_iterations * total_keys / seconds / 1e6.
  double mops = 0;
};

// Collective over `team`: runs IS of class `klass` ('S', 'W', 'A' or 'B'), sorting with `options`
// (options.phases, when set, receives the last iteration's phase times). Memory per unit: two
// arrays of total_keys / team.size() ints plus dash::sort's buffers. Throws dash::InvalidArgument for
// another class.
IsResult run_is(char klass, Team& team, const SortOptions& options = {});

}  // namespace dash::bench::npb
