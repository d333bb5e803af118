#include "runner/statistics.hpp"

#include <algorithm>
#include <cstddef>

#include <dash/comm/exception.hpp>

namespace dash::bench {

Summary summarize(std::vector<double> samples) {
  if (samples.empty()) {
    throw invalid_argument("dash::bench::summarize", "samples", "{}", "at least one timing");
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t middle = samples.size() / 2;
  const double median = samples.size() % 2 == 1
                            ? samples[middle]
                            : (samples[middle - 1] + samples[middle]) / 2.0;
  return Summary{median, samples.front(), samples.back()};
}

}  // namespace dash::bench
