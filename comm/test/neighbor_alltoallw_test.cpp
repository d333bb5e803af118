// neighbor_alltoallw on a ring: boxes of a row-major array travel to both neighbours and arrive
// once each; a receive that gets fewer or more bytes than its layout holds throws on the receiver;
// a member whose channels fail the checks throws its own error while its peers throw for the
// missing bytes, and nobody waits. Every call takes one tag on every member, so the group stays
// usable after these errors: each test ends with a correct exchange.

#include <array>
#include <cstddef>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::testing::mentions;
using dash::testing::thrown_message;
using dash::comm::Group;
using dash::comm::Layout;
using dash::comm::ReceiveChannel;
using dash::comm::SendChannel;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
int right() { return (me() + 1) % P(); }
int left() { return (me() + P() - 1) % P(); }

// Each member sends `sent` ints to its right neighbour, which expects `expected`; returns what
// the receive holds (valid when the call completed).
std::vector<int> send_right(std::size_t sent, std::size_t expected, std::string& error) {
  const std::vector<int> out(sent, me() + 1);
  std::vector<int> in(expected, -1);
  const std::array sends{SendChannel{right(), out.data(), Layout::contiguous(sent, sizeof(int))}};
  const std::array receives{ReceiveChannel{left(), in.data(), Layout::contiguous(expected, sizeof(int))}};
  error = thrown_message([&] { dash::comm::neighbor_alltoallw(sends, receives, Group::world()); });
  return in;
}

// A correct exchange: the group's tags still match on every member.
void expect_a_correct_exchange() {
  std::string error;
  const std::vector<int> in = send_right(16, 16, error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(in, std::vector<int>(16, left() + 1));
}

// The two halo columns of a rows x columns array (first and last column) are filled from the
// neighbours' inner columns next to them: boxes, not contiguous runs.
TEST(NeighborAlltoallw, BoxesReachBothNeighboursAndArriveOnceEach) {
  constexpr std::size_t rows = 5;
  constexpr std::size_t columns = 6;
  const std::array<std::size_t, 2> extents{rows, columns};
  const std::array<std::size_t, 2> column{rows, 1};
  auto box_at = [&](std::size_t first_column) {
    const std::array<std::size_t, 2> first{0, first_column};
    return Layout::box(extents, first, column, sizeof(int));
  };
  std::vector<int> cells(rows * columns, -1);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 1; c + 1 < columns; ++c) {
      cells[r * columns + c] = me() * 1000 + static_cast<int>(r * columns + c);
    }
  }
  const std::array sends{SendChannel{left(), cells.data(), box_at(1)},
                         SendChannel{right(), cells.data(), box_at(columns - 2)}};
  // receives[0]: from the right, its first inner column; receives[1]: from the left, its last. The
  // k-th send towards a peer meets the k-th receive from it, so with P <= 2, where both
  // neighbours are one process, the order of the receives pairs them with the right sends.
  const std::array receives{ReceiveChannel{right(), cells.data(), box_at(columns - 1)},
                            ReceiveChannel{left(), cells.data(), box_at(0)}};
  // The sends must stay unchanged until the exchange completes, so the halo columns are received
  // in place while the inner columns are read: they do not overlap.
  std::multiset<std::size_t> arrived;
  auto request = dash::comm::ineighbor_alltoallw(sends, receives, Group::world());
  request.for_each_arrival([&](std::size_t index) { arrived.insert(index); });
  EXPECT_EQ(arrived, (std::multiset<std::size_t>{0, 1}));
  for (std::size_t r = 0; r < rows; ++r) {
    EXPECT_EQ(cells[r * columns], left() * 1000 + static_cast<int>(r * columns + columns - 2)) << "row " << r;
    EXPECT_EQ(cells[r * columns + columns - 1], right() * 1000 + static_cast<int>(r * columns + 1)) << "row " << r;
  }
}

// The last member sends its right neighbour 9 or 11 ints where 10 are expected.
TEST(NeighborAlltoallw, AShortOrLongMessageThrowsOnItsReceiver) {
  for (const std::size_t sent : {9u, 11u}) {
    SCOPED_TRACE("sent " + std::to_string(sent));
    std::string error;
    send_right(me() == P() - 1 ? sent : 10, 10, error);
    if (left() == P() - 1) {
      // Alone, the member checks its channels to itself before anything moves.
      const std::string alone = "expected " + std::to_string(sent * sizeof(int)) + ", the bytes of sends[0]";
      const std::string why = P() == 1 ? alone : sent < 10 ? "delivered 36" : "delivered more";
      EXPECT_TRUE(mentions(error, "dash::comm::neighbor_alltoallw") &&
                  mentions(error, "receives[0].layout.bytes()' = 40") && mentions(error, why))
          << error;
    } else {
      EXPECT_EQ(error, "");
    }
    expect_a_correct_exchange();
  }
}

// The last member lists a send without data; it throws for that, its right neighbour for the
// empty message it got instead.
TEST(NeighborAlltoallw, AMemberFailingItsChecksDoesNotHangItsPeers) {
  const bool failing = me() == P() - 1;
  const bool receives_from_failing = left() == P() - 1;
  const std::vector<int> out(10, me() + 1);
  std::vector<int> in(10, -1);
  const std::array sends{SendChannel{right(), failing ? nullptr : out.data(), Layout::contiguous(10, sizeof(int))}};
  const std::array receives{ReceiveChannel{left(), in.data(), Layout::contiguous(10, sizeof(int))}};
  const std::string error = thrown_message([&] { dash::comm::neighbor_alltoallw(sends, receives, Group::world()); });
  if (failing) {
    EXPECT_TRUE(mentions(error, "dash::comm::neighbor_alltoallw") && mentions(error, "sends[0].base")) << error;
    EXPECT_EQ(in, std::vector<int>(10, -1)) << "a failed call leaves its receive buffers alone";
  } else if (receives_from_failing) {
    EXPECT_TRUE(mentions(error, "delivered 0")) << error;
  } else {
    EXPECT_EQ(error, "");
    EXPECT_EQ(in, std::vector<int>(10, left() + 1));
  }
  expect_a_correct_exchange();
}

// A receive from itself that no send to itself matches would wait forever.
TEST(NeighborAlltoallw, UnmatchedChannelsToItselfAreRejected) {
  std::vector<int> in(4, -1);
  const std::vector<int> out(4, me());
  const std::array receives{ReceiveChannel{me(), in.data(), Layout::contiguous(4, sizeof(int))}};
  const std::array sends{SendChannel{me(), out.data(), Layout::contiguous(4, sizeof(int))}};
  const std::string no_send = thrown_message([&] {
    dash::comm::neighbor_alltoallw(std::span<const SendChannel>{}, receives, Group::world());
  });
  EXPECT_TRUE(mentions(no_send, "'receives[0].peer' = " + std::to_string(me())) &&
              mentions(no_send, "only 0 send(s) to itself"))
      << no_send;
  const std::string no_receive = thrown_message([&] {
    dash::comm::neighbor_alltoallw(sends, std::span<const ReceiveChannel>{}, Group::world());
  });
  EXPECT_TRUE(mentions(no_receive, "'sends[0].peer' = " + std::to_string(me())) &&
              mentions(no_receive, "only 0 receive(s) from itself"))
      << no_receive;
  expect_a_correct_exchange();
}

TEST(NeighborAlltoallw, EveryMemberFailingReportsItsOwnError) {
  std::vector<int> in(10, -1);
  const std::array sends{SendChannel{right(), nullptr, Layout::contiguous(10, sizeof(int))}};
  const std::array receives{ReceiveChannel{left(), in.data(), Layout::contiguous(10, sizeof(int))}};
  const std::string error = thrown_message([&] { dash::comm::neighbor_alltoallw(sends, receives, Group::world()); });
  EXPECT_TRUE(mentions(error, "sends[0].base")) << error;
  expect_a_correct_exchange();
}

}  // namespace
