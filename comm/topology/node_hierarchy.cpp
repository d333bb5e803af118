#include <array>
#include <memory>

#include <mpi.h>

#include <dash/comm/config.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/runtime.hpp>

#include "arena/collective_arena.hpp"
#include "topology/node_hierarchy.hpp"

namespace dash::comm::detail {

namespace {

// Rail r of nodes of k processes: base ranks r, k + r, 2k + r, ...
class RailMap final : public RankMap {
public:
  RailMap(int node_size, int node_rank) : node_size_(node_size), node_rank_(node_rank) {}
  int to_base(int group_rank) const override { return group_rank * node_size_ + node_rank_; }

private:
  int node_size_;
  int node_rank_;
};

std::unique_ptr<NodeHierarchy>& current() {
  static std::unique_ptr<NodeHierarchy> hierarchy;
  return hierarchy;
}

}  // namespace

const NodeHierarchy& node_hierarchy() {
  static const NodeHierarchy outside_init;
  return current() ? *current() : outside_init;
}

bool is_rail(const Group& group) noexcept {
  // Only the rails use the internal tag space (Group::internal_tag_space), and a process belongs to one rail.
  const std::optional<Group>& rail = node_hierarchy().rail;
  return rail && group.tags().first == rail->tags().first && group.size() == rail->size();
}

std::string_view world_hierarchy_unfit() {
  if (!config().shared_memory_access) {
    return "it needs shared memory, which DASH_SHARED_MEMORY=0 turned off";
  }
  if (config().progress_thread) {
    return "the progress thread (DASH_PROGRESS_THREAD=1) does not drive arena collectives";
  }
  const NodeHierarchy& hierarchy = node_hierarchy();
  if (hierarchy.nodes < 2) {
    return "it needs a job on several nodes (DASH_NODE_SIZE emulates them on one machine)";
  }
  if (!hierarchy.regular || !hierarchy.rail || collective_arena() == nullptr) {
    return "it needs nodes of one size holding consecutive ranks";
  }
  return {};
}

void open_node_hierarchy() {
  const Locality& place = locality();
  auto hierarchy = std::make_unique<NodeHierarchy>();
  hierarchy->nodes = place.node_count;
  hierarchy->node = place.node;
  hierarchy->node_rank = place.node_rank;
  hierarchy->node_size = place.node_size;
  int rank = 0;
  check_mpi(MPI_Comm_rank(base_comm(), &rank), "dash::init: MPI_Comm_rank");
  // Regular exactly when every process sees the smallest and the largest node size alike and
  // sits at node * size + node rank.
  const int consecutive = rank == place.node * place.node_size + place.node_rank ? 1 : 0;
  std::array<int, 3> local{place.node_size, -place.node_size, consecutive};
  std::array<int, 3> least{};
  check_mpi(MPI_Allreduce(local.data(), least.data(), 3, MPI_INT, MPI_MIN, base_comm()),
            "dash::init: MPI_Allreduce (node hierarchy)");
  hierarchy->regular = least[0] == -least[1] && least[2] == 1;
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(base_comm(), place.node, rank, &node), "dash::init: MPI_Comm_split (node hierarchy)");
  hierarchy->node_members.resize(static_cast<std::size_t>(place.node_size));
  const int gathered = MPI_Allgather(&rank, 1, MPI_INT, hierarchy->node_members.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
  check_mpi(gathered, "dash::init: MPI_Allgather (node hierarchy)");
  if (hierarchy->regular && hierarchy->nodes > 1) {
    hierarchy->rail.emplace(place.node_count, place.node,
                            std::make_shared<RailMap>(place.node_size, place.node_rank), Group::internal_tag_space());
  }
  current() = std::move(hierarchy);
}

void close_node_hierarchy() noexcept { current().reset(); }

}  // namespace dash::comm::detail
