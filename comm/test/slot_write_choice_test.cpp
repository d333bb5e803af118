// detail::SlotWriteChoice, fed made-up timings: which way it picks, how often it tries the other,
// how fast it follows a change; and write_slot's copies.

#include <chrono>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "engine/slot_write_choice.hpp"

namespace {

using dash::comm::detail::SlotWriteChoice;
using namespace std::chrono_literals;

constexpr std::size_t chunk = 128 * 1024;

// Lets `choice` pick `writes` times, each write taking `cached` or `streamed` per KiB; returns how
// many streamed.
int run(SlotWriteChoice& choice, int writes, std::chrono::nanoseconds cached, std::chrono::nanoseconds streamed) {
  int streams = 0;
  for (int i = 0; i < writes; ++i) {
    const bool streaming = choice.streams(chunk);
    streams += streaming ? 1 : 0;
    choice.record(streaming, chunk, (streaming ? streamed : cached) * static_cast<long>(chunk / 1024));
  }
  return streams;
}

TEST(SlotWriteChoice, ShortWritesGoThroughTheCacheUnmeasured) {
  SlotWriteChoice choice;
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(choice.streams(SlotWriteChoice::measured_bytes - 1));
    choice.record(false, SlotWriteChoice::measured_bytes - 1, 1s);
  }
  EXPECT_EQ(choice.cached_cost(), 0);
  EXPECT_EQ(choice.streamed_cost(), 0);
}

TEST(SlotWriteChoice, TriesEachWayOnceThenTakesTheFaster) {
  SlotWriteChoice choice;
  EXPECT_FALSE(choice.streams(chunk));
  choice.record(false, chunk, 400ns * 128);
  EXPECT_TRUE(choice.streams(chunk));
  choice.record(true, chunk, 50ns * 128);
  EXPECT_DOUBLE_EQ(choice.cached_cost(), 400);
  EXPECT_DOUBLE_EQ(choice.streamed_cost(), 50);
  EXPECT_TRUE(choice.streams(chunk));
}

TEST(SlotWriteChoice, StreamsOnlyWhenClearlyFaster) {
  SlotWriteChoice slightly;
  EXPECT_EQ(run(slightly, 2, 30ns, 27ns), 1);  // the one try
  EXPECT_FALSE(slightly.streams(chunk));
  SlotWriteChoice clearly;
  run(clearly, 2, 30ns, 20ns);
  EXPECT_TRUE(clearly.streams(chunk));
}

TEST(SlotWriteChoice, TriesTheSlowerWayRarelyButRegularly) {
  SlotWriteChoice choice;
  run(choice, 2, 30ns, 900ns);
  // 30 times slower: a try every 16 * 8 writes.
  const int tries = run(choice, 16 * 8 * 10, 30ns, 900ns);
  EXPECT_GE(tries, 9);
  EXPECT_LE(tries, 11);
  SlotWriteChoice close;
  run(close, 2, 30ns, 45ns);
  // 1.5 times slower: a try every 24 writes.
  const int close_tries = run(close, 240, 30ns, 45ns);
  EXPECT_GE(close_tries, 9);
  EXPECT_LE(close_tries, 11);
}

TEST(SlotWriteChoice, FollowsTheCoresWhenTheyMove) {
  SlotWriteChoice choice;
  run(choice, 200, 30ns, 800ns);
  ASSERT_FALSE(choice.streams(chunk));
  // The cores moved apart: the cached estimate follows at once, the streamed one at each try of
  // streaming; a few tries later streaming wins, apart from its own tries of the cache.
  EXPECT_LT(run(choice, 16, 600ns, 50ns), 16);
  run(choice, 16 * 8 * 2, 600ns, 50ns);
  EXPECT_GE(run(choice, 100, 600ns, 50ns), 99);
}

TEST(SlotWriteChoice, WriteSlotCopiesEitherWay) {
  SlotWriteChoice choice;
  std::vector<std::byte> source(chunk + 3);
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<std::byte>(i * 7 % 253);
  }
  for (int write = 0; write < 4; ++write) {  // the first two are one through the cache, one streamed
    std::vector<std::byte> slot(chunk + 64, std::byte{0xee});
    dash::comm::detail::write_slot(choice, slot.data() + 8, source.data() + 3, chunk);
    for (std::size_t i = 0; i < slot.size(); ++i) {
      const bool inside = i >= 8 && i < 8 + chunk;
      ASSERT_EQ(slot[i], inside ? source[i - 8 + 3] : std::byte{0xee}) << "write " << write << ", byte " << i;
    }
  }
  EXPECT_GT(choice.cached_cost(), 0);
  EXPECT_GT(choice.streamed_cost(), 0);
}

}  // namespace
