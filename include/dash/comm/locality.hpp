#pragma once
// Where the calling process runs: its node (detected with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
// at dash::init) and, from hwloc, the package, NUMA domain and core its CPU binding starts on.
//
// A process bound to several cores or domains (or not bound at all) is counted in the domain and
// core of the first processing unit of its binding, so that every process has exactly one place.
// Without hwloc (or when it fails) every process is in NUMA domain 0 and core 0 of its node, and
// `hardware_source` says why.

#include <string>

namespace dash::comm {

struct Locality {
  int node = 0;        // dense index of the node, ordered by the lowest base rank on each node
  int node_count = 1;  // nodes in the job
  int node_rank = 0;   // rank among the processes of the node, by base rank
  int node_size = 1;   // processes on the node
  int package = 0;      // hwloc logical index of the package (socket) on the node
  int numa_domain = 0;  // hwloc logical index of the NUMA domain on the node
  int core = 0;         // hwloc logical index of the core on the node
  std::string hardware_source;  // "hwloc" or why the NUMA domain and core are placeholders
};

// The calling process's place; detected by dash::init (node part, collective there) and on first
// call (hwloc part, local). Throws dash::InvalidState outside init/finalize.
const Locality& locality();

namespace detail {
// Called by dash::init: collective over the base communicator.
void detect_nodes();
}  // namespace detail

}  // namespace dash::comm
