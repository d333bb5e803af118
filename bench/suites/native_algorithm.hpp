#pragma once
// The MPI library's own collective algorithms, forced one at a time, so that the coll suite can
// compare ours with each of them (docs/references.md, "MPI implementations"). Open MPI's tuned component
// reads coll_tuned_<op>_algorithm when a communicator is created; MPICH reads
// MPIR_CVAR_<OP>_INTRA_ALGORITHM at every call, for every communicator. Both are set through MPI_T.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

namespace dash::bench {

struct NativeAlgorithm {
  std::string_view name;  // e.g. "recursive_doubling"
  int id;                 // the value of the library's control variable that selects it
};

// "Open MPI" or "MPICH": whose default decision and algorithms the coll suite measures.
std::string_view native_library_name();

// The algorithms of `collective` ("allreduce", "allgather", "reduce_scatter_block", "alltoall",
// "bcast") that the coll suite forces in this build.
const std::vector<NativeAlgorithm>& native_algorithms(std::string_view collective);

// "Open MPI allreduce algorithm 3 (recursive_doubling)", "MPICH allreduce algorithm
// recursive_doubling (MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=3)".
std::string describe_native_algorithm(std::string_view collective, const NativeAlgorithm& algorithm);

// A communicator of its own on which `collective` runs one native algorithm. Calls on it must lie
// between engage() and release(): MPICH's choice holds for the whole process while engaged, and
// while engaged MPICH reports arguments its algorithm cannot take as an error instead of silently
// running its default decision. Throws dash::Exception naming the control variable when the
// algorithm cannot be forced at all.
class ForcedAlgorithm {
public:
  // Collective over `base`.
  ForcedAlgorithm(MPI_Comm base, std::string_view collective, const NativeAlgorithm& algorithm);
  ~ForcedAlgorithm();
  ForcedAlgorithm(const ForcedAlgorithm&) = delete;
  ForcedAlgorithm& operator=(const ForcedAlgorithm&) = delete;

  MPI_Comm comm() const noexcept { return comm_; }
  void engage();
  void release();

  // Collective: runs `call` once on a throwaway communicator with the algorithm forced and MPI errors
  // returned. Returns the library's reason when it refuses the algorithm for the call's arguments.
  template <typename Call>
  std::optional<std::string> refusal(Call&& call) {
    const MPI_Comm probe = open_probe();
    engage();
    const int result = call(probe);
    release();
    return probe_outcome(probe, result);
  }

private:
  struct Control;  // the library's control variables, see native_algorithm.cpp
  MPI_Comm probe_comm();  // a communicator with the algorithm forced while engaged
  MPI_Comm open_probe();  // the same, MPI errors returned
  std::optional<std::string> probe_outcome(MPI_Comm probe, int result);

  MPI_Comm base_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::unique_ptr<Control> control_;
};

}  // namespace dash::bench
