#pragma once
// neighbor_alltoallw: a personalised exchange with explicitly listed peers in which every message
// has its own layout (MPI_Ineighbor_alltoallw's role, without building a graph communicator):
// the halo exchange of a stencil, whose faces are boxes of different shapes (Kowalewski 2021 §5.3.1).
//
// Each member lists what it sends (peer, base, layout) and what it receives. Between two members,
// the k-th send one lists towards the other matches the k-th receive the other lists from it, so
// both sides must list their channels with a given peer in the same order, with equal byte counts.
// Data moves as one message per channel with the layout's derived datatype: no packing. The call
// is collective in the sense of tags: all members of `group` call it in the same order as their
// other collectives on the group, and its messages never match theirs.
//
// The request reports each receive the moment its data is in place (partial completion), so a
// stencil can update the cells next to one face while others are still in flight. A receive that
// gets fewer or more bytes than its layout holds throws dash::InvalidArgument from test() or
// wait() instead of leaving stale or cut-off data behind. A member whose channel lists fail the
// checks still takes part, with empty messages and discarded receives, before it throws: its
// peers' calls then throw for the missing bytes instead of waiting for it.
//
// A call with up to 26 sends and 26 receives (a 3-D halo's neighbours) makes no heap allocation:
// the request keeps its tables in place, so that a time-step loop allocates nothing per step.

#include <cstddef>
#include <span>

#include <boost/container/small_vector.hpp>
#include <mpi.h>

#include <dash/comm/group.hpp>
#include <dash/comm/layout.hpp>

namespace dash::comm {

struct SendChannel {
  int peer = 0;  // group rank
  const void* base = nullptr;
  Layout layout;
};

struct ReceiveChannel {
  int peer = 0;  // group rank
  void* base = nullptr;
  Layout layout;
};

class NeighborRequest {
public:
  // An empty request: complete, nothing to report.
  NeighborRequest() = default;
  NeighborRequest(NeighborRequest&& other) noexcept;
  NeighborRequest& operator=(NeighborRequest&& other) noexcept;
  NeighborRequest(const NeighborRequest&) = delete;
  NeighborRequest& operator=(const NeighborRequest&) = delete;
  // Completes the exchange first (blocking): buffers are never left in MPI's hands.
  ~NeighborRequest();

  // Advances the exchange; true once every send and receive completed. Throws
  // dash::InvalidArgument when a completed receive got other than its layout's bytes (the
  // exchange goes on: the other channels still complete).
  bool test();
  void wait();
  bool done() const noexcept { return pending_ == 0; }

  // Calls f(receive index) for every receive that completed and was not reported yet, without
  // waiting; true once the whole exchange completed.
  template <class F>
  bool test_arrivals(F&& f) {
    const bool complete = test();
    for (const std::size_t index : arrived_) {
      f(index);
    }
    arrived_.clear();
    return complete;
  }

  // Calls f(receive index) for each receive as it completes; returns when all are done.
  template <class F>
  void for_each_arrival(F&& f) {
    while (!test_arrivals(f)) {
    }
  }

private:
  friend NeighborRequest ineighbor_alltoallw(std::span<const SendChannel>, std::span<const ReceiveChannel>,
                                             const Group&);

  void complete_all() noexcept;

  // What each receive expects: the peer's group rank and the layout's bytes.
  struct Expected {
    int peer = 0;
    std::size_t bytes = 0;
  };

  // Channels each way kept in place: the 3^3 - 1 regions of a 3-D halo; more spill to the heap.
  static constexpr std::size_t inline_channels = 26;
  template <class T, std::size_t PerChannel>
  using Table = boost::container::small_vector<T, PerChannel * inline_channels>;

  Table<MPI_Request, 2> requests_;  // the receives first, then the sends
  std::size_t receives_ = 0;
  std::size_t pending_ = 0;
  Table<Expected, 1> expected_;      // per receive
  Table<int, 2> completed_;          // MPI_Testsome's scratch
  Table<MPI_Status, 2> statuses_;    // MPI_Testsome's scratch
  Table<std::size_t, 1> arrived_;    // receives completed but not reported yet
};

// Posts every receive and send; the data of the channels must stay valid and the send data
// unchanged until the request completes. Throws dash::InvalidArgument for a peer outside the
// group or a null base with a non-empty layout, after exchanging empty messages with the valid
// peers (see above).
NeighborRequest ineighbor_alltoallw(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                                    const Group& group);

inline void neighbor_alltoallw(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                               const Group& group) {
  ineighbor_alltoallw(sends, receives, group).wait();
}

}  // namespace dash::comm
