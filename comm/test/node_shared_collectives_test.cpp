// The node's collectives on buffers in node-shared memory (a NodeWindow, as dash's containers hold
// their elements): NodeWindow records where each member's memory lies in its owner's address space
// and in this one (comm/arena/mapped_memory.hpp), and the arena's single-copy paths copy such buffers
// with plain loads and stores. Results against MPI's, with guard elements around every buffer, since
// a wrongly translated address would read or write the wrong bytes of the window.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/node_window.hpp>
#include <dash/dash.hpp>

#include "arena/mapped_memory.hpp"

namespace {

using dash::comm::Group;
using dash::comm::NodeWindow;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
MPI_Comm world() { return dash::comm::base_comm(); }

constexpr std::size_t guard = 1000;
constexpr std::int64_t guard_value = -77;

// `n` elements of node-shared memory between guards.
class SharedBuffer {
public:
  explicit SharedBuffer(std::size_t n) : window_(world(), (n + 2 * guard) * sizeof(std::int64_t)), n_(n) {
    const std::span<std::int64_t> all = whole();
    std::fill(all.begin(), all.end(), guard_value);
  }
  std::span<std::int64_t> view() const { return whole().subspan(guard, n_); }
  // Guard elements that changed.
  std::size_t damaged_guards() const {
    const std::span<std::int64_t> all = whole();
    std::size_t damaged = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      damaged += (i < guard || i >= guard + n_) && all[i] != guard_value ? std::size_t{1} : std::size_t{0};
    }
    return damaged;
  }

private:
  std::span<std::int64_t> whole() const {
    return {reinterpret_cast<std::int64_t*>(window_.local().data()), n_ + 2 * guard};
  }
  NodeWindow window_;
  std::size_t n_;
};

std::int64_t value(int rank, std::size_t i) { return static_cast<std::int64_t>(i * 131 % 1009) + 5000 * rank; }

// Sizes around the arena's single-copy threshold (16 KiB) and its 1 MiB chunks.
const std::vector<std::size_t>& element_counts() {
  static const std::vector<std::size_t> counts{7, 2048 + 3, (std::size_t{1} << 17) + 5, std::size_t{3} << 17};
  return counts;
}

TEST(NodeSharedCollectives, WindowMembersAreFoundWhereTheyAreMapped) {
  constexpr std::size_t bytes = 64 * 1024;
  std::vector<std::int64_t> ids(static_cast<std::size_t>(P()));
  std::vector<std::uint64_t> addresses(static_cast<std::size_t>(P()));
  const std::int64_t id = dash::comm::detail::this_process_id();
  {
    NodeWindow window(world(), bytes);
    const auto address = reinterpret_cast<std::uintptr_t>(window.local().data());
    MPI_Allgather(&id, 1, MPI_INT64_T, ids.data(), 1, MPI_INT64_T, world());
    MPI_Allgather(&address, 1, MPI_UINT64_T, addresses.data(), 1, MPI_UINT64_T, world());
    for (int peer = 0; peer < P(); ++peer) {
      const auto p = static_cast<std::size_t>(peer);
      const auto* at = reinterpret_cast<const std::byte*>(addresses[p]);
      if (window.peer(peer) == nullptr) {  // DASH_SHARED_MEMORY=0 withholds the mapping
        EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], at, 16), nullptr) << "peer " << peer;
        continue;
      }
      EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], at + 100, 16), window.peer(peer) + 100) << "peer " << peer;
      EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], at, bytes), window.peer(peer)) << "peer " << peer;
      EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], at + bytes - 8, 16), nullptr) << "past the end, peer " << peer;
      EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], at - 8, 16), nullptr) << "before the start, peer " << peer;
    }
  }
  for (int peer = 0; peer < P(); ++peer) {  // forgotten with the window
    const auto p = static_cast<std::size_t>(peer);
    EXPECT_EQ(dash::comm::detail::mapped_here(ids[p], reinterpret_cast<const std::byte*>(addresses[p]) + 100, 16),
              nullptr)
        << "peer " << peer;
  }
}

TEST(NodeSharedCollectives, AllgatherMatchesMpi) {
  for (const std::size_t n : element_counts()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    SharedBuffer in(n);
    SharedBuffer out(n * static_cast<std::size_t>(P()));
    for (std::size_t i = 0; i < n; ++i) {
      in.view()[i] = value(me(), i);
    }
    MPI_Barrier(world());  // the guards of every window are written before anyone writes into them
    dash::comm::allgather(in.view(), out.view(), Group::world());
    std::vector<std::int64_t> theirs(n * static_cast<std::size_t>(P()));
    MPI_Allgather(in.view().data(), static_cast<int>(n), MPI_INT64_T, theirs.data(), static_cast<int>(n),
                  MPI_INT64_T, world());
    EXPECT_TRUE(std::equal(theirs.begin(), theirs.end(), out.view().begin()));
    EXPECT_EQ(in.damaged_guards() + out.damaged_guards(), 0u);
  }
}

TEST(NodeSharedCollectives, AlltoallMatchesMpi) {
  for (const std::size_t n : element_counts()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    SharedBuffer in(n * static_cast<std::size_t>(P()));
    SharedBuffer out(n * static_cast<std::size_t>(P()));
    for (std::size_t i = 0; i < in.view().size(); ++i) {
      in.view()[i] = value(me(), i);
    }
    MPI_Barrier(world());
    dash::comm::alltoall(in.view(), out.view(), Group::world());
    std::vector<std::int64_t> theirs(in.view().size());
    MPI_Alltoall(in.view().data(), static_cast<int>(n), MPI_INT64_T, theirs.data(), static_cast<int>(n), MPI_INT64_T,
                 world());
    EXPECT_TRUE(std::equal(theirs.begin(), theirs.end(), out.view().begin()));
    EXPECT_EQ(in.damaged_guards() + out.damaged_guards(), 0u);
  }
}

// The root writes part of every chunk into the readers' outputs: here straight into their windows.
TEST(NodeSharedCollectives, BcastWritesOnlyTheReadersOutputs) {
  for (const std::size_t n : element_counts()) {
    for (int root = 0; root < P(); ++root) {
      SCOPED_TRACE("n=" + std::to_string(n) + ", root " + std::to_string(root));
      SharedBuffer buffer(n);
      if (me() == root) {
        for (std::size_t i = 0; i < n; ++i) {
          buffer.view()[i] = value(root, i);
        }
      }
      MPI_Barrier(world());
      dash::comm::bcast(buffer.view(), root, Group::world());
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        wrong += buffer.view()[i] != value(root, i) ? std::size_t{1} : std::size_t{0};
      }
      EXPECT_EQ(wrong, 0u);
      EXPECT_EQ(buffer.damaged_guards(), 0u);
    }
  }
}

// Each process combines its piece of every chunk straight from the others' inputs and copies the
// others' combined pieces straight from their outputs. `lend` says which ranks pass node-shared
// buffers (the others pass heap buffers and stage): each source decides for itself.
void check_allreduce(std::size_t n, const std::function<bool(int)>& lends) {
  SharedBuffer shared_in(n);
  SharedBuffer shared_out(n);
  std::vector<std::int64_t> heap_in(n);
  std::vector<std::int64_t> heap_out(n, -1);
  const std::span<std::int64_t> in = lends(me()) ? shared_in.view() : std::span<std::int64_t>(heap_in);
  const std::span<std::int64_t> out = lends(me()) ? shared_out.view() : std::span<std::int64_t>(heap_out);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = value(me(), i);
  }
  MPI_Barrier(world());
  dash::comm::allreduce(in, out, dash::plus{}, Group::world());
  std::vector<std::int64_t> theirs(n);
  MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM, world());
  EXPECT_TRUE(std::equal(theirs.begin(), theirs.end(), out.begin()));
  EXPECT_EQ(shared_in.damaged_guards() + shared_out.damaged_guards(), 0u);
}

TEST(NodeSharedCollectives, AllreduceMatchesMpi) {
  for (const std::size_t n : element_counts()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    check_allreduce(n, [](int) { return true; });
  }
}

TEST(NodeSharedCollectives, AllreduceSourcesLendOrStageEachOnItsOwn) {
  for (const std::size_t n : element_counts()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    check_allreduce(n, [](int rank) { return rank % 2 == 0; });
    check_allreduce(n, [](int rank) { return rank % 2 == 1; });
  }
}

TEST(NodeSharedCollectives, AllreduceOfDoublesMatchesMpi) {
  const std::size_t n = (std::size_t{1} << 16) + 9;
  NodeWindow in_window(world(), n * sizeof(double));
  NodeWindow out_window(world(), n * sizeof(double));
  const std::span<double> in(reinterpret_cast<double*>(in_window.local().data()), n);
  const std::span<double> out(reinterpret_cast<double*>(out_window.local().data()), n);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = 1.0 / static_cast<double>(i + 1 + static_cast<std::size_t>(me()));
  }
  MPI_Barrier(world());
  dash::comm::allreduce(in, out, dash::plus{}, Group::world());
  std::vector<double> theirs(n);
  MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, world());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(out[i], theirs[i], 1e-12 * std::abs(theirs[i])) << "element " << i;
  }
}

// A lending run leaves its buffers' addresses in the slots' notes; later runs that write no notes
// (chunks in the lines, heap buffers) must not take them for theirs, even with the windows gone.
TEST(NodeSharedCollectives, StaleNotesAreNeverRead) {
  check_allreduce((std::size_t{1} << 17) + 5, [](int) { return true; });
  dash::comm::Options arena;
  arena.algorithm = "shared_memory";
  for (const std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{2048 + 3}}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<std::int64_t> in(n * static_cast<std::size_t>(P()));
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i] = value(me(), i);
    }
    std::vector<std::int64_t> ours(in.size());
    std::vector<std::int64_t> theirs(in.size());
    dash::comm::allreduce(in, ours, dash::plus{}, Group::world(), arena);
    MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(in.size()), MPI_INT64_T, MPI_SUM, world());
    EXPECT_EQ(ours, theirs);
    std::vector<std::int64_t> block(n);
    std::vector<std::int64_t> expected(n);
    dash::comm::reduce_scatter_block(in, block, dash::plus{}, Group::world(), arena);
    MPI_Reduce_scatter_block(in.data(), expected.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM, world());
    EXPECT_EQ(block, expected);
  }
}

TEST(NodeSharedCollectives, ReduceScatterBlockMatchesMpi) {
  for (const std::size_t n : element_counts()) {
    for (const bool every_rank_lends : {true, false}) {
      SCOPED_TRACE("n=" + std::to_string(n) + (every_rank_lends ? ", all lend" : ", even ranks lend"));
      const bool lends = every_rank_lends || me() % 2 == 0;
      SharedBuffer shared_in(n * static_cast<std::size_t>(P()));
      SharedBuffer out(n);
      std::vector<std::int64_t> heap_in(n * static_cast<std::size_t>(P()));
      const std::span<std::int64_t> in = lends ? shared_in.view() : std::span<std::int64_t>(heap_in);
      for (std::size_t i = 0; i < in.size(); ++i) {
        in[i] = value(me(), i);
      }
      MPI_Barrier(world());
      dash::comm::reduce_scatter_block(in, out.view(), dash::plus{}, Group::world());
      std::vector<std::int64_t> theirs(n);
      MPI_Reduce_scatter_block(in.data(), theirs.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM, world());
      EXPECT_TRUE(std::equal(theirs.begin(), theirs.end(), out.view().begin()));
      EXPECT_EQ(shared_in.damaged_guards() + out.damaged_guards(), 0u);
    }
  }
}

// An input in a window and an output on the heap, and the reverse: each side copies what it finds.
TEST(NodeSharedCollectives, SharedAndPrivateBuffersMix) {
  const std::size_t n = (std::size_t{1} << 17) + 5;
  SharedBuffer shared_in(n);
  for (std::size_t i = 0; i < n; ++i) {
    shared_in.view()[i] = value(me(), i);
  }
  std::vector<std::int64_t> private_out(n * static_cast<std::size_t>(P()), -1);
  MPI_Barrier(world());
  dash::comm::allgather(shared_in.view(), private_out, Group::world());
  std::vector<std::int64_t> private_in(n);
  for (std::size_t i = 0; i < n; ++i) {
    private_in[i] = value(me(), i);
  }
  SharedBuffer shared_out(n * static_cast<std::size_t>(P()));
  MPI_Barrier(world());
  dash::comm::allgather(private_in, shared_out.view(), Group::world());
  for (int rank = 0; rank < P(); ++rank) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(rank) * n + i;
      ASSERT_EQ(private_out[at], value(rank, i)) << "private output, rank " << rank << ", element " << i;
      ASSERT_EQ(shared_out.view()[at], value(rank, i)) << "shared output, rank " << rank << ", element " << i;
    }
  }
  EXPECT_EQ(shared_in.damaged_guards() + shared_out.damaged_guards(), 0u);
}

}  // namespace
