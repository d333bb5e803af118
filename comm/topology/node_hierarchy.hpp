#pragma once
// Internal: the job's nodes as the hierarchical collectives see them (docs/collectives.md
// "Hierarchical collectives"). A regular job has nodes of one size k, node n holding the base
// ranks [n k, (n + 1) k): the placement of mpiexec's default by-slot mapping. Its rail r is the
// group of the processes of node rank r, one per node in node order; the inter-node stage of a
// hierarchical collective of the world group runs on the caller's rail, in a tag space of the
// rails' own. Teams have hierarchies of their own (groups/group_paths.hpp).

#include <optional>
#include <string_view>
#include <vector>

#include <dash/comm/group.hpp>

namespace dash::comm::detail {

struct NodeHierarchy {
  int nodes = 1;
  int node = 0;
  int node_rank = 0;
  int node_size = 1;
  // Nodes of one size holding consecutive base ranks.
  bool regular = true;
  // The caller's rail; set when the job is regular and has more than one node.
  std::optional<Group> rail;
  // The base ranks of the caller's node's processes, in node rank order (a team finds its members
  // on the node among them).
  std::vector<int> node_members;
};

// The hierarchy of the running library (dash::init builds it after the nodes are known).
const NodeHierarchy& node_hierarchy();

// Whether `group` is the caller's rail (one process per node, in node order).
bool is_rail(const Group& group) noexcept;

// Why a collective of the world group cannot run hierarchically (empty when it can): it needs a
// regular job on several nodes, each with its collective arena.
std::string_view world_hierarchy_unfit();

// Called by dash::init (collective over the base communicator) and dash::finalize.
void open_node_hierarchy();
void close_node_hierarchy() noexcept;

}  // namespace dash::comm::detail
