#pragma once
// How far apart the cores of ranks 0 and 1 sit, measured as the round trip of a cache line
// between them. In a virtual machine the host moves virtual cores between physical ones while a
// run goes on; the arena's collectives hand chunks between cores through cache lines and slow
// down several times while the two sit far apart (docs/benchmarks.md, "Core placement").

#include <atomic>
#include <cstdint>

#include <mpi.h>

namespace dash::bench {

class CoreRoundTrip {
public:
  // Collective over `world`: two shared cache lines where ranks 0 and 1 share a node.
  explicit CoreRoundTrip(MPI_Comm world);
  ~CoreRoundTrip();
  CoreRoundTrip(const CoreRoundTrip&) = delete;
  CoreRoundTrip& operator=(const CoreRoundTrip&) = delete;

  // Collective over `world`: the median of five batches' mean round trip, in nanoseconds, on rank
  // 0; NaN on the other ranks and where rank 1 is missing or on another node.
  double measure();

private:
  MPI_Comm world_;
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  std::atomic<std::uint64_t>* ping_ = nullptr;  // written by rank 0
  std::atomic<std::uint64_t>* pong_ = nullptr;  // written by rank 1
  int rank_ = 0;
  bool probed_ = false;  // ranks 0 and 1 share a node
  std::uint64_t sequence_ = 0;
};

}  // namespace dash::bench
