#pragma once
// The progress line on standard error during a sweep:
//   [k/n] suite/case p=.. size=.. elapsed Xs, ~Ys left

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

namespace dash::bench {

class Progress {
public:
  // `weights` estimate the relative cost of each point (the remaining time is extrapolated from
  // the weight already done); a disabled Progress prints nothing (ranks other than 0).
  Progress(std::vector<double> weights, bool enabled);

  // Reports that point `index` (0-based, in order) has finished.
  void point_done(std::size_t index, std::string_view description);

private:
  std::vector<double> weights_;
  double total_weight_ = 0.0;
  double done_weight_ = 0.0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dash::bench
