#pragma once
// Merging the sorted runs an alltoall delivers into one sorted sequence (Kowalewski 2021 §5.3.3, §7.4):
// all at once after the exchange, or run by run as they arrive.

#include <cstddef>
#include <span>
#include <vector>

namespace dash::bench::alltoall_merge {

// Merges the consecutive sorted runs of `run_length` elements in `runs` (the last may be
// shorter) into `out`, pairwise level by level: ceil(lg k) passes over the data for k runs.
// `runs` and `scratch` (as large as `runs`) serve as the intermediate levels, so `runs` is
// overwritten; `out` must be as large as `runs` and overlap neither.
void merge_pairwise(std::span<double> runs, std::size_t run_length, std::span<double> scratch,
                    std::span<double> out);

// Merges `runs` sorted runs of `run_length` elements each into `out` while they arrive, in any
// order. Stored runs form a stack whose lengths shrink towards the top: a new run merges with the
// top while the top is not longer, so without consolidate() the stack is a binary counter (a
// binomial heap of runs), every merge joins equal lengths and an element takes part in about lg k
// merges, as in merge_pairwise. The last run merges the stack, shortest first, finishing in
// `out`: about two passes over the data. consolidate() merges the two shortest stored runs ahead of
// time (work for a consumer waiting for its next run), so that less is left after the last. Runs
// are read in place: each must stay unchanged until the last one was added.
class ProgressiveMerge {
public:
  ProgressiveMerge(std::size_t runs, std::size_t run_length, std::span<double> out);

  // Adds the next run; the last of `runs` runs completes `out` and starts a new merge.
  // Throws dash::InvalidArgument when `run` does not have `run_length` elements.
  void add(std::span<const double> run);

  // Merges the two shortest stored runs; false when fewer than two are stored.
  bool consolidate();
  std::size_t stored_runs() const noexcept { return stack_.size(); }
  std::size_t runs_to_come() const noexcept { return runs_ - added_; }

private:
  struct StoredRun {
    const double* data = nullptr;
    std::size_t length = 0;
    int buffer = -1;  // the pool buffer holding it; -1 for an added run
  };

  // Merges the two top runs into `destination`, or into a pool buffer if null.
  void merge_top(double* destination = nullptr);
  int acquire(std::size_t length);
  void release(int buffer);

  std::size_t runs_;
  std::size_t run_length_;
  std::span<double> out_;
  std::size_t added_ = 0;
  std::vector<StoredRun> stack_;
  // Buffers for merged runs, reused across merges and calls; free ones are listed.
  std::vector<std::vector<double>> buffers_;
  std::vector<int> free_buffers_;
};

}  // namespace dash::bench::alltoall_merge
