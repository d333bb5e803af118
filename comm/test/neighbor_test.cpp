// neighbor_alltoall on Cartesian grids of every shape P allows (1-D, 2-D and 3-D; periodic, not
// and mixed; dimensions of size 1 and 2), against two references: what each neighbour sent, by
// formula, with the neighbours MPI_Cart_shift names, and MPI_Neighbor_alltoall on the Cartesian
// communicator.
//
// Open MPI 4.1's blocking MPI_Neighbor_alltoall follows the standard (MPI-4.0 errata of 3.1,
// mpi-forum/mpi-issues#153) in periodic dimensions of size 1 and 2, where both neighbours are one
// process and block s of the sender must land in block s ^ 1 of the receiver; its non-blocking
// MPI_Ineighbor_alltoall (coll/libnbc) does not (open-mpi/ompi#14416), so only the blocking call
// serves as a reference here. MPICH 4.0's blocking call does not follow the errata either: where a
// probe shows that the MPI library does not, its result is compared only on grids without such
// dimensions (the formula reference still checks every grid).
//
// Map: Sample, the values (value_of, untouched), grids_of (every grid shape of P), CartComm,
// input_of and reference (what MPI promises), MpiType, the errata probe and check_against_references;
// the tests: every grid against both references, arrivals, sources as group ranks, bad arguments,
// explain and the algorithm list, grids that differ between ranks.

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

#include "grid_names.hpp"

#include "dash_testing.hpp"

namespace {

using dash::testing::describe;
using dash::testing::periodicity;

using dash::comm::CartesianGrid;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }

struct Sample {
  std::int32_t rank;
  std::int32_t slot;
  double position;
  friend bool operator==(const Sample&, const Sample&) = default;
};

// Element i of `rank`'s input block `slot`, and the value every output block holds before the call.
template <class T>
T value_of(int rank, int slot, std::size_t i) {
  const int code = rank * 1'000'000 + slot * 10'000 + static_cast<int>(i);
  if constexpr (std::is_same_v<T, Sample>) {
    return Sample{rank, slot, static_cast<double>(i) + 0.25};
  } else {
    return static_cast<T>(code) + static_cast<T>(0.5);
  }
}

template <class T>
T untouched() {
  if constexpr (std::is_same_v<T, Sample>) {
    return Sample{-1, -1, -1.0};
  } else {
    return static_cast<T>(-7);
  }
}

// 1-D periodic and not; every 2-D factorisation with all four periodicities; every 3-D
// factorisation with a periodicity cycling through all eight; size-1 dimensions around a 1-D grid.
std::vector<CartesianGrid> grids_of(int p) {
  std::vector<CartesianGrid> grids;
  grids.emplace_back(std::vector<int>{p}, periodicity(0, 1));
  grids.emplace_back(std::vector<int>{p}, periodicity(1, 1));
  unsigned pattern = 0;
  for (int a = 1; a <= p; ++a) {
    if (p % a != 0) {
      continue;
    }
    for (unsigned mask = 0; mask < 4; ++mask) {
      grids.emplace_back(std::vector<int>{a, p / a}, periodicity(mask, 2));
    }
    for (int b = 1; b <= p / a; ++b) {
      if (p / a % b == 0) {
        grids.emplace_back(std::vector<int>{a, b, p / a / b}, periodicity(pattern++ % 8, 3));
      }
    }
  }
  grids.emplace_back(std::vector<int>{1, p, 1}, periodicity(0b101, 3));
  grids.emplace_back(std::vector<int>{p, 1}, periodicity(0b10, 2));
  return grids;
}

// The Cartesian communicator MPI builds for `grid` over `comm` (no reordering), freed on exit.
class CartComm {
public:
  CartComm(const CartesianGrid& grid, MPI_Comm comm) {
    std::vector<int> periods;
    for (const bool periodic : grid.periodic()) {
      periods.push_back(periodic ? 1 : 0);
    }
    MPI_Cart_create(comm, grid.ndims(), grid.dims().data(), periods.data(), 0, &cart_);
    MPI_Comm_rank(cart_, &rank_);
    for (int d = 0; d < grid.ndims(); ++d) {
      int below = MPI_PROC_NULL;
      int above = MPI_PROC_NULL;
      MPI_Cart_shift(cart_, d, 1, &below, &above);
      neighbors_.push_back(below);
      neighbors_.push_back(above);
    }
  }
  ~CartComm() { MPI_Comm_free(&cart_); }
  CartComm(const CartComm&) = delete;
  CartComm& operator=(const CartComm&) = delete;

  MPI_Comm comm() const { return cart_; }
  int rank() const { return rank_; }
  // The neighbour in each slot (2d: source of a shift by +1 along d, 2d + 1: its destination).
  const std::vector<int>& neighbors() const { return neighbors_; }

private:
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0;
  std::vector<int> neighbors_;
};

template <class T>
std::vector<T> input_of(int rank, int slots, std::size_t n) {
  std::vector<T> in(static_cast<std::size_t>(slots) * n);
  for (int k = 0; k < slots; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      in[static_cast<std::size_t>(k) * n + i] = value_of<T>(rank, k, i);
    }
  }
  return in;
}

// What MPI promises: slot k holds block k ^ 1 of the neighbour in slot k; slots without a
// neighbour keep their value.
template <class T>
std::vector<T> reference(const CartComm& cart, std::size_t n) {
  const auto& neighbors = cart.neighbors();
  std::vector<T> expected(neighbors.size() * n, untouched<T>());
  for (std::size_t k = 0; k < neighbors.size(); ++k) {
    if (neighbors[k] == MPI_PROC_NULL) {
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      expected[k * n + i] = value_of<T>(neighbors[k], static_cast<int>(k ^ 1u), i);
    }
  }
  return expected;
}

// An MPI datatype for T, freed on exit.
template <class T>
class MpiType {
public:
  MpiType() {
    if constexpr (std::is_same_v<T, int>) {
      type_ = MPI_INT;
    } else if constexpr (std::is_same_v<T, double>) {
      type_ = MPI_DOUBLE;
    } else {
      MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type_);
      MPI_Type_commit(&type_);
      owned_ = true;
    }
  }
  ~MpiType() {
    if (owned_) {
      MPI_Type_free(&type_);
    }
  }
  MpiType(const MpiType&) = delete;
  MpiType& operator=(const MpiType&) = delete;
  MPI_Datatype get() const { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  bool owned_ = false;
};

// Whether MPI_Neighbor_alltoall follows the MPI-4.0 errata: on a periodic 1 x 1 grid all four
// neighbours are the caller, and blocks 0 1 2 3 must come back as 1 0 3 2. (MPICH 4.0 returns
// 3 2 1 0 there: its four messages to itself match in the order it posts them. A 1-D ring of one
// process cannot tell the two apart.)
bool mpi_follows_the_neighborhood_errata() {
  static const bool follows = [] {
    const CartComm grid(CartesianGrid({1, 1}, {true, true}), MPI_COMM_SELF);
    const std::vector<int> sent{10, 11, 12, 13};
    std::vector<int> received(4, -1);
    MPI_Neighbor_alltoall(sent.data(), 1, MPI_INT, received.data(), 1, MPI_INT, grid.comm());
    return received == std::vector<int>{11, 10, 13, 12};
  }();
  return follows;
}

// Periodic dimensions of size 1 or 2, where the MPI-4.0 errata changed which block goes where.
bool has_wrapped_neighbors(const CartesianGrid& grid) {
  for (int d = 0; d < grid.ndims(); ++d) {
    if (grid.periodic()[static_cast<std::size_t>(d)] && grid.dims()[static_cast<std::size_t>(d)] <= 2) {
      return true;
    }
  }
  return false;
}

template <class T>
void check_against_references(const CartesianGrid& grid, const CartComm& cart, std::size_t n) {
  SCOPED_TRACE(describe(grid) + " n=" + std::to_string(n) + " element size " + std::to_string(sizeof(T)));
  const std::vector<T> in = input_of<T>(me(), grid.neighbor_slots(), n);
  std::vector<T> ours(in.size(), untouched<T>());
  dash::comm::neighbor_alltoall(in, ours, grid);
  EXPECT_EQ(ours, reference<T>(cart, n));
  if (has_wrapped_neighbors(grid) && !mpi_follows_the_neighborhood_errata()) {
    return;
  }

  const MpiType<T> type;
  std::vector<T> theirs(in.size(), untouched<T>());
  MPI_Neighbor_alltoall(in.data(), static_cast<int>(n), type.get(), theirs.data(), static_cast<int>(n), type.get(),
                        cart.comm());
  EXPECT_EQ(ours, theirs);
}

TEST(NeighborAlltoall, MatchesTheReferenceAndMpiOnEveryGrid) {
  for (const CartesianGrid& grid : grids_of(P())) {
    const CartComm cart(grid, MPI_COMM_WORLD);
    EXPECT_EQ(cart.rank(), me());  // no reordering: grid rank = world rank
    for (const std::size_t n : {0u, 1u, 7u, 4099u}) {
      check_against_references<int>(grid, cart, n);
    }
    for (const std::size_t n : {1u, 7u}) {
      check_against_references<double>(grid, cart, n);
      check_against_references<Sample>(grid, cart, n);
    }
  }
}

// Every slot with a neighbour arrives exactly once, naming that neighbour and pointing at the
// slot's block (or segment) with its final value; slots without one never arrive.
void check_arrivals(const CartesianGrid& grid, const Group& group, const CartComm& cart, std::uint32_t segments) {
  SCOPED_TRACE(describe(grid) + " segments=" + std::to_string(segments));
  constexpr std::size_t n = 7;
  const std::vector<int> in = input_of<int>(cart.rank(), grid.neighbor_slots(), n);
  std::vector<int> out(in.size(), untouched<int>());
  const std::vector<int> expected = reference<int>(cart, n);
  Options options;
  options.segments = segments;
  auto request = dash::comm::ineighbor_alltoall(in, out, grid, group, options);
  const std::size_t blocks = static_cast<std::size_t>(grid.neighbor_slots()) * segments;
  std::vector<int> seen(blocks, 0);
  request.for_each_arrival([&](const dash::comm::Arrival<int>& arrival) {
    ASSERT_LT(arrival.block, blocks);
    ++seen[arrival.block];
    const std::size_t slot = arrival.block / segments;
    const std::size_t segment = arrival.block % segments;
    EXPECT_EQ(arrival.source, cart.neighbors()[slot]) << "block " << arrival.block;
    const std::size_t first = slot * n + segment * n / segments;
    EXPECT_EQ(arrival.data, out.data() + first) << "block " << arrival.block;
    ASSERT_EQ(arrival.count, (segment + 1) * n / segments - segment * n / segments) << "block " << arrival.block;
    for (std::size_t i = 0; i < arrival.count; ++i) {
      EXPECT_EQ(arrival.data[i], expected[first + i]) << "block " << arrival.block << " element " << i;
    }
  });
  for (std::size_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(seen[b], cart.neighbors()[b / segments] == MPI_PROC_NULL ? 0 : 1) << "block " << b;
  }
  EXPECT_EQ(out, expected);
}

TEST(NeighborAlltoall, EachNeighbourArrivesOnceWithItsSource) {
  for (const CartesianGrid& grid : grids_of(P())) {
    const CartComm cart(grid, MPI_COMM_WORLD);
    for (const std::uint32_t segments : {1u, 3u}) {
      check_arrivals(grid, Group::world(), cart, segments);
    }
  }
}

// On a group whose ranks run backwards, sources are group ranks: the reference is MPI's
// Cartesian communicator over a communicator with the same reversed order.
TEST(NeighborAlltoall, SourcesAreGroupRanks) {
  std::vector<int> members;
  for (int r = P() - 1; r >= 0; --r) {
    members.push_back(r);
  }
  const dash::comm::TagSpace tags{Group::world_tag_space().first + Group::world_tag_space().count, 1000};
  const Group reversed = Group::of_base_ranks(members, tags);
  ASSERT_EQ(reversed.rank(), P() - 1 - me());
  MPI_Comm reversed_comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, P() - 1 - me(), &reversed_comm);
  for (const CartesianGrid& grid : {CartesianGrid({P()}, {false}), CartesianGrid({1, P()}, {true, true}),
                                    CartesianGrid({P() % 2 == 0 ? 2 : 1, P() % 2 == 0 ? P() / 2 : P()}, {true, false})}) {
    const CartComm cart(grid, reversed_comm);
    EXPECT_EQ(cart.rank(), reversed.rank());
    check_arrivals(grid, reversed, cart, 1);
  }
  MPI_Comm_free(&reversed_comm);
}

template <class F>
std::string invalid_argument_of(F f) {
  try {
    f();
  } catch (const dash::InvalidArgument& error) {
    return error.what();
  }
  return "no dash::InvalidArgument";
}

TEST(NeighborAlltoall, ABadGridOrBadSizesAreRejectedOnEveryRank) {
  std::vector<int> in(6, me());
  std::vector<int> out(6);
  const std::string p = std::to_string(P());
  const std::string wrong_size = invalid_argument_of(
      [&] { dash::comm::neighbor_alltoall(in, out, CartesianGrid({P() + 1}, {true})); });
  EXPECT_EQ(wrong_size, "dash::comm::neighbor_alltoall: invalid argument 'grid.size()' = " + std::to_string(P() + 1) +
                            "; expected the group size " + p + " (one member per grid point)");
  EXPECT_TRUE(dash::testing::on_all_ranks(wrong_size.starts_with("dash::comm::neighbor_alltoall")));

  const CartesianGrid ring({P()}, {true});
  std::vector<int> odd(5);
  EXPECT_EQ(invalid_argument_of([&] { dash::comm::neighbor_alltoall(odd, odd, ring); }),
            "dash::comm::neighbor_alltoall: invalid argument 'in.size()' = 5; expected a multiple of 2 * grid.ndims() "
            "= 2 (one block per neighbour)");
  std::vector<int> short_out(4);
  EXPECT_EQ(invalid_argument_of([&] { dash::comm::neighbor_alltoall(in, short_out, ring); }),
            "dash::comm::neighbor_alltoall: invalid argument 'out.size()' = 4; expected 6 (the size of in)");
  // The same buffers work once the grid fits.
  dash::comm::neighbor_alltoall(in, out, ring);
  const int below = (me() + P() - 1) % P();
  const int above = (me() + 1) % P();
  EXPECT_EQ(out, (std::vector<int>{below, below, below, above, above, above}));
}

TEST(NeighborAlltoall, ExplainAndAlgorithms) {
  EXPECT_EQ(dash::comm::algorithms(dash::comm::Coll::neighbor_alltoall), std::vector<std::string_view>{"direct"});
  EXPECT_EQ(dash::comm::explain(dash::comm::Coll::neighbor_alltoall, 64, Group::world()).algorithm, "direct");
}

}  // namespace

#ifdef DASH_CROSS_RANK_CHECKS_ENABLED
namespace {

// Grids that differ between ranks would pair messages wrongly or leave some unmatched; with
// cross-rank checks every rank reports them instead.
TEST(NeighborAlltoall, MismatchedGridsAreReportedOnEveryRank) {
  if (P() < 2) {
    return;  // one rank always agrees with itself
  }
  std::vector<int> in(6, me());
  std::vector<int> out(6);
  const CartesianGrid grid({P()}, {me() == 0});  // only rank 0 wraps around
  bool reported = false;
  try {
    dash::comm::neighbor_alltoall(in, out, grid);
  } catch (const dash::InvalidArgument& error) {
    reported = std::string(error.what()).find("must be the same on every rank") != std::string::npos;
  }
  EXPECT_TRUE(reported);
}

}  // namespace
#endif
