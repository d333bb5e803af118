#pragma once
// Summary statistics of repeated timings.

#include <vector>

namespace dash::bench {

struct Summary {
  double median;
  double min;
  double max;
};

// Throws dash::InvalidArgument when `samples` is empty.
Summary summarize(std::vector<double> samples);

}  // namespace dash::bench
