#include "runner/progress.hpp"

#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

namespace dash::bench {

Progress::Progress(std::vector<double> weights, bool enabled)
    : weights_(std::move(weights)),
      total_weight_(std::accumulate(weights_.begin(), weights_.end(), 0.0)),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()) {}

void Progress::point_done(std::size_t index, std::string_view description) {
  done_weight_ += weights_.at(index);
  if (!enabled_) {
    return;
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left =
      done_weight_ > 0.0 ? elapsed * (total_weight_ - done_weight_) / done_weight_ : 0.0;
  const std::string text(description);
  // One fprintf per line so that the line is not torn by output of other ranks.
  std::fprintf(stderr, "[%zu/%zu] %s elapsed %.1fs, ~%.1fs left\n", index + 1, weights_.size(),
               text.c_str(), elapsed, left);
}

}  // namespace dash::bench
