// The node's collectives on buffers in node-shared memory (a NodeWindow, as dash's containers hold
// their elements): NodeWindow records where each member's memory lies in its owner's address space
// and in this one (detail/mapped_memory.hpp), and the arena's single-copy paths copy such buffers
// with plain loads and stores. Results against MPI's, with guard elements around every buffer, since
// a wrongly translated address would read or write the wrong bytes of the window.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/comm/detail/mapped_memory.hpp>
#include <dash/comm/node_window.hpp>
#include <dash/dash.hpp>

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
      if (peer == me() || window.peer(peer) == nullptr) {
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
