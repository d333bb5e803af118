#pragma once
// The `sort` suite's baseline: a plain-MPI sample sort with regular sampling (Kowalewski 2021 §5.3.3,
// Alg. 8, with its two changes: samples come from the locally sorted block, and the received
// pieces are merged instead of sorted again). Sampling follows PSRS (Shi & Schaeffer 1992): each
// process takes p evenly spaced samples of its sorted block, and the pivots are every p-th of the
// p^2 gathered samples, offset by p/2. With distinct keys no process then receives more than
// about twice its share; equal keys all go to one process.
//
// Steps: local sort with Boost.Sort's pdqsort (with the default comparison, which makes it use its
// branchless partitioning for arithmetic keys), MPI_Allgather of the samples, pivot choice,
// partitioning by binary search, MPI_Alltoall of the counts, MPI_Alltoallv of the elements, and a
// pairwise merge of the p received runs with std::merge.

#include <cstdint>
#include <span>
#include <vector>

#include <mpi.h>

namespace dash::bench::sort {

// Seconds the calling process spent in each step.
struct SampleSortPhases {
  double local_sort = 0;
  double splitters = 0;  // sampling, the allgather of the samples, pivots, partitioning
  double exchange = 0;   // the alltoall of the counts and the alltoallv of the elements
  double merge = 0;      // merging the received runs
};

// Collective over `comm` (p processes): sorts the processes' `local` elements together,
// ascending by operator<, and returns the calling process's part of the result. The parts in rank
// order are the sorted sequence; their sizes follow the data. `local` is sorted in place and then
// serves as the send buffer. `phases`, when set, receives the step times.
// Instantiated for double and std::uint64_t.
template <class T>
std::vector<T> sample_sort_mpi(std::span<T> local, MPI_Comm comm, SampleSortPhases* phases = nullptr);

extern template std::vector<double> sample_sort_mpi(std::span<double>, MPI_Comm, SampleSortPhases*);
extern template std::vector<std::uint64_t> sample_sort_mpi(std::span<std::uint64_t>, MPI_Comm, SampleSortPhases*);
extern template std::vector<std::uint32_t> sample_sort_mpi(std::span<std::uint32_t>, MPI_Comm, SampleSortPhases*);

}  // namespace dash::bench::sort
