#include <string>

#include <mpi.h>

#if DASH_HAVE_HWLOC
#include <hwloc.h>
#endif

#include <dash/comm/config.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/runtime.hpp>

namespace dash::comm {

namespace {

struct State {
  Locality place;
  bool hardware_known = false;
};

State& state() {
  static State current;
  return current;
}

#if DASH_HAVE_HWLOC
// The NUMA domain and core holding the first processing unit of the process's binding.
void detect_hardware(Locality& place) {
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0) {
    place.hardware_source = "placeholder: hwloc_topology_init failed";
    return;
  }
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    place.hardware_source = "placeholder: hwloc_topology_load failed";
    return;
  }
  hwloc_bitmap_t binding = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, binding, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(binding)) {
    hwloc_bitmap_copy(binding, hwloc_topology_get_allowed_cpuset(topology));
  }
  const int first = hwloc_bitmap_first(binding);
  hwloc_bitmap_free(binding);
  hwloc_obj_t unit = first < 0 ? nullptr : hwloc_get_pu_obj_by_os_index(topology, static_cast<unsigned>(first));
  if (unit == nullptr) {
    hwloc_topology_destroy(topology);
    place.hardware_source = "placeholder: the binding names no processing unit hwloc knows";
    return;
  }
  const hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_CORE, unit);
  place.core = static_cast<int>(core != nullptr ? core->logical_index : unit->logical_index);
  const hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_PACKAGE, unit);
  place.package = package != nullptr ? static_cast<int>(package->logical_index) : 0;
  place.numa_domain = 0;
  const int domains = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
  for (int index = 0; index < domains; ++index) {
    const hwloc_obj_t domain = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(index));
    if (domain != nullptr && hwloc_bitmap_isset(domain->cpuset, static_cast<unsigned>(first))) {
      place.numa_domain = static_cast<int>(domain->logical_index);
      break;
    }
  }
  hwloc_topology_destroy(topology);
  place.hardware_source = "hwloc";
}
#else
void detect_hardware(Locality& place) { place.hardware_source = "placeholder: dash was built without hwloc"; }
#endif

}  // namespace

namespace detail {

void detect_nodes() {
  const MPI_Comm base = base_comm();
  int rank = 0;
  check_mpi(MPI_Comm_rank(base, &rank), "dash::init: MPI_Comm_rank");
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(base, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
            "dash::init: MPI_Comm_split_type");
  if (const int emulated = config().emulated_node_size; emulated > 0) {
    int shared_rank = 0;
    MPI_Comm_rank(node, &shared_rank);
    MPI_Comm part = MPI_COMM_NULL;
    const int code = MPI_Comm_split(node, shared_rank / emulated, shared_rank, &part);
    MPI_Comm_free(&node);
    check_mpi(code, "dash::init: MPI_Comm_split (DASH_NODE_SIZE)");
    node = part;
  }
  Locality place;
  MPI_Comm_rank(node, &place.node_rank);
  MPI_Comm_size(node, &place.node_size);
  // Nodes are numbered by their leaders (node rank 0, the lowest base rank there) in base-rank
  // order: a leader's node index is the number of leaders before it, which it tells its node.
  const int leads = place.node_rank == 0 ? 1 : 0;
  int leaders_before = 0;
  int code = MPI_Allreduce(&leads, &place.node_count, 1, MPI_INT, MPI_SUM, base);
  if (code == MPI_SUCCESS) {
    code = MPI_Exscan(&leads, &leaders_before, 1, MPI_INT, MPI_SUM, base);
  }
  place.node = rank == 0 ? 0 : leaders_before;  // MPI_Exscan leaves rank 0's result undefined
  if (code == MPI_SUCCESS) {
    code = MPI_Bcast(&place.node, 1, MPI_INT, 0, node);
  }
  MPI_Comm_free(&node);
  check_mpi(code, "dash::init: detecting nodes");
  state() = State{place, false};
  // The same rule as Topology's, here so that a grid that fits the job neither way fails at init
  // rather than leave every collective on the flat network without a word.
  const Network& network = config().network;
  int ranks = 0;
  MPI_Comm_size(base, &ranks);
  if (network.kind == NetworkKind::grid && network.grid_nodes() != place.node_count && network.grid_nodes() != ranks) {
    throw invalid_argument("dash::init", "DASH_TOPOLOGY", to_string(network),
                           "a grid of as many nodes as the job has (" + std::to_string(place.node_count) +
                               ") or of one virtual node per rank (" + std::to_string(ranks) + ")");
  }
}

}  // namespace detail

const Locality& locality() {
  static_cast<void>(base_comm());  // throws dash::InvalidState outside init/finalize
  State& current = state();
  if (!current.hardware_known) {
    detect_hardware(current.place);
    current.hardware_known = true;
  }
  return current.place;
}

}  // namespace dash::comm
