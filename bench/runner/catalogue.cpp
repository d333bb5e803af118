#include "runner/catalogue.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "runner/registry.hpp"

namespace dash::bench {

namespace {

std::string join_sizes(const std::vector<std::size_t>& sizes) {
  std::string text;
  for (const std::size_t size : sizes) {
    text += (text.empty() ? "" : ", ") + std::to_string(size);
  }
  return text;
}

}  // namespace

void print_catalogue(std::ostream& out) {
  std::size_t name_width = 0;
  for (const Case& bench_case : registered_cases()) {
    name_width = std::max(name_width, bench_case.name.size());
  }
  const std::string* suite = nullptr;
  for (const Case& bench_case : registered_cases()) {
    if (suite == nullptr || *suite != bench_case.suite) {
      suite = &bench_case.suite;
      out << (suite == &registered_cases().front().suite ? "" : "\n") << *suite << "\n";
    }
    const std::string indent(name_width + 4, ' ');
    out << "  " << bench_case.name << std::string(name_width - bench_case.name.size() + 2, ' ')
        << "impl:     " << bench_case.impl << "\n"
        << indent << "baseline: " << bench_case.baseline << "\n"
        << (bench_case.baseline_unavailable ? indent + "          not in this build: " + *bench_case.baseline_unavailable + "\n" : "")
        << indent << "sizes:    quick " << join_sizes(bench_case.sizes(Sweep::quick)) << "; full "
        << join_sizes(bench_case.sizes(Sweep::full)) << " (" << bench_case.size_unit << ")\n";
    if (!bench_case.extra_metrics.empty()) {
      std::string names;
      for (const ExtraMetric& metric : bench_case.extra_metrics) {
        names += (names.empty() ? "" : ", ") + metric.name;
      }
      out << indent << "metrics:  " << names << "\n";
    }
    if (bench_case.needs_thread_multiple) {
      out << indent << "needs:    MPI_THREAD_MULTIPLE (not part of `run all`; run its suite or the case)\n";
    }
  }
}

}  // namespace dash::bench
