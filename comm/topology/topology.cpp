#include <dash/comm/topology.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <sstream>
#include <string>

#include <mpi.h>

#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/runtime.hpp>

namespace dash::comm {

namespace {

// The position of a grid node along the boustrophedon path: each dimension's digit runs backwards
// whenever the position reached in the dimensions before it is odd, so consecutive positions
// differ by one step in one dimension.
long long path_position(const std::vector<int>& coordinates, const std::vector<int>& dims) {
  long long position = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const int digit = position % 2 == 1 ? dims[d] - 1 - coordinates[d] : coordinates[d];
    position = position * dims[d] + digit;
  }
  return position;
}

// A grid node's coordinates (the last dimension varies fastest).
std::vector<int> grid_coordinates(const std::vector<int>& dims, int node) {
  std::vector<int> coordinates(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    coordinates[d] = node % dims[d];
    node /= dims[d];
  }
  return coordinates;
}

std::string rank_list(const std::vector<int>& ranks) {
  std::ostringstream out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) {
      ++j;
    }
    out << (i == 0 ? "" : ",") << ranks[i];
    if (j > i) {
      out << "-" << ranks[j];
    }
    i = j;
  }
  return out.str();
}

}  // namespace

Topology Topology::detect() { return detect(config().network); }

Topology Topology::detect(const Network& network) {
  const Locality& here = locality();
  const std::array<int, 4> mine{here.node, here.package, here.numa_domain, here.core};
  int size = 0;
  check_mpi(MPI_Comm_size(base_comm(), &size), "dash::comm::Topology::detect: MPI_Comm_size");
  std::vector<int> all(4 * static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(mine.data(), 4, MPI_INT, all.data(), 4, MPI_INT, base_comm()),
            "dash::comm::Topology::detect: MPI_Allgather");
  std::vector<RankPlace> places(static_cast<std::size_t>(size));
  for (std::size_t rank = 0; rank < places.size(); ++rank) {
    places[rank] = RankPlace{all[4 * rank], all[4 * rank + 1], all[4 * rank + 2], all[4 * rank + 3]};
  }
  return Topology(std::move(places), network);
}

Topology::Topology(std::vector<RankPlace> places, Network network)
    : places_(std::move(places)), network_(std::move(network)) {
  constexpr const char* function = "dash::comm::Topology";
  std::set<int> seen;
  for (const RankPlace& place : places_) {
    seen.insert(place.node);
  }
  nodes_ = static_cast<int>(seen.size());
  if (!seen.empty() && (*seen.begin() != 0 || *seen.rbegin() != nodes_ - 1)) {
    throw invalid_argument(function, "places", "nodes " + std::to_string(*seen.begin()) + " .. " +
                                                   std::to_string(*seen.rbegin()) + " (" + std::to_string(nodes_) +
                                                   " distinct)",
                           "node indices 0 .. n - 1, each used");
  }
  if (network_.kind == NetworkKind::grid) {
    const int grid = network_.grid_nodes();
    if (grid != nodes_) {
      if (grid != ranks()) {
        throw invalid_argument(function, "network", to_string(network_),
                               "a grid of as many nodes as the job has (" + std::to_string(nodes_) +
                                   ") or of one virtual node per rank (" + std::to_string(ranks()) + ")");
      }
      virtual_nodes_ = true;
      nodes_ = ranks();
      for (std::size_t rank = 0; rank < places_.size(); ++rank) {
        places_[rank].node = static_cast<int>(rank);
      }
    }
  }
}

const RankPlace& Topology::place(int rank) const {
  if (rank < 0 || rank >= ranks()) {
    throw out_of_range("dash::comm::Topology::place", "rank", rank, "[0, " + std::to_string(ranks()) + ")");
  }
  return places_[static_cast<std::size_t>(rank)];
}

void Topology::check_node(const char* function, int node) const {
  if (node < 0 || node >= nodes_) {
    throw out_of_range(function, "node", node, "[0, " + std::to_string(nodes_) + ")");
  }
}

std::vector<int> Topology::ranks_on_node(int node) const {
  check_node("dash::comm::Topology::ranks_on_node", node);
  std::vector<int> ranks;
  for (int rank = 0; rank < this->ranks(); ++rank) {
    if (places_[static_cast<std::size_t>(rank)].node == node) {
      ranks.push_back(rank);
    }
  }
  return ranks;
}

std::vector<int> Topology::node_coordinates(int node) const {
  check_node("dash::comm::Topology::node_coordinates", node);
  if (network_.kind != NetworkKind::grid) {
    return {};
  }
  return grid_coordinates(network_.dims, node);
}

int Topology::leaf(int node) const {
  check_node("dash::comm::Topology::leaf", node);
  return network_.kind == NetworkKind::clos ? node / network_.nodes_per_leaf : 0;
}

TopologyView Topology::view(std::span<const int> group) const {
  std::set<int> covered;
  std::set<int> members;
  for (const int rank : group) {
    covered.insert(place(rank).node);
    if (!members.insert(rank).second) {
      throw invalid_argument("dash::comm::Topology::view", "group", rank, "distinct ranks (this one is listed twice)");
    }
  }
  const std::vector<int> nodes(covered.begin(), covered.end());
  return network_view(network_, nodes);
}

TopologyView network_view(const Network& network, std::span<const int> nodes) {
  const std::set<int> covered(nodes.begin(), nodes.end());
  TopologyView view;
  view.nodes.assign(covered.begin(), covered.end());
  if (view.nodes.size() <= 1) {
    return view;  // one node (or none): flat
  }
  if (network.kind == NetworkKind::flat) {
    return view;
  }
  if (network.kind == NetworkKind::clos) {
    // Nodes are numbered leaf by leaf, so ascending order already groups them by leaf.
    view.network = network;
    return view;
  }
  // Grid: a box if the covered coordinates of each dimension form an interval and all their
  // combinations are covered.
  const std::size_t dims = network.dims.size();
  std::vector<std::set<int>> used(dims);
  for (const int node : view.nodes) {
    const auto coordinates = grid_coordinates(network.dims, node);
    for (std::size_t d = 0; d < dims; ++d) {
      used[d].insert(coordinates[d]);
    }
  }
  std::size_t box = 1;
  bool intervals = true;
  for (std::size_t d = 0; d < dims; ++d) {
    box *= used[d].size();
    intervals = intervals && *used[d].rbegin() - *used[d].begin() + 1 == static_cast<int>(used[d].size());
  }
  view.network.kind = NetworkKind::grid;
  view.network.routing = network.routing;
  if (intervals && box == view.nodes.size()) {
    for (std::size_t d = 0; d < dims; ++d) {
      const int extent = static_cast<int>(used[d].size());
      if (extent > 1) {
        view.network.dims.push_back(extent);
        view.network.wrap.push_back(network.wrap[d] && extent == network.dims[d]);
      }
    }
    return view;  // ascending node order is row-major over the box
  }
  std::sort(view.nodes.begin(), view.nodes.end(), [&](int a, int b) {
    return path_position(grid_coordinates(network.dims, a), network.dims) <
           path_position(grid_coordinates(network.dims, b), network.dims);
  });
  view.network.dims = {static_cast<int>(view.nodes.size())};
  view.network.wrap = {false};
  view.path_order = true;
  return view;
}

std::string Topology::describe() const {
  std::ostringstream out;
  out << ranks() << (ranks() == 1 ? " rank" : " ranks") << " on " << nodes_ << (nodes_ == 1 ? " node" : " nodes")
      << (virtual_nodes_ ? " (virtual: one per rank)" : "") << "; network " << to_string(network_) << "\n";
  for (int node = 0; node < nodes_; ++node) {
    out << "node " << node;
    const auto coordinates = node_coordinates(node);
    if (!coordinates.empty()) {
      out << " at (";
      for (std::size_t d = 0; d < coordinates.size(); ++d) {
        out << (d == 0 ? "" : ", ") << coordinates[d];
      }
      out << ")";
    }
    if (network_.kind == NetworkKind::clos) {
      out << " on leaf " << leaf(node);
    }
    out << ": ranks " << rank_list(ranks_on_node(node)) << "\n";
  }
  for (int rank = 0; rank < ranks(); ++rank) {
    const RankPlace& where = places_[static_cast<std::size_t>(rank)];
    out << "rank " << rank << ": node " << where.node << ", package " << where.package << ", NUMA domain "
        << where.numa_domain << ", core " << where.core << "\n";
  }
  return out.str();
}

}  // namespace dash::comm
