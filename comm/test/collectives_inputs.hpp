#pragma once
// What the tests of every collective against MPI share (collectives_test.cpp, collectives_errors_test.cpp):
// the value types and inputs (Matrix with its MPI operation, int, minloc), which algorithms fit
// this run (topology, emulated nodes) and forced options.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

namespace dash::testing::collectives {

using dash::comm::Coll;
using dash::comm::Options;

inline int P() { return static_cast<int>(dash::size()); }
inline int me() { return dash::myid(); }
inline MPI_Comm world() { return dash::comm::base_comm(); }

// 2x2 matrices of unsigned 32-bit integers: their product (mod 2^32) is associative and not
// commutative.
struct Matrix {
  std::uint32_t a, b, c, d;
  friend bool operator==(const Matrix&, const Matrix&) = default;
};

inline Matrix multiply(const Matrix& x, const Matrix& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}

inline void mpi_matrix_product(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Matrix*>(in);
  auto* y = static_cast<Matrix*>(inout);
  for (int i = 0; i < *len; ++i) {
    y[i] = multiply(x[i], y[i]);  // MPI: inout = in ∘ inout, with in from lower ranks
  }
}

inline std::vector<std::size_t> counts() {
  const auto p = static_cast<std::size_t>(P());
  return {0, 1, p - 1, p + 1, 7, 1000};
}

inline std::vector<int> int_input(std::size_t n, int rank) {
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = (rank + 1) * 1000 + static_cast<int>(i % 977) - 300;
  }
  return values;
}

inline std::vector<Matrix> matrix_input(std::size_t n, int rank) {
  std::vector<Matrix> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::uint32_t>(rank);
    const auto k = static_cast<std::uint32_t>(i);
    values[i] = {r + 1, k + 2, r * 3 + k, 5 + r * k};
  }
  return values;
}

inline std::vector<dash::ValueIndex<double, int>> minloc_input(std::size_t n, int rank) {
  std::vector<dash::ValueIndex<double, int>> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Ties across ranks on every third element: the lowest index must win.
    const double value = i % 3 == 0 ? 1.5 : static_cast<double>((rank * 7 + static_cast<int>(i)) % 5);
    values[i] = {value, rank};
  }
  return values;
}

struct Matrices {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op product = MPI_OP_NULL;
  Matrices() {
    MPI_Type_contiguous(4, MPI_UINT32_T, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(&mpi_matrix_product, 0, &product);
  }
  ~Matrices() {
    MPI_Op_free(&product);
    MPI_Type_free(&type);
  }
};

inline const dash::comm::UserOp<Matrix (*)(const Matrix&, const Matrix&), false> matrix_product =
    dash::comm::non_commutative(&multiply);

// DASH_TOPOLOGY names a grid whose nodes are this job's ranks (the tests run on one machine).
inline bool ranks_form_grid() {
  const dash::comm::Network& network = dash::comm::config().network;
  return network.kind == dash::comm::NetworkKind::grid && network.grid_nodes() == P();
}

// The ranks stand for the nodes of DASH_TOPOLOGY's network: a grid of P nodes, or a Clos network.
inline bool ranks_are_nodes() {
  return ranks_form_grid() || dash::comm::config().network.kind == dash::comm::NetworkKind::clos;
}

inline bool topology_algorithm_fits(std::string_view algorithm, bool commutative, bool power_of_two) {
  const dash::comm::Network& network = dash::comm::config().network;
  if (!commutative) {
    return false;
  }
  if (algorithm == "distance_halving") {
    return power_of_two;
  }
  if (!ranks_form_grid()) {
    return false;
  }
  if (algorithm == "torus_order") {
    return std::all_of(network.dims.begin(), network.dims.end(), [](int d) { return (d & (d - 1)) == 0; });
  }
  if (algorithm == "bucket_6way") {
    return std::all_of(network.wrap.begin(), network.wrap.end(), [](bool w) { return w; });
  }
  return true;  // bucket, bucket_3way
}

// DASH_NODE_SIZE=k (the runs registered for it use a multiple of k ranks) cuts the machine into
// regular nodes of k ranks.
inline bool several_nodes() { return dash::comm::locality().node_count > 1; }

inline bool fits(Coll collective, std::string_view algorithm, bool commutative) {
  const bool power_of_two = (P() & (P() - 1)) == 0;
  const bool arena = dash::comm::config().shared_memory_access && !ranks_are_nodes();
  if (algorithm.starts_with("shared_memory")) {
    // The world group of one node, unless the ranks stand for a network's nodes.
    return arena && !several_nodes();
  }
  if (algorithm == "hierarchical") {
    return arena && several_nodes() && (commutative || (collective != Coll::allreduce && collective != Coll::reduce));
  }
  if (algorithm == "distance_halving" || algorithm == "torus_order" || algorithm.starts_with("bucket")) {
    return topology_algorithm_fits(algorithm, commutative, power_of_two);
  }
  if (algorithm.ends_with("_noncanonical")) {
    return false;  // these calls ask for canonical placement
  }
  if (algorithm == "hypercube_xor") {
    return power_of_two;
  }
  if (algorithm == "neighbor_exchange") {
    return P() % 2 == 0;
  }
  if (algorithm == "ring" && (collective == Coll::allreduce || collective == Coll::reduce_scatter)) {
    return commutative;
  }
  return true;
}

inline std::string label(std::string_view algorithm, std::size_t n, int root = -1) {
  return std::string(algorithm) + " n=" + std::to_string(n) + (root >= 0 ? " root=" + std::to_string(root) : "");
}

inline Options forced(std::string_view algorithm) {
  Options options;
  options.algorithm = std::string(algorithm);
  return options;
}


}  // namespace dash::testing::collectives
