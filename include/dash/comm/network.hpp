#pragma once
// The network between the nodes of a job, as a descriptor gives it (docs/design.md §2 "Topology is
// detected, not assumed"): MPI cannot tell a torus from a fat tree, so the shape is stated by
// DASH_TOPOLOGY, by the API, or by an SMPI platform.
//
//   flat                       every node one hop from every other (a single switch)
//   torus:8x8x8                a grid of nodes with wrap-around links in every dimension
//   mesh:4x2                   a grid without wrap-around
//   torus:8x8x8,routing=deterministic
//                              a grid whose messages keep fixed dimension-ordered paths (GridRouting
//                              below; any grid form takes the suffix, adaptive is the default)
//   clos:T=16,mu=0.25          a two-level fat tree: T nodes per leaf switch, leaf uplink capacity
//                              mu times the leaf's injection bandwidth (mu = 1: full bisection)
//
// Grid nodes are numbered row-major over the dimensions (the last varies fastest), as
// MPI_Cart_create numbers ranks; Clos nodes fill leaf 0 first, then leaf 1, and so on.

#include <string>
#include <string_view>
#include <vector>

namespace dash::comm {

enum class NetworkKind { flat, grid, clos };

// How messages cross a grid (network_cost.hpp says how each is priced).
enum class GridRouting {
  adaptive,       // Sack 2011's BG/P: half rings split over both ways, permutations at the bisection bound
  deterministic,  // fixed dimension-ordered paths (SimGrid's torus): half rings one way, every stage as routed
};

struct Network {
  NetworkKind kind = NetworkKind::flat;
  std::vector<int> dims;   // grid: nodes per dimension
  std::vector<bool> wrap;  // grid: wrap-around links per dimension (all for a torus, none for a mesh)
  GridRouting routing = GridRouting::adaptive;  // grid only
  int nodes_per_leaf = 0;  // clos: T
  double bisection = 1.0;  // clos: mu, in (0, 1]

  // Grid: the product of the dimensions; 0 for flat and Clos (any number of nodes).
  int grid_nodes() const noexcept;

  friend bool operator==(const Network&, const Network&) = default;
};

// Parses a descriptor (forms above; no spaces). Throws dash::InvalidArgument that names `source`
// (e.g. "environment variable DASH_TOPOLOGY"), the text and the accepted forms.
Network parse_network(std::string_view text, std::string_view source = "dash::comm::parse_network");

// The descriptor of a network: "flat", "torus:AxB", "mesh:AxB", "clos:T=16,mu=0.25"; a grid that
// wraps around in some dimensions only (a sub-block of a torus) prints as
// "grid:AxB,wrap=10" (one digit per dimension), which parse_network accepts as well. Grids with
// deterministic routing end in ",routing=deterministic".
std::string to_string(const Network& network);

}  // namespace dash::comm
