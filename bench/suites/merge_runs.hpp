#pragma once
// Merging the sorted runs an alltoall delivers into one sorted sequence (seed 004 §5.3, §7.4):
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
// order. Stored runs form a binary counter (a binomial heap of runs): a new run merges with the
// stored run of one run, the result with the stored run of two, and so on, so every merge joins
// equal sizes and an element takes part in about lg k merges, as in merge_pairwise. The last run
// merges the rest, smallest first, finishing in `out`. Runs are read in place: each must stay
// unchanged until the last one was added.
class ProgressiveMerge {
public:
  ProgressiveMerge(std::size_t runs, std::size_t run_length, std::span<double> out);

  // Adds the next run; the last of `runs` runs completes `out` and starts a new merge.
  // Throws dash::InvalidArgument when `run` does not have `run_length` elements.
  void add(std::span<const double> run);

private:
  struct StoredRun {
    const double* data = nullptr;
    std::size_t length = 0;
    int buffer = -1;  // which of its level's two buffers holds it; -1 for an added run
  };

  void finish(std::span<const double> last);

  std::size_t runs_;
  std::size_t run_length_;
  std::span<double> out_;
  std::size_t added_ = 0;
  // Per level k (a run of 2^k added runs): the stored run, if any. Merging two runs of level k
  // writes to the level-(k+1) buffer that the stored run of that level does not occupy, so two
  // buffers per level suffice.
  std::vector<StoredRun> stored_;
  std::vector<bool> occupied_;
  std::vector<std::vector<double>> level_buffers_;  // [2k], [2k+1]: the two buffers of level k
  std::vector<double> scratch_;                     // the final merges alternate with out
};

}  // namespace dash::bench::alltoall_merge
