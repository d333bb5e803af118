// Every algorithm of every collective against the MPI library's own result: counts 0, 1, p - 1,
// p + 1, an odd count and a large one; every root; int, double and a struct; a non-commutative
// operation (2x2 matrix product modulo 2^32) and minloc.
//
// Map: per collective against MPI: allreduce (also floating sums, in place), reduce, allgather,
// reduce_scatter_block, alltoall, allgatherv, alltoallv (and disagreeing counts), arrival-order
// placement, bcast, gather and scatter, scan and exscan, barrier. Errors, one-member groups, the
// cost model's choice and explain() are in collectives_errors_test.cpp; the inputs and which
// algorithms fit this run in collectives_inputs.hpp.

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

#include "collectives_inputs.hpp"
#include "dash_testing.hpp"
#include "thrown_message.hpp"


namespace {

using dash::comm::Coll;
using dash::comm::Group;
using dash::comm::Options;
using dash::testing::mentions;
using dash::testing::thrown_message;
using namespace dash::testing::collectives;
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

}  // namespace
