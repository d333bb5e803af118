#include "runner/registry.hpp"

#include <algorithm>
#include <utility>

#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>

namespace dash::bench {

namespace {

std::vector<Case>& catalogue() {
  // Function-local so that registrations from any translation unit find it constructed.
  static std::vector<Case> cases;
  return cases;
}

}  // namespace

void Workload::prepare(Side) {}

std::vector<double> Workload::extra_metrics(Side) { return {}; }

std::vector<int> one_and_all_ranks(int job_size) {
  if (job_size == 1) {
    return {1};
  }
  return {1, job_size};
}

CaseRegistration::CaseRegistration(Case bench_case) {
  std::vector<Case>& cases = catalogue();
  const std::string id = bench_case.id();
  assert_that(std::none_of(cases.begin(), cases.end(),
                           [&](const Case& known) { return known.id() == id; }),
              [&] { return "dash-bench: benchmark case " + id + " is registered twice"; });
  // Static initialisation order across files is unspecified; inserting by suite name keeps
  // `dash-bench list` and `run all` in a stable order.
  const auto position = std::upper_bound(
      cases.begin(), cases.end(), bench_case.suite,
      [](const std::string& suite, const Case& known) { return suite < known.suite; });
  cases.insert(position, std::move(bench_case));
}

const std::vector<Case>& registered_cases() { return catalogue(); }

std::vector<const Case*> select_cases(std::string_view target) {
  std::vector<const Case*> selected;
  for (const Case& bench_case : catalogue()) {
    const bool in_all = target == "all" && !bench_case.needs_thread_multiple;
    if (in_all || target == bench_case.suite || target == bench_case.id()) {
      selected.push_back(&bench_case);
    }
  }
  if (selected.empty()) {
    throw invalid_argument("dash-bench run", "target", target,
                           "'all', a suite or <suite>/<case> (`dash-bench list` shows them)");
  }
  return selected;
}

}  // namespace dash::bench
