#include "suites/merge_runs.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <string>

#include <dash/comm/exception.hpp>

namespace dash::bench::alltoall_merge {

namespace {

// The merge step of both strategies, branch-free: which input supplies the next element is data,
// not control flow. Every repetition merges the same runs, and with a branchy merge (std::merge)
// the branch predictor learns their interleaving, which a real sort never repeats, and the two merge
// call sites of one measurement (implementation and baseline) evict each other's learned pattern;
// the branch-free merge takes the same time either way (docs/benchmarks.md, "alltoall_merge").
// Ties take from `first`, as std::merge does.
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

// Merges a run into one at least eight times longer: the longer run's stretches between the
// shorter run's elements are found by galloping (doubling steps, then binary search) and copied
// whole, so the merge costs about a copy of the longer run instead of a compare per element.
// Equal elements of the longer run go first, as std::merge puts `first`'s first when it is the
// longer; values are all that is compared, so the order of equal values does not matter.
void merge_into_longer(const double* longer, const double* longer_end, const double* shorter,
                       const double* shorter_end, double* out) {
  for (; shorter != shorter_end; ++shorter) {
    const double x = *shorter;
    std::size_t step = 1;
    while (longer + step < longer_end && !(x < longer[step])) {
      step *= 2;
    }
    const double* stretch_end = std::upper_bound(longer + step / 2, std::min(longer + step, longer_end), x);
    out = std::copy(longer, stretch_end, out);
    *out++ = x;
    longer = stretch_end;
  }
  std::copy(longer, longer_end, out);
}

void merge_any(const double* first, const double* first_end, const double* second, const double* second_end,
               double* out) {
  const auto first_length = static_cast<std::size_t>(first_end - first);
  const auto second_length = static_cast<std::size_t>(second_end - second);
  if (first_length >= 8 * second_length) {
    merge_into_longer(first, first_end, second, second_end, out);
  } else if (second_length >= 8 * first_length) {
    merge_into_longer(second, second_end, first, first_end, out);
  } else {
    merge_two(first, first_end, second, second_end, out);
  }
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
}

void ProgressiveMerge::add(std::span<const double> run) {
  if (run.size() != run_length_) {
    throw invalid_argument("ProgressiveMerge::add", "run.size()", run.size(),
                           "the run length " + std::to_string(run_length_));
  }
  stack_.push_back(StoredRun{run.data(), run.size(), -1});
  if (++added_ < runs_) {
    while (stack_.size() >= 2 && stack_.back().length >= stack_[stack_.size() - 2].length) {
      merge_top();
    }
    return;
  }
  // The last run: merge everything, shortest first, the last merge into out.
  while (stack_.size() > 2) {
    merge_top();
  }
  if (stack_.size() == 2) {
    merge_top(out_.data());
  } else {
    std::copy_n(stack_.back().data, stack_.back().length, out_.begin());
  }
  release(stack_.back().buffer);
  stack_.clear();
  added_ = 0;
}

bool ProgressiveMerge::consolidate() {
  if (stack_.size() < 2) {
    return false;
  }
  merge_top();
  return true;
}

void ProgressiveMerge::merge_top(double* destination) {
  const StoredRun newer = stack_.back();
  stack_.pop_back();
  const StoredRun older = stack_.back();
  stack_.pop_back();
  const std::size_t length = older.length + newer.length;
  const int buffer = destination == nullptr ? acquire(length) : -1;
  double* into = destination == nullptr ? buffers_[static_cast<std::size_t>(buffer)].data() : destination;
  merge_any(older.data, older.data + older.length, newer.data, newer.data + newer.length, into);
  release(older.buffer);
  release(newer.buffer);
  stack_.push_back(StoredRun{into, length, buffer});
}

// The free buffer that fits most tightly, else a new one.
int ProgressiveMerge::acquire(std::size_t length) {
  auto best = free_buffers_.end();
  for (auto it = free_buffers_.begin(); it != free_buffers_.end(); ++it) {
    const std::size_t size = buffers_[static_cast<std::size_t>(*it)].size();
    if (size >= length && (best == free_buffers_.end() || size < buffers_[static_cast<std::size_t>(*best)].size())) {
      best = it;
    }
  }
  if (best != free_buffers_.end()) {
    const int buffer = *best;
    free_buffers_.erase(best);
    return buffer;
  }
  // Sizes from a few classes (a power of two of runs, at most all of them), so that later merges, whose
  // lengths vary with the order of arrival, find a buffer to reuse instead of touching new memory.
  const std::size_t runs = (length + run_length_ - 1) / run_length_;
  buffers_.emplace_back(std::min(std::bit_ceil(runs), runs_) * run_length_);
  return static_cast<int>(buffers_.size() - 1);
}

void ProgressiveMerge::release(int buffer) {
  if (buffer >= 0) {
    free_buffers_.push_back(buffer);
  }
}

}  // namespace dash::bench::alltoall_merge
