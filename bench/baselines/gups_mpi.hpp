#pragma once
// The `gups` suite's baseline: HPCC RandomAccess with plain MPI (suites/random_access.hpp has the
// algorithm). The table is a std::vector per process; each look-ahead exchanges its counts with
// MPI_Alltoall and its addresses with MPI_Alltoallv.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <mpi.h>

#include "suites/random_access.hpp"

namespace dash::bench::gups {

class MpiRandomAccess {
public:
  // Collective over `comm` (not taken over; it must outlive this object): a table of
  // `table_words` words (a power of two) BLOCKED over the processes of `comm`, T[i] = i.
  MpiRandomAccess(MPI_Comm comm, std::uint64_t table_words);

  // Collective: applies all 4 * table_words updates once.
  void run();
  // Sets the table back to T[i] = i.
  void reset();

  std::span<const std::uint64_t> local() const noexcept { return table_; }
  std::uint64_t local_begin() const noexcept { return local_begin_; }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 0;
  BlockedTable layout_;
  std::uint64_t local_begin_;
  std::vector<std::uint64_t> table_;
  UpdateBuckets buckets_;
  std::vector<int> send_counts_;
  std::vector<int> send_offsets_;
  std::vector<int> receive_counts_;
  std::vector<int> receive_offsets_;
  std::vector<std::uint64_t> received_;
};

}  // namespace dash::bench::gups
