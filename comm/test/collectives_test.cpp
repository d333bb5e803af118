// Every algorithm of every collective against the MPI library's own result: counts 0, 1, p - 1,
// p + 1, an odd count and a large one; every root; int, double and a struct; a non-commutative
// operation (2x2 matrix product modulo 2^32) and minloc.
//
// Map: the value types and inputs (Matrix with its MPI operation, int, minloc); which algorithms fit
// here (topology, emulated nodes) and forced options; then per collective against MPI: allreduce
// (also floating sums, in place), reduce, allgather, reduce_scatter_block, alltoall, allgatherv,
// alltoallv (and disagreeing counts), arrival-order placement, bcast, gather and scatter, scan and
// exscan, barrier; errors; one-member groups; the cost model's choice and explain(); arguments
// that differ between ranks.

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::comm::Coll;
using dash::testing::mentions;
using dash::testing::thrown_message;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
MPI_Comm world() { return dash::comm::base_comm(); }

// 2x2 matrices of unsigned 32-bit integers: their product (mod 2^32) is associative and not
// commutative.
struct Matrix {
  std::uint32_t a, b, c, d;
  friend bool operator==(const Matrix&, const Matrix&) = default;
};

Matrix multiply(const Matrix& x, const Matrix& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}

void mpi_matrix_product(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Matrix*>(in);
  auto* y = static_cast<Matrix*>(inout);
  for (int i = 0; i < *len; ++i) {
    y[i] = multiply(x[i], y[i]);  // MPI: inout = in ∘ inout, with in from lower ranks
  }
}

std::vector<std::size_t> counts() {
  const auto p = static_cast<std::size_t>(P());
  return {0, 1, p - 1, p + 1, 7, 1000};
}

std::vector<int> int_input(std::size_t n, int rank) {
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = (rank + 1) * 1000 + static_cast<int>(i % 977) - 300;
  }
  return values;
}

std::vector<Matrix> matrix_input(std::size_t n, int rank) {
  std::vector<Matrix> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::uint32_t>(rank);
    const auto k = static_cast<std::uint32_t>(i);
    values[i] = {r + 1, k + 2, r * 3 + k, 5 + r * k};
  }
  return values;
}

std::vector<dash::ValueIndex<double, int>> minloc_input(std::size_t n, int rank) {
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

const dash::comm::UserOp<Matrix (*)(const Matrix&, const Matrix&), false> matrix_product =
    dash::comm::non_commutative(&multiply);

// DASH_TOPOLOGY names a grid whose nodes are this job's ranks (the tests run on one machine).
bool ranks_form_grid() {
  const dash::comm::Network& network = dash::comm::config().network;
  return network.kind == dash::comm::NetworkKind::grid && network.grid_nodes() == P();
}

// The ranks stand for the nodes of DASH_TOPOLOGY's network: a grid of P nodes, or a Clos network.
bool ranks_are_nodes() {
  return ranks_form_grid() || dash::comm::config().network.kind == dash::comm::NetworkKind::clos;
}

bool topology_algorithm_fits(std::string_view algorithm, bool commutative, bool power_of_two) {
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
bool several_nodes() { return dash::comm::locality().node_count > 1; }

bool fits(Coll collective, std::string_view algorithm, bool commutative) {
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

std::string label(std::string_view algorithm, std::size_t n, int root = -1) {
  return std::string(algorithm) + " n=" + std::to_string(n) + (root >= 0 ? " root=" + std::to_string(root) : "");
}

Options forced(std::string_view algorithm) {
  Options options;
  options.algorithm = std::string(algorithm);
  return options;
}

TEST(Collectives, AllreduceMatchesMpi) {
  const Matrices matrices;
  for (const auto algorithm : dash::comm::algorithms(Coll::allreduce)) {
    for (const std::size_t n : counts()) {
      SCOPED_TRACE(label(algorithm, n));
      const std::vector<int> in = int_input(n, me());
      std::vector<int> ours(n, -1);
      std::vector<int> theirs(n, -2);
      if (fits(Coll::allreduce, algorithm, true)) {
        dash::comm::allreduce(in, ours, dash::plus{}, Group::world(), forced(algorithm));
        MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(n), MPI_INT, MPI_SUM, world());
        EXPECT_EQ(ours, theirs);
      }
      const std::vector<Matrix> min = matrix_input(n, me());
      std::vector<Matrix> mours(n);
      std::vector<Matrix> mtheirs(n);
      if (fits(Coll::allreduce, algorithm, false)) {
        dash::comm::allreduce(min, mours, matrix_product, Group::world(), forced(algorithm));
        MPI_Allreduce(min.data(), mtheirs.data(), static_cast<int>(n), matrices.type, matrices.product, world());
        EXPECT_EQ(mours, mtheirs);
      } else {
        EXPECT_THROW(dash::comm::allreduce(min, mours, matrix_product, Group::world(), forced(algorithm)),
                     dash::InvalidArgument);
      }
      if (!fits(Coll::allreduce, algorithm, true)) {
        continue;
      }
      const auto lin = minloc_input(n, me());
      std::vector<dash::ValueIndex<double, int>> lours(n);
      std::vector<dash::ValueIndex<double, int>> ltheirs(n);
      dash::comm::allreduce(lin, lours, dash::minloc{}, Group::world(), forced(algorithm));
      MPI_Allreduce(lin.data(), ltheirs.data(), static_cast<int>(n), MPI_DOUBLE_INT, MPI_MINLOC, world());
      EXPECT_EQ(lours, ltheirs);
    }
  }
}

// Floating-point sums: algorithms combine in different orders (the reordered ones by design,
// docs/design.md §2), so results agree with MPI's within rounding: |ours - theirs| <= p·ε·Σ|x|.
TEST(Collectives, FloatingSumsAgreeWithinRounding) {
  const std::size_t n = 3 * static_cast<std::size_t>(P()) + 5;
  std::vector<double> in(n * static_cast<std::size_t>(P()));
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = std::sin(static_cast<double>(i * 7 + static_cast<std::size_t>(me()) * 13)) * 1e3;
  }
  std::vector<double> magnitude(in.size());
  std::transform(in.begin(), in.end(), magnitude.begin(), [](double x) { return std::abs(x); });
  std::vector<double> bound(in.size());
  MPI_Allreduce(magnitude.data(), bound.data(), static_cast<int>(in.size()), MPI_DOUBLE, MPI_SUM, world());
  const double slack = 4.0 * P() * std::numeric_limits<double>::epsilon();
  std::vector<double> theirs(in.size());
  MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(in.size()), MPI_DOUBLE, MPI_SUM, world());
  for (const auto algorithm : dash::comm::algorithms(Coll::allreduce)) {
    if (!fits(Coll::allreduce, algorithm, true)) {
      continue;
    }
    SCOPED_TRACE(std::string(algorithm));
    std::vector<double> ours(in.size());
    dash::comm::allreduce(in, ours, dash::plus{}, Group::world(), forced(algorithm));
    for (std::size_t i = 0; i < in.size(); ++i) {
      EXPECT_LE(std::abs(ours[i] - theirs[i]), slack * bound[i]) << "element " << i;
    }
  }
  std::vector<double> block_theirs(n);
  MPI_Reduce_scatter_block(in.data(), block_theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, world());
  const auto first = static_cast<std::size_t>(me()) * n;
  for (const auto algorithm : dash::comm::algorithms(Coll::reduce_scatter)) {
    if (!fits(Coll::reduce_scatter, algorithm, true)) {
      continue;
    }
    SCOPED_TRACE(std::string(algorithm));
    std::vector<double> ours(n);
    dash::comm::reduce_scatter_block(in, ours, dash::plus{}, Group::world(), forced(algorithm));
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_LE(std::abs(ours[i] - block_theirs[i]), slack * bound[first + i]) << "element " << i;
    }
  }
}

TEST(Collectives, AllreduceInPlaceAndLarge) {
  const std::size_t n = std::size_t{1} << 17;  // 1 MiB of doubles
  std::vector<double> data(n);
  for (std::size_t i = 0; i < n; ++i) {
    data[i] = static_cast<double>(me()) + static_cast<double>(i % 1024);
  }
  std::vector<double> theirs(n);
  MPI_Allreduce(data.data(), theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX, world());
  dash::comm::allreduce(data, data, dash::max{});
  EXPECT_EQ(data, theirs);
}

TEST(Collectives, ReduceMatchesMpiForEveryRoot) {
  const Matrices matrices;
  for (const auto algorithm : dash::comm::algorithms(Coll::reduce)) {
    for (const std::size_t n : counts()) {
      for (int root = 0; root < P(); ++root) {
        SCOPED_TRACE(label(algorithm, n, root));
        const std::vector<int> in = int_input(n, me());
        std::vector<int> ours(me() == root ? n : 0, -1);
        std::vector<int> theirs(n, -2);
        if (!fits(Coll::reduce, algorithm, true)) {
          EXPECT_THROW(dash::comm::reduce(in, ours, dash::plus{}, root, Group::world(), forced(algorithm)),
                       dash::InvalidArgument);
          continue;
        }
        dash::comm::reduce(in, ours, dash::plus{}, root, Group::world(), forced(algorithm));
        MPI_Reduce(in.data(), theirs.data(), static_cast<int>(n), MPI_INT, MPI_SUM, root, world());
        if (me() == root) {
          EXPECT_EQ(ours, theirs);
        }
        const std::vector<Matrix> min = matrix_input(n, me());
        std::vector<Matrix> mours(me() == root ? n : 0);
        std::vector<Matrix> mtheirs(n);
        if (!fits(Coll::reduce, algorithm, false)) {
          EXPECT_THROW(dash::comm::reduce(min, mours, matrix_product, root, Group::world(), forced(algorithm)),
                       dash::InvalidArgument);
          continue;
        }
        dash::comm::reduce(min, mours, matrix_product, root, Group::world(), forced(algorithm));
        MPI_Reduce(min.data(), mtheirs.data(), static_cast<int>(n), matrices.type, matrices.product, root, world());
        if (me() == root) {
          EXPECT_EQ(mours, mtheirs);
        }
      }
    }
  }
}

TEST(Collectives, AllgatherMatchesMpi) {
  for (const auto algorithm : dash::comm::algorithms(Coll::allgather)) {
    for (const std::size_t n : counts()) {
      SCOPED_TRACE(label(algorithm, n));
      const std::vector<int> in = int_input(n, me());
      std::vector<int> ours(n * static_cast<std::size_t>(P()), -1);
      std::vector<int> theirs(ours.size(), -2);
      if (!fits(Coll::allgather, algorithm, true)) {
        EXPECT_THROW(dash::comm::allgather(in, ours, Group::world(), forced(algorithm)), dash::InvalidArgument);
        continue;
      }
      dash::comm::allgather(in, ours, Group::world(), forced(algorithm));
      MPI_Allgather(in.data(), static_cast<int>(n), MPI_INT, theirs.data(), static_cast<int>(n), MPI_INT, world());
      EXPECT_EQ(ours, theirs);
    }
  }
}

TEST(Collectives, ReduceScatterBlockMatchesMpi) {
  const Matrices matrices;
  for (const auto algorithm : dash::comm::algorithms(Coll::reduce_scatter)) {
    for (const std::size_t n : counts()) {
      SCOPED_TRACE(label(algorithm, n));
      const std::vector<int> in = int_input(n * static_cast<std::size_t>(P()), me());
      std::vector<int> ours(n, -1);
      std::vector<int> theirs(n, -2);
      if (!fits(Coll::reduce_scatter, algorithm, true)) {
        EXPECT_THROW(dash::comm::reduce_scatter_block(in, ours, dash::plus{}, Group::world(), forced(algorithm)),
                     dash::InvalidArgument);
        continue;
      }
      dash::comm::reduce_scatter_block(in, ours, dash::plus{}, Group::world(), forced(algorithm));
      MPI_Reduce_scatter_block(in.data(), theirs.data(), static_cast<int>(n), MPI_INT, MPI_SUM, world());
      EXPECT_EQ(ours, theirs);
      const std::vector<Matrix> min = matrix_input(n * static_cast<std::size_t>(P()), me());
      std::vector<Matrix> mours(n);
      std::vector<Matrix> mtheirs(n);
      if (fits(Coll::reduce_scatter, algorithm, false)) {
        dash::comm::reduce_scatter_block(min, mours, matrix_product, Group::world(), forced(algorithm));
        MPI_Reduce_scatter_block(min.data(), mtheirs.data(), static_cast<int>(n), matrices.type, matrices.product,
                                 world());
        EXPECT_EQ(mours, mtheirs);
      } else {
        EXPECT_THROW(
            dash::comm::reduce_scatter_block(min, mours, matrix_product, Group::world(), forced(algorithm)),
            dash::InvalidArgument);
      }
    }
  }
}

TEST(Collectives, AlltoallMatchesMpi) {
  for (const auto algorithm : dash::comm::algorithms(Coll::alltoall)) {
    for (const std::size_t n : counts()) {
      SCOPED_TRACE(label(algorithm, n));
      const std::vector<int> in = int_input(n * static_cast<std::size_t>(P()), me());
      std::vector<int> ours(in.size(), -1);
      std::vector<int> theirs(in.size(), -2);
      if (!fits(Coll::alltoall, algorithm, true)) {
        EXPECT_THROW(dash::comm::alltoall(in, ours, Group::world(), forced(algorithm)), dash::InvalidArgument);
        continue;
      }
      dash::comm::alltoall(in, ours, Group::world(), forced(algorithm));
      MPI_Alltoall(in.data(), static_cast<int>(n), MPI_INT, theirs.data(), static_cast<int>(n), MPI_INT, world());
      EXPECT_EQ(ours, theirs);
    }
  }
}

// Variable sizes: counts differ per rank and include zeros.
std::size_t variable_count(int from, int to, std::size_t base) {
  return (static_cast<std::size_t>(from) * 3 + static_cast<std::size_t>(to) * 5 + base) % 7;
}

std::vector<int> displacements_of(const std::vector<int>& counts) {
  std::vector<int> displacements(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) {
    displacements[i] = displacements[i - 1] + counts[i - 1];
  }
  return displacements;
}

// Bruck rotates blocks through scratch space, when there is more than one rank.
bool stages_in_scratch(Coll collective, std::string_view algorithm) {
  return algorithm == "bruck" && (collective == Coll::alltoall || collective == Coll::allgather) && P() > 1;
}

TEST(Collectives, AllgathervMatchesMpi) {
  for (const std::size_t base : {0u, 1u, 4u}) {
    std::vector<std::size_t> counts(static_cast<std::size_t>(P()));
    std::vector<int> mpi_counts(counts.size());
    for (int r = 0; r < P(); ++r) {
      counts[static_cast<std::size_t>(r)] = variable_count(r, 0, base);
      mpi_counts[static_cast<std::size_t>(r)] = static_cast<int>(counts[static_cast<std::size_t>(r)]);
    }
    const std::vector<int> in = int_input(counts[static_cast<std::size_t>(me())], me());
    const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
    std::vector<int> theirs(total, -2);
    MPI_Allgatherv(in.data(), static_cast<int>(in.size()), MPI_INT, theirs.data(), mpi_counts.data(),
                   displacements_of(mpi_counts).data(), MPI_INT, world());
    for (const auto algorithm : dash::comm::algorithms(Coll::allgather)) {
      SCOPED_TRACE(label(algorithm, base));
      std::vector<int> ours(total, -1);
      if (!fits(Coll::allgather, algorithm, true) || stages_in_scratch(Coll::allgather, algorithm) ||
          algorithm.starts_with("shared_memory") || algorithm == "hierarchical" || algorithm == "distance_halving" ||
          algorithm == "torus_order" || algorithm.starts_with("bucket")) {  // these need contributions of one size
        EXPECT_THROW(dash::comm::allgatherv(in, ours, counts, Group::world(), forced(algorithm)),
                     dash::InvalidArgument);
        continue;
      }
      dash::comm::allgatherv(in, ours, counts, Group::world(), forced(algorithm));
      EXPECT_EQ(ours, theirs);
    }
    const dash::comm::Packed<int> packed = dash::comm::allgatherv(in);
    EXPECT_EQ(packed.counts, counts);
    EXPECT_EQ(packed.data, theirs);
  }
}

TEST(Collectives, AlltoallvMatchesMpi) {
  const auto p = static_cast<std::size_t>(P());
  for (const std::size_t base : {0u, 2u, 5u}) {
    std::vector<std::size_t> send(p);
    std::vector<std::size_t> receive(p);
    std::vector<int> mpi_send(p);
    std::vector<int> mpi_receive(p);
    for (int q = 0; q < P(); ++q) {
      const auto i = static_cast<std::size_t>(q);
      send[i] = variable_count(me(), q, base);
      receive[i] = variable_count(q, me(), base);
      mpi_send[i] = static_cast<int>(send[i]);
      mpi_receive[i] = static_cast<int>(receive[i]);
    }
    const std::vector<int> in = int_input(std::accumulate(send.begin(), send.end(), std::size_t{0}), me());
    std::vector<int> theirs(std::accumulate(receive.begin(), receive.end(), std::size_t{0}), -2);
    MPI_Alltoallv(in.data(), mpi_send.data(), displacements_of(mpi_send).data(), MPI_INT, theirs.data(),
                  mpi_receive.data(), displacements_of(mpi_receive).data(), MPI_INT, world());
    for (const auto algorithm : dash::comm::algorithms(Coll::alltoall)) {
      SCOPED_TRACE(label(algorithm, base));
      std::vector<int> ours(theirs.size(), -1);
      if (!fits(Coll::alltoall, algorithm, true) || stages_in_scratch(Coll::alltoall, algorithm) ||
          algorithm == "shared_memory") {  // the arena needs contributions of one size
        EXPECT_THROW(dash::comm::alltoallv(in, send, ours, receive, Group::world(), forced(algorithm)),
                     dash::InvalidArgument);
        continue;
      }
      dash::comm::alltoallv(in, send, ours, receive, Group::world(), forced(algorithm));
      EXPECT_EQ(ours, theirs);
    }
    const dash::comm::Packed<int> packed = dash::comm::alltoallv(in, send);
    EXPECT_EQ(packed.counts, receive);
    EXPECT_EQ(packed.data, theirs);
  }
}

// Counts that disagree between a sender and its receiver: MPI delivers a short message (and cuts a
// long one) without complaint. The receiver's call runs to its end, so no message is left
// unmatched, and throws; the others complete, and the group goes on.
TEST(Collectives, AlltoallvCountsThatDisagreeThrowOnTheReceiver) {
  const auto p = static_cast<std::size_t>(P());
  const int receiver = P() - 1;
  for (const bool longer : {false, true}) {
    for (const auto algorithm : dash::comm::algorithms(Coll::alltoall)) {
      if (!fits(Coll::alltoall, algorithm, true) || stages_in_scratch(Coll::alltoall, algorithm) ||
          algorithm == "shared_memory") {
        continue;  // AlltoallvMatchesMpi: these refuse alltoallv
      }
      SCOPED_TRACE(label(algorithm, longer ? 4 : 2));
      std::vector<std::size_t> send(p, 3);
      const std::vector<std::size_t> receive(p, 3);
      if (me() == 0) {
        send[static_cast<std::size_t>(receiver)] = longer ? 4 : 2;
      }
      const std::vector<int> in(std::accumulate(send.begin(), send.end(), std::size_t{0}), me());
      std::vector<int> out(3 * p, -1);
      const std::string error = thrown_message(
          [&] { dash::comm::alltoallv(in, send, out, receive, Group::world(), forced(algorithm)); });
      if (P() == 1) {  // alone, the member checks its block to itself before anything moves
        EXPECT_TRUE(mentions(error, "receive_counts[rank]")) << error;
      } else if (me() == receiver) {
        const std::string what = longer ? "more than the 12 bytes" : "8 of the 12 bytes";
        EXPECT_TRUE(mentions(error, "dash::comm::alltoallv: member 0 sent this member " + what)) << error;
      } else {
        EXPECT_EQ(error, "");
      }
    }
  }
  std::vector<int> in(p, me());
  std::vector<int> out(p, -1);
  dash::comm::alltoall(in, out);
  std::vector<int> ranks(p);
  std::iota(ranks.begin(), ranks.end(), 0);
  EXPECT_EQ(out, ranks);
}

// Arrival-order placement: the output is a permutation of the canonical one, and every arrival
// names the source whose block it points to.
TEST(Collectives, NonCanonicalPlacementReportsEverySource) {
  const std::size_t n = 3;
  Options options = forced("bruck_noncanonical");
  options.canonical_placement = false;
  for (const Coll collective : {Coll::allgather, Coll::alltoall}) {
    SCOPED_TRACE(std::string(dash::comm::to_string(collective)));
    const std::size_t in_size = collective == Coll::alltoall ? n * static_cast<std::size_t>(P()) : n;
    std::vector<int> in(in_size);
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i] = me() * 1000 + static_cast<int>(i);
    }
    std::vector<int> out(n * static_cast<std::size_t>(P()), -1);
    auto request = collective == Coll::allgather ? dash::comm::iallgather(in, out, Group::world(), options)
                                                 : dash::comm::ialltoall(in, out, Group::world(), options);
    std::vector<int> seen(static_cast<std::size_t>(P()), 0);
    request.for_each_arrival([&](const dash::comm::Arrival<int>& arrival) {
      ++seen[static_cast<std::size_t>(arrival.source)];
      ASSERT_EQ(arrival.count, n);
      const int first = collective == Coll::allgather ? 0 : me() * static_cast<int>(n);
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(arrival.data[i], arrival.source * 1000 + first + static_cast<int>(i));
      }
    });
    EXPECT_EQ(seen, std::vector<int>(static_cast<std::size_t>(P()), 1));
  }
  std::vector<int> in(2, me());
  std::vector<int> out(2 * static_cast<std::size_t>(P()));
  try {
    dash::comm::allgather(in, out, Group::world(), forced("bruck_noncanonical"));
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("set Options::canonical_placement = false"), std::string::npos)
        << error.what();
  }
}

TEST(Collectives, BcastMatchesMpiForEveryRoot) {
  for (const auto algorithm : dash::comm::algorithms(Coll::bcast)) {
    for (const std::size_t n : counts()) {
      for (int root = 0; root < P(); ++root) {
        SCOPED_TRACE(label(algorithm, n, root));
        std::vector<double> ours(n, -1.0);
        std::vector<double> theirs(n, -2.0);
        if (me() == root) {
          for (std::size_t i = 0; i < n; ++i) {
            ours[i] = theirs[i] = 0.5 * static_cast<double>(i) + root;
          }
        }
        if (!fits(Coll::bcast, algorithm, true)) {
          EXPECT_THROW(dash::comm::bcast(ours, root, Group::world(), forced(algorithm)), dash::InvalidArgument);
          continue;
        }
        dash::comm::bcast(ours, root, Group::world(), forced(algorithm));
        MPI_Bcast(theirs.data(), static_cast<int>(n), MPI_DOUBLE, root, world());
        EXPECT_EQ(ours, theirs);
      }
    }
  }
}

TEST(Collectives, GatherAndScatterMatchMpiForEveryRoot) {
  const auto p = static_cast<std::size_t>(P());
  for (const std::size_t n : counts()) {
    for (int root = 0; root < P(); ++root) {
      for (const auto algorithm : dash::comm::algorithms(Coll::gather)) {
        SCOPED_TRACE("gather " + label(algorithm, n, root));
        const std::vector<int> in = int_input(n, me());
        std::vector<int> ours(me() == root ? n * p : 0, -1);
        std::vector<int> theirs(n * p, -2);
        dash::comm::gather(in, ours, root, Group::world(), forced(algorithm));
        MPI_Gather(in.data(), static_cast<int>(n), MPI_INT, theirs.data(), static_cast<int>(n), MPI_INT, root, world());
        if (me() == root) {
          EXPECT_EQ(ours, theirs);
        }
      }
      for (const auto algorithm : dash::comm::algorithms(Coll::scatter)) {
        SCOPED_TRACE("scatter " + label(algorithm, n, root));
        const std::vector<int> in = me() == root ? int_input(n * p, root) : std::vector<int>();
        std::vector<int> ours(n, -1);
        std::vector<int> theirs(n, -2);
        dash::comm::scatter(in, ours, root, Group::world(), forced(algorithm));
        MPI_Scatter(in.data(), static_cast<int>(n), MPI_INT, theirs.data(), static_cast<int>(n), MPI_INT, root,
                    world());
        EXPECT_EQ(ours, theirs);
      }
    }
  }
}

TEST(Collectives, ScanAndExscanMatchMpi) {
  const Matrices matrices;
  for (const std::size_t n : counts()) {
    for (const auto algorithm : dash::comm::algorithms(Coll::scan)) {
      SCOPED_TRACE("scan " + label(algorithm, n));
      const std::vector<Matrix> in = matrix_input(n, me());
      std::vector<Matrix> ours(n);
      std::vector<Matrix> theirs(n);
      dash::comm::scan(in, ours, matrix_product, Group::world(), forced(algorithm));
      MPI_Scan(in.data(), theirs.data(), static_cast<int>(n), matrices.type, matrices.product, world());
      EXPECT_EQ(ours, theirs);
    }
    for (const auto algorithm : dash::comm::algorithms(Coll::exscan)) {
      SCOPED_TRACE("exscan " + label(algorithm, n));
      const std::vector<int> in = int_input(n, me());
      std::vector<int> ours(n, -1);
      std::vector<int> theirs(n, -2);
      dash::comm::exscan(in, ours, dash::plus{}, Group::world(), forced(algorithm));
      MPI_Exscan(in.data(), theirs.data(), static_cast<int>(n), MPI_INT, MPI_SUM, world());
      if (me() != 0) {
        EXPECT_EQ(ours, theirs);
      } else {
        EXPECT_EQ(ours, std::vector<int>(n, -1)) << "exscan must not touch rank 0's output";
      }
    }
  }
}

// The last rank enters the barrier only when every other rank told it that it has polled its own
// barrier through as many rounds of an MPI barrier among the early ranks as a dissemination over
// all ranks has, plus one: none of those polls may see the barrier complete, as the last rank
// provably had not entered. (The rounds give a barrier that ignores the last rank the chance to
// complete among the early ranks; whether it does so in time decides only whether it is caught.)
TEST(Collectives, BarrierWaitsForTheLastRank) {
  const int last = P() - 1;
  constexpr int early_ranks_polled = 1;
  MPI_Comm early = MPI_COMM_NULL;
  MPI_Comm_split(world(), me() == last ? MPI_UNDEFINED : 0, me(), &early);
  MPI_Comm signals = MPI_COMM_NULL;
  MPI_Comm_dup(world(), &signals);
  if (me() == last) {
    for (int rank = 0; rank < last; ++rank) {
      int note = 0;
      MPI_Recv(&note, 1, MPI_INT, rank, early_ranks_polled, signals, MPI_STATUS_IGNORE);
    }
    dash::comm::barrier(Group::world(), forced("dissemination"));
  } else {
    auto barrier = dash::comm::ibarrier(Group::world(), forced("dissemination"));
    bool left_before_last_entered = false;
    const int rounds = static_cast<int>(std::bit_width(static_cast<unsigned>(P() - 1))) + 1;
    for (int round = 0; round < rounds; ++round) {
      MPI_Request all_early = MPI_REQUEST_NULL;
      MPI_Ibarrier(early, &all_early);
      for (int all_arrived = 0; all_arrived == 0;) {
        left_before_last_entered = barrier.test() || left_before_last_entered;
        MPI_Test(&all_early, &all_arrived, MPI_STATUS_IGNORE);
      }
    }
    left_before_last_entered = barrier.test() || left_before_last_entered;
    MPI_Send(&early_ranks_polled, 1, MPI_INT, last, early_ranks_polled, signals);
    barrier.wait();
    EXPECT_FALSE(left_before_last_entered) << "the barrier completed before the last rank entered it";
    MPI_Comm_free(&early);
  }
  MPI_Comm_free(&signals);
}

TEST(Collectives, ForcingAnUnknownOrUnfitAlgorithmIsAnError) {
  std::vector<int> in(4, 1);
  std::vector<int> out(4);
  try {
    dash::comm::allreduce(in, out, dash::plus{}, Group::world(), forced("quantum"));
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::allreduce: invalid argument 'algorithm (forced by Options::algorithm)' = 'quantum'; "
              "expected one of recursive_doubling, rabenseifner, binary_blocks, ring, pairwise_ring, shared_memory, "
              "shared_memory_replicated, distance_halving, torus_order, bucket, bucket_3way, bucket_6way, "
              "hierarchical");
  }
  std::vector<Matrix> min(4, Matrix{1, 0, 0, 1});
  std::vector<Matrix> mout(4);
  try {
    dash::comm::allreduce(min, mout, matrix_product, Group::world(), forced("ring"));
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::allreduce: algorithm 'ring' (forced by Options::algorithm) cannot serve this call: it "
              "reorders contributions, so it needs a commutative operation");
  }
}

TEST(Collectives, SizeMismatchesAreErrors) {
  std::vector<int> in(4, 1);
  std::vector<int> out(3);
  try {
    dash::comm::allreduce(in, out, dash::plus{});
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(),
                 "dash::comm::allreduce: invalid argument 'out.size()' = 3; expected 4 (the size of in)");
  }
  EXPECT_THROW(dash::comm::bcast(in, P(), Group::world()), dash::OutOfRange);
  Options too_many_segments = forced("ring");
  too_many_segments.segments = 5;  // more segments than the 4 elements
  try {
    dash::comm::allreduce(in, in, dash::plus{}, Group::world(), too_many_segments);
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    EXPECT_STREQ(error.what(), "dash::comm::allreduce: invalid argument 'options.segments' = 5; expected at most the 4 "
                               "element(s) of a contribution (0: the algorithm's default)");
  }
}

// A group of one member (each rank alone) takes no algorithm: every collective copies the
// member's contribution to its output or leaves the buffer alone, and never writes beside it.
TEST(Collectives, OneMemberGroupsCopyTheirContribution) {
  const Group alone = Group::of_base_ranks({me()}, dash::comm::TagSpace{31000 + me() * 32, 32});
  constexpr std::size_t n = 5;
  constexpr int guard = -7;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 100 * me() + 1);
  // The output with a guard element on each side.
  std::vector<int> padded(n + 2, guard);
  const std::span<int> out(padded.data() + 1, n);
  const auto expect_copied = [&](std::string_view collective) {
    EXPECT_TRUE(std::equal(out.begin(), out.end(), in.begin())) << collective;
    EXPECT_EQ(padded.front(), guard) << collective;
    EXPECT_EQ(padded.back(), guard) << collective;
    std::fill(out.begin(), out.end(), 0);
  };
  dash::comm::allreduce(in, out, dash::plus{}, alone);
  expect_copied("allreduce");
  dash::comm::reduce(in, out, dash::plus{}, 0, alone);
  expect_copied("reduce");
  dash::comm::allgather(in, out, alone);
  expect_copied("allgather");
  dash::comm::gather(in, out, 0, alone);
  expect_copied("gather");
  dash::comm::scatter(in, out, 0, alone);
  expect_copied("scatter");
  dash::comm::alltoall(in, out, alone);
  expect_copied("alltoall");
  dash::comm::reduce_scatter_block(in, out, dash::plus{}, alone);
  expect_copied("reduce_scatter_block");
  dash::comm::scan(in, out, dash::plus{}, alone);
  expect_copied("scan");
  dash::comm::exscan(in, out, dash::plus{}, alone);  // member 0's output is not touched
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](int v) { return v == 0; }));
  std::vector<int> buffer = in;
  dash::comm::bcast(buffer, 0, alone);
  EXPECT_EQ(buffer, in);
  dash::comm::allreduce(buffer, buffer, dash::plus{}, alone);  // in place
  EXPECT_EQ(buffer, in);
  dash::comm::barrier(alone);
  EXPECT_THROW(dash::comm::bcast(buffer, 1, alone), dash::OutOfRange);
  // A forced algorithm still runs (or is refused) as itself.
  dash::comm::allreduce(in, out, dash::plus{}, alone, forced("ring"));
  expect_copied("allreduce forced to ring");
}

// The library's choice is the candidate the cost model prices lowest, the first one on a tie; the
// others are listed with their prices, the unfit ones with the reason.
void expect_cheapest(const dash::comm::Choice& choice, Coll collective) {
  const std::vector<std::string_view> names = dash::comm::algorithms(collective);
  ASSERT_EQ(choice.candidates.size(), names.size());
  const dash::comm::Candidate* cheapest = nullptr;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const dash::comm::Candidate& candidate = choice.candidates[i];
    EXPECT_EQ(candidate.algorithm, names[i]);
    if (candidate.unfit.empty() && (cheapest == nullptr || candidate.predicted_seconds < cheapest->predicted_seconds)) {
      cheapest = &candidate;
    }
  }
  ASSERT_NE(cheapest, nullptr);
  EXPECT_EQ(choice.algorithm, cheapest->algorithm);
  EXPECT_NE(choice.reason.find("lowest predicted time"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("cost model alpha="), std::string::npos) << choice.reason;
}

TEST(Collectives, GroupsOnSeveralNodesPriceTheirMessagesWithTheNetworksParameters) {
  const bool several = dash::comm::locality().node_count > 1 && P() > 1;
  const dash::comm::CostParameters& machine = dash::comm::config().cost_parameters;
  const dash::comm::CostParameters expected = several ? dash::comm::between_nodes(machine) : machine;
  for (const Coll collective : {Coll::allreduce, Coll::allgather, Coll::bcast}) {
    const dash::comm::Choice choice = dash::comm::explain(collective, 4096, Group::world());
    EXPECT_EQ(choice.between_nodes, several);
    EXPECT_EQ(choice.reason.find("alpha_net, beta_net") != std::string::npos, several) << choice.reason;
    for (const dash::comm::Candidate& candidate : choice.candidates) {
      // A hierarchical run adds its rails' prices (between nodes) to its node's.
      if (!candidate.unfit.empty() || candidate.algorithm == "hierarchical") {
        continue;
      }
      EXPECT_DOUBLE_EQ(candidate.predicted_seconds,
                       dash::comm::predicted_seconds(candidate.terms, candidate.block_bytes, expected))
          << to_string(collective) << " " << candidate.algorithm;
    }
  }
}

TEST(Collectives, ExplainNamesAlgorithmReasonAndEveryCandidatesCost) {
  // A short vector on a group without the shared-memory arena (not the world group): recursive
  // doubling has the fewest start-ups at every group size.
  std::vector<int> everyone(static_cast<std::size_t>(P()));
  std::iota(everyone.begin(), everyone.end(), 0);
  const Group all_but_world = Group::of_base_ranks(everyone, dash::comm::TagSpace{30000, 16});
  const dash::comm::Choice small = dash::comm::explain(Coll::allreduce, 8, all_but_world);
  EXPECT_EQ(small.algorithm, "recursive_doubling");
  expect_cheapest(small, Coll::allreduce);
  expect_cheapest(dash::comm::explain(Coll::allreduce, 8, Group::world()), Coll::allreduce);
  const dash::comm::Choice large = dash::comm::explain(Coll::allreduce, 1 << 24, Group::world());
  expect_cheapest(large, Coll::allreduce);
  const dash::comm::Choice rooted = dash::comm::explain(Coll::bcast, 1 << 20, Group::world());
  expect_cheapest(rooted, Coll::bcast);
  // On a network whose nodes are the ranks, the topology-aware algorithms that fit are priced there too.
  for (const Coll collective : {Coll::allgather, Coll::reduce_scatter, Coll::allreduce}) {
    const dash::comm::Choice choice = dash::comm::explain(collective, 1 << 20, Group::world());
    expect_cheapest(choice, collective);
    for (const dash::comm::Candidate& candidate : choice.candidates) {
      if (candidate.algorithm == "distance_halving" || candidate.algorithm == "torus_order" ||
          candidate.algorithm.starts_with("bucket")) {
        const bool priced = ranks_are_nodes() && fits(collective, candidate.algorithm, true);
        EXPECT_EQ(candidate.unfit.empty(), priced) << candidate.algorithm << ": " << candidate.unfit;
        EXPECT_EQ(candidate.predicted_seconds > 0, priced && P() > 1) << candidate.algorithm;
      }
    }
  }
  // Arrival order was not allowed, so Bruck without its reorder cannot serve the call.
  const dash::comm::Choice gathered = dash::comm::explain(Coll::allgather, 64, Group::world());
  expect_cheapest(gathered, Coll::allgather);
  for (const dash::comm::Candidate& candidate : gathered.candidates) {
    if (candidate.algorithm == "bruck_noncanonical") {
      EXPECT_NE(candidate.unfit.find("arrival order"), std::string::npos) << candidate.unfit;
    } else if (!ranks_are_nodes() && (candidate.algorithm == "ring" || candidate.algorithm == "sparbit")) {
      // The flat model (on a network, blocks are the busiest link's per stage).
      EXPECT_EQ(candidate.terms.blocks, P() - 1) << candidate.algorithm;  // p - 1 contributions of one block
      EXPECT_EQ(candidate.block_bytes, 64u) << candidate.algorithm;
    }
  }
}

}  // namespace

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
namespace {

// With cross-rank checks compiled in, arguments that differ between ranks are reported on every
// rank instead of hanging or corrupting data.
TEST(Collectives, MismatchedArgumentsAreReportedOnEveryRank) {
  if (P() < 2) {
    return;  // one rank always agrees with itself
  }
  std::vector<double> buffer(16, 1.0);
  const int root = me() == 0 ? 0 : 1;  // rank 0 disagrees about the root
  bool reported = false;
  try {
    dash::comm::bcast(buffer, root, Group::world(), forced("binomial"));
  } catch (const dash::InvalidArgument& error) {
    reported = std::string(error.what()).find("must be the same on every rank") != std::string::npos;
  }
  EXPECT_TRUE(reported);
}

// Segments and placement change the schedule as the algorithm does: members that differ in them
// would exchange blocks of other sizes.
TEST(Collectives, MismatchedSegmentsOrPlacementAreReportedOnEveryRank) {
  if (P() < 2) {
    return;
  }
  std::vector<long> in(30, me());
  std::vector<long> out(30);
  for (const bool vary_segments : {true, false}) {
    Options options = forced("ring");
    if (vary_segments) {
      options.segments = me() == 0 ? 2 : 3;
    } else {
      options.canonical_placement = me() != 0;
    }
    bool reported = false;
    try {
      dash::comm::allreduce(in, out, dash::plus{}, Group::world(), options);
    } catch (const dash::InvalidArgument& error) {
      reported = std::string(error.what()).find("must be the same on every rank") != std::string::npos;
    }
    EXPECT_TRUE(reported) << (vary_segments ? "segments" : "canonical_placement");
  }
}

}  // namespace
#endif
