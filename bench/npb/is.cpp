#include "npb/is.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <dash/algorithms/copy.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/containers/array.hpp>

namespace dash::bench::npb {

namespace {

// NPB 3.4's is.c: sizes, test indices and test ranks per class.
constexpr std::array<IsClass, 4> classes{{
    {'S', std::size_t{1} << 16, 1 << 11, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {'W', std::size_t{1} << 20, 1 << 16, {357773, 934767, 875723, 898999, 404505},
     {1249, 11698, 1039987, 1043896, 1048018}},
    {'A', std::size_t{1} << 23, 1 << 19, {2112377, 662041, 5336171, 3642833, 4250760},
     {104, 17523, 123928, 8288932, 8388264}},
    {'B', std::size_t{1} << 25, 1 << 21, {41869, 812306, 5102857, 18232239, 26860214},
     {33422937, 10244, 59149, 33135281, 99}},
}};

// Sets key `global` to `value` on the unit that holds it.
void set_key(Array<int>& keys, std::size_t global, int value) {
  const LocalIndex where = keys.pattern().local(global);
  if (where.unit == static_cast<std::size_t>(keys.team().myid())) {
    keys.local[where.index] = value;
  }
}

// Fills the caller's keys with those of the reference code's sequence, jumping the generator to
// where each local block starts.
void generate_keys(Array<int>& keys, int max_key) {
  const auto unit = static_cast<std::size_t>(keys.team().myid());
  std::uint64_t state = 0;
  std::size_t next_global = 0;
  for (std::size_t i = 0; i < keys.local.size(); ++i) {
    const std::size_t global = keys.pattern().global_index(unit, i);
    if (i == 0 || global != next_global) {
      state = randlc_jump(randlc_seed, 4 * static_cast<std::uint64_t>(global));
    }
    keys.local[i] = next_key(state, max_key);
    next_global = global + 1;
  }
}

// One ranking as NPB's rank(iteration) does it: modify two keys, rank all keys (here: sort a copy),
// and return how many of the test keys got their reference rank.
int rank_keys(const IsClass& klass, int iteration, Array<int>& keys, Array<int>& sorted, const SortOptions& options) {
  const comm::Group& group = keys.team().group();
  set_key(keys, static_cast<std::size_t>(iteration), iteration);
  set_key(keys, static_cast<std::size_t>(iteration + is_iterations), klass.max_key - iteration);

  // The test keys' values, from the units that hold them.
  std::array<std::int64_t, is_test_keys> values{};
  const auto unit = static_cast<std::size_t>(keys.team().myid());
  for (std::size_t t = 0; t < is_test_keys; ++t) {
    const LocalIndex where = keys.pattern().local(klass.test_index[t]);
    if (where.unit == unit) {
      values[t] = keys.local[where.index];
    }
  }
  comm::allreduce(values, values, plus{}, group);

  copy(keys.begin(), keys.end(), sorted.begin());
  sort(sorted.begin(), sorted.end(), std::ranges::less{}, std::identity{}, options);

  // A key's rank is the number of smaller keys: each unit finds those in its sorted part by bisection.
  std::array<std::int64_t, is_test_keys> ranks{};
  for (std::size_t t = 0; t < is_test_keys; ++t) {
    ranks[t] = std::lower_bound(sorted.local.begin(), sorted.local.end(), values[t]) - sorted.local.begin();
  }
  comm::allreduce(ranks, ranks, plus{}, group);
  int passed = 0;
  for (std::size_t t = 0; t < is_test_keys; ++t) {
    passed += ranks[t] == expected_test_rank(klass, t, iteration) ? 1 : 0;
  }
  return passed;
}

// Collective: true on every unit when `sorted` is non-decreasing within and across units and holds
// the same keys as `keys`, all in [0, max_key).
bool fully_verify(const Array<int>& keys, const Array<int>& sorted, int max_key) {
  const comm::Group& group = keys.team().group();
  const std::span<const int> mine(sorted.local.begin(), sorted.local.size());
  bool ok = std::is_sorted(mine.begin(), mine.end());

  // Unit u's first and last key, or an empty marker: each must not lie below the previous unit's last.
  constexpr std::int64_t empty = -1;
  const std::array<std::int64_t, 2> ends{mine.empty() ? empty : mine.front(), mine.empty() ? empty : mine.back()};
  const auto units = static_cast<std::size_t>(group.size());
  std::vector<std::int64_t> all_ends(2 * units);
  comm::allgather(ends, all_ends, group);
  std::int64_t previous_last = empty;
  for (std::size_t u = 0; u < units; ++u) {
    if (all_ends[2 * u] != empty) {
      ok = ok && all_ends[2 * u] >= previous_last;
      previous_last = all_ends[2 * u + 1];
    }
  }

  // The same multiset: all keys in range, and the histogram of the keys minus that of the sorted keys
  // is zero everywhere.
  const auto in_range = [max_key](int key) { return key >= 0 && key < max_key; };
  ok = ok && std::all_of(keys.local.begin(), keys.local.end(), in_range) &&
       std::all_of(mine.begin(), mine.end(), in_range);
  std::vector<std::int64_t> difference(static_cast<std::size_t>(max_key));
  for (int key : keys.local) {
    if (in_range(key)) {
      ++difference[static_cast<std::size_t>(key)];
    }
  }
  for (int key : mine) {
    if (in_range(key)) {
      --difference[static_cast<std::size_t>(key)];
    }
  }
  comm::allreduce(difference, difference, plus{}, group);
  ok = ok && std::all_of(difference.begin(), difference.end(), [](std::int64_t d) { return d == 0; });

  const int all_ok_on_unit = ok ? 1 : 0;
  int all_ok = 0;
  comm::allreduce(std::span<const int>(&all_ok_on_unit, 1), std::span<int>(&all_ok, 1), min{}, group);
  return all_ok == 1;
}

}  // namespace

const IsClass& is_class(char name) {
  for (const IsClass& klass : classes) {
    if (klass.name == name) {
      return klass;
    }
  }
  throw invalid_argument("dash::bench::npb::is_class", "name", std::string(1, name), "'S', 'W', 'A' or 'B'");
}

std::int64_t expected_test_rank(const IsClass& klass, std::size_t t, int iteration) {
  const std::int64_t reference = klass.test_rank[t];
  switch (klass.name) {
    case 'S':
      return t <= 2 ? reference + iteration : reference - iteration;
    case 'W':
      return t < 2 ? reference + (iteration - 2) : reference - iteration;
    case 'A':
      return t <= 2 ? reference + (iteration - 1) : reference - (iteration - 1);
    default:  // 'B'
      return t == 1 || t == 2 || t == 4 ? reference + iteration : reference - iteration;
  }
}

int next_key(std::uint64_t& state, int max_key) {
  double sum = randlc(state);
  sum += randlc(state);
  sum += randlc(state);
  sum += randlc(state);
  return static_cast<int>(static_cast<double>(max_key / 4) * sum);
}

IsResult run_is(char klass_name, Team& team, const SortOptions& options) {
  const IsClass& klass = is_class(klass_name);
  Array<int> keys(klass.total_keys, BLOCKED, team);
  Array<int> sorted(klass.total_keys, BLOCKED, team);
  generate_keys(keys, klass.max_key);

  // NPB's untimed warm-up ranking; its verification does not count.
  rank_keys(klass, 1, keys, sorted, options);

  IsResult result;
  result.klass = klass.name;
  result.total_keys = klass.total_keys;
  result.units = team.size();
  team.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int iteration = 1; iteration <= is_iterations; ++iteration) {
    result.partial_checks_passed += rank_keys(klass, iteration, keys, sorted, options);
  }
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  comm::allreduce(std::span<const double>(&mine, 1), std::span<double>(&result.seconds, 1), max{}, team.group());

  result.fully_verified = fully_verify(keys, sorted, klass.max_key);
  result.verified = result.fully_verified &&
                    result.partial_checks_passed == static_cast<int>(is_test_keys) * is_iterations;
  result.mops = static_cast<double>(is_iterations) * static_cast<double>(klass.total_keys) / result.seconds / 1e6;
  return result;
}

}  // namespace dash::bench::npb
