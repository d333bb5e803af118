#include "suites/merge_runs.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include <dash/comm/exception.hpp>

namespace dash::bench::alltoall_merge {

namespace {

// The merge step of both strategies, branch-free: which input supplies the next element is data,
// not control flow. Every repetition merges the same runs, and with a branchy merge (std::merge)
// the branch predictor learns their interleaving: on an AMD EPYC, two runs of 16384 doubles
// merged in 28 us when repeated and in 149 us when fresh, and two merge call sites alternating in
// one measurement (implementation and baseline) evicted each other's learned pattern. A real sort
// never merges the same runs twice. The branch-free merge takes the same time either way
// (124 us there). Ties take from `first`, as std::merge does.
void merge_two(const double* first, const double* first_end, const double* second, const double* second_end,
               double* out) {
  while (first != first_end && second != second_end) {
    const bool take_second = *second < *first;
    *out++ = take_second ? *second : *first;
    first += !take_second;
    second += take_second;
  }
  out = std::copy(first, first_end, out);
  std::copy(second, second_end, out);
}

}  // namespace

void merge_pairwise(std::span<double> runs, std::size_t run_length, std::span<double> scratch,
                    std::span<double> out) {
  const std::size_t total = runs.size();
  if (run_length >= total) {
    std::copy(runs.begin(), runs.end(), out.begin());
    return;
  }
  const double* source = runs.data();
  for (std::size_t width = run_length; width < total; width *= 2) {
    // The last pass writes to out; earlier ones alternate between scratch and runs.
    double* destination = 2 * width >= total ? out.data() : source == runs.data() ? scratch.data() : runs.data();
    for (std::size_t start = 0; start < total; start += 2 * width) {
      const std::size_t middle = std::min(start + width, total);
      const std::size_t end = std::min(start + 2 * width, total);
      merge_two(source + start, source + middle, source + middle, source + end, destination + start);
    }
    source = destination;
  }
}

ProgressiveMerge::ProgressiveMerge(std::size_t runs, std::size_t run_length, std::span<double> out)
    : runs_(runs), run_length_(run_length), out_(out) {
  if (runs == 0 || run_length == 0) {
    throw invalid_argument("ProgressiveMerge", runs == 0 ? "runs" : "run_length", 0, "at least 1");
  }
  if (out.size() != runs * run_length) {
    throw invalid_argument("ProgressiveMerge", "out.size()", out.size(),
                           "runs * run_length = " + std::to_string(runs * run_length));
  }
  // The runs before the last reach at most level floor(lg(runs - 1)).
  const std::size_t levels = runs >= 2 ? static_cast<std::size_t>(std::bit_width(runs - 1)) : 1;
  stored_.resize(levels);
  occupied_.resize(levels, false);
  level_buffers_.resize(2 * levels);
  for (std::size_t level = 1; level < levels; ++level) {
    level_buffers_[2 * level].resize(run_length << level);
    level_buffers_[2 * level + 1].resize(run_length << level);
  }
  scratch_.resize(out.size());
}

void ProgressiveMerge::add(std::span<const double> run) {
  if (run.size() != run_length_) {
    throw invalid_argument("ProgressiveMerge::add", "run.size()", run.size(),
                           "the run length " + std::to_string(run_length_));
  }
  if (++added_ == runs_) {
    finish(run);
    return;
  }
  StoredRun carry{run.data(), run.size(), -1};
  std::size_t level = 0;
  while (occupied_[level]) {
    const StoredRun& stored = stored_[level];
    const std::size_t next = level + 1;
    const int target = occupied_[next] ? 1 - stored_[next].buffer : 0;
    double* destination = level_buffers_[2 * next + static_cast<std::size_t>(target)].data();
    merge_two(stored.data, stored.data + stored.length, carry.data, carry.data + carry.length, destination);
    carry = StoredRun{destination, stored.length + carry.length, target};
    occupied_[level] = false;
    level = next;
  }
  stored_[level] = carry;
  occupied_[level] = true;
}

void ProgressiveMerge::finish(std::span<const double> last) {
  const auto merges = static_cast<std::size_t>(std::count(occupied_.begin(), occupied_.end(), true));
  if (merges == 0) {
    std::copy(last.begin(), last.end(), out_.begin());
  }
  // Smallest first, so each element is merged about as often as in merge_pairwise; the buffers
  // alternate such that the last merge writes to out.
  const double* merged = last.data();
  std::size_t merged_length = last.size();
  std::size_t done = 0;
  for (std::size_t level = 0; level < stored_.size(); ++level) {
    if (!occupied_[level]) {
      continue;
    }
    const StoredRun& stored = stored_[level];
    double* destination = (merges - ++done) % 2 == 0 ? out_.data() : scratch_.data();
    merge_two(merged, merged + merged_length, stored.data, stored.data + stored.length, destination);
    merged = destination;
    merged_length += stored.length;
    occupied_[level] = false;
  }
  added_ = 0;
}

}  // namespace dash::bench::alltoall_merge
