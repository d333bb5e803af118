// dash::Future over GlobRef::get_async / put_async on arrays with one block per unit. The same
// binary runs again with DASH_SHARED_MEMORY=0, where every access to another unit is an MPI one-
// sided transfer that completes later instead of a load/store that is done at once. In order:
// FutureThen (continuations: on done futures, chains that change types and flatten returned
// futures, run once), WhenAll (variadic with void futures mixed in, range), WhenAny, FutureErrors
// (exceptions through chains and when_all, invalid futures), Future (transfers of futures assigned
// over or dropped unwaited).

#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <dash/containers/array.hpp>
#include <dash/core/future.hpp>
#include <dash/core/when_all.hpp>
#include <dash/core/when_any.hpp>
#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "thrown_message.hpp"

namespace {

using dash::testing::mentions;
using dash::testing::thrown_message;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
std::size_t right() { return static_cast<std::size_t>((me() + 1) % P()); }
std::size_t left() { return static_cast<std::size_t>((me() + P() - 1) % P()); }

// An array of `per_unit` elements per unit (one block each), element j of unit u holding
// value(u, j); complete on every unit when the constructor returns.
struct OwnedValues {
  static long value(std::size_t unit, std::size_t j) { return 1000L * static_cast<long>(unit) + static_cast<long>(j); }

  explicit OwnedValues(std::size_t elements_per_unit)
      : per_unit(elements_per_unit), array(elements_per_unit * static_cast<std::size_t>(P())) {
    for (std::size_t j = 0; j < per_unit; ++j) {
      array.local[j] = value(static_cast<std::size_t>(me()), j);
    }
    array.barrier();
  }
  dash::GlobRef<long> at(std::size_t unit, std::size_t j) { return array[unit * per_unit + j]; }

  std::size_t per_unit;
  dash::Array<long> array;
};

TEST(FutureThen, OnADoneFutureRunsInsideThen) {
  int calls = 0;
  dash::Future<int> ready(20);
  dash::Future<int> doubled = std::move(ready).then([&](int v) {
    ++calls;
    return 2 * v;
  });
  EXPECT_EQ(calls, 1);  // before any test/wait/get of the result
  EXPECT_FALSE(ready.valid());  // NOLINT(bugprone-use-after-move): then() consumes the future
  EXPECT_TRUE(doubled.test());
  EXPECT_EQ(doubled.get(), 40);
  EXPECT_EQ(doubled.wait(), 40);  // a done future returns its value again; g ran once
  EXPECT_EQ(calls, 1);

  int void_calls = 0;
  dash::Future<std::string> from_void = dash::Future<void>::ready().then([&] {
    ++void_calls;
    return std::string("done");
  });
  EXPECT_EQ(void_calls, 1);
  EXPECT_EQ(from_void.get(), "done");
}

// Three links change the value type; the fourth returns the future of a put to the right neighbour
// and the fifth that of a read back from there, so the chain's future is the read's (flattened).
TEST(FutureThen, ChainChangesTypesAndFlattensReturnedFutures) {
  OwnedValues owned(2);  // element 0 holds a value; element 1 is written by the left neighbour
  int links = 0;
  auto chain = owned.at(right(), 0)
                   .get_async()
                   .then([&](long v) {
                     ++links;
                     return static_cast<double>(v) / 4;
                   })
                   .then([&](double quarter) {
                     ++links;
                     return std::to_string(static_cast<long>(quarter * 8));
                   })
                   .then([&](const std::string& text) {
                     ++links;
                     return std::stol(text) + 7;
                   })
                   .then([&](long twice_plus_seven) {
                     ++links;
                     return owned.at(right(), 1).put_async(twice_plus_seven);
                   })
                   .then([&] {
                     ++links;
                     return owned.at(right(), 1).get_async();
                   });
  static_assert(std::is_same_v<decltype(chain), dash::Future<long>>);
  const long expected = 2 * OwnedValues::value(right(), 0) + 7;
  EXPECT_EQ(chain.get(), expected);
  EXPECT_EQ(links, 5);
  owned.array.barrier();
  // The left neighbour read this unit's slot 0 and wrote the result here.
  EXPECT_EQ(owned.array.local[1], 2 * OwnedValues::value(static_cast<std::size_t>(me()), 0) + 7);
}

TEST(FutureThen, ContinuationsRunOnceWhateverCallsDriveThem) {
  OwnedValues owned(1);
  int calls = 0;
  dash::Future<long> derived = owned.at(right(), 0).get_async().then([&](long v) {
    ++calls;
    return v + 1;
  });
  while (!derived.test()) {
  }
  EXPECT_EQ(derived.wait(), OwnedValues::value(right(), 0) + 1);
  EXPECT_EQ(derived.get(), OwnedValues::value(right(), 0) + 1);
  EXPECT_EQ(calls, 1);
  owned.array.barrier();
}

TEST(WhenAll, VariadicOverEveryOwnerWithAVoidFutureMixedIn) {
  OwnedValues owned(3);  // slots 0 and 2 are read; slot 1 is written by the left neighbour
  const auto last = static_cast<std::size_t>(P() - 1);
  dash::Future<std::tuple<long, long, double>> all =
      dash::when_all(owned.at(0, 0).get_async(), owned.at(right(), 1).put_async(-1L - me()),
                     owned.at(last, 2).get_async(),
                     owned.at(left(), 0).get_async().then([](long v) { return static_cast<double>(v) / 2; }));
  const auto [first, from_last, half_of_left] = all.get();
  EXPECT_EQ(first, OwnedValues::value(0, 0));
  EXPECT_EQ(from_last, OwnedValues::value(last, 2));
  EXPECT_EQ(half_of_left, static_cast<double>(OwnedValues::value(left(), 0)) / 2);
  owned.array.barrier();
  EXPECT_EQ(owned.array.local[1], -1L - static_cast<long>(left()));

  dash::Future<void> only_puts = dash::when_all(owned.at(right(), 2).put_async(5L), dash::Future<void>::ready(),
                                                owned.at(right(), 0).put_async(6L));
  only_puts.wait();
  owned.array.barrier();
  EXPECT_EQ(owned.array.local[2], 5);
  EXPECT_EQ(owned.array.local[0], 6);
}

TEST(WhenAll, RangeReadsFromEveryUnit) {
  OwnedValues owned(3);
  std::vector<dash::Future<long>> reads;
  for (int unit = 0; unit < P(); ++unit) {
    reads.push_back(owned.at(static_cast<std::size_t>(unit), 2).get_async());
  }
  dash::Future<std::vector<long>> all = dash::when_all(std::move(reads));
  const std::vector<long> values = all.get();
  ASSERT_EQ(values.size(), static_cast<std::size_t>(P()));
  bool ok = true;
  for (std::size_t unit = 0; unit < values.size(); ++unit) {
    ok = ok && values[unit] == OwnedValues::value(unit, 2);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  owned.array.barrier();

  // Slots 0 and 1 of each unit are written by its left neighbour only.
  std::vector<dash::Future<void>> puts;
  puts.push_back(owned.at(right(), 0).put_async(77L + me()));
  puts.push_back(owned.at(right(), 1).put_async(88L + me()));
  dash::Future<void> written = dash::when_all(std::move(puts));
  written.wait();
  owned.array.barrier();
  EXPECT_EQ(owned.array.local[0], 77L + static_cast<long>(left()));
  EXPECT_EQ(owned.array.local[1], 88L + static_cast<long>(left()));

  dash::Future<std::vector<int>> none = dash::when_all(std::vector<dash::Future<int>>());
  EXPECT_TRUE(none.test());
  EXPECT_TRUE(none.get().empty());
  owned.array.barrier();
}

TEST(WhenAny, ReturnsADoneFutureAndLeavesTheOthersToTheCaller) {
  OwnedValues owned(2);  // slot 0 is read; slot 1 is written by the left neighbour
  std::vector<dash::Future<long>> reads;
  for (int unit = 0; unit < P(); ++unit) {
    reads.push_back(owned.at(static_cast<std::size_t>(unit), 0).get_async());
  }
  const std::size_t first = dash::when_any(reads);
  ASSERT_LT(first, reads.size());
  EXPECT_TRUE(reads[first].test());
  bool ok = true;
  for (std::size_t unit = 0; unit < reads.size(); ++unit) {
    ok = ok && reads[unit].valid() && reads[unit].get() == OwnedValues::value(unit, 0);
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));

  int calls = 0;
  dash::Future<long> derived = owned.at(right(), 0).get_async().then([&](long v) {
    ++calls;
    return v * 3;
  });
  dash::Future<void> written = owned.at(right(), 1).put_async(-5L);
  const std::size_t index = dash::when_any(derived, written);
  ASSERT_LT(index, 2U);
  EXPECT_TRUE(index == 0 ? derived.test() : written.test());
  EXPECT_EQ(derived.get(), 3 * OwnedValues::value(right(), 0));
  EXPECT_EQ(calls, 1);  // run by when_any or by get, once
  written.wait();
  owned.array.barrier();
  EXPECT_EQ(owned.array.local[1], -5);

  std::vector<dash::Future<long>> empty;
  const std::string message = thrown_message([&] { dash::when_any(empty); });
  EXPECT_TRUE(mentions(message, "dash::when_any")) << message;
  EXPECT_THROW(dash::when_any(empty), dash::InvalidArgument);
  owned.array.barrier();
}

TEST(FutureErrors, AContinuationsExceptionReachesGetAndLaterLinksDoNotRun) {
  OwnedValues owned(1);
  int before = 0;
  int after = 0;
  dash::Future<long> failed = owned.at(right(), 0)
                                  .get_async()
                                  .then([&](long v) {
                                    ++before;
                                    return v;
                                  })
                                  .then([](long v) -> long {
                                    throw std::runtime_error("link 2 failed at " + std::to_string(v));
                                  })
                                  .then([&](long v) {
                                    ++after;
                                    return v + 1;
                                  })
                                  .then([&](long v) {
                                    ++after;
                                    return v + 1;
                                  });
  while (!failed.test()) {  // done, with an error: test() does not throw
  }
  try {
    failed.get();
    ADD_FAILURE() << "get() returned instead of rethrowing the continuation's exception";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "link 2 failed at " + std::to_string(OwnedValues::value(right(), 0)));
  }
  EXPECT_THROW(failed.wait(), std::runtime_error);  // again, the same error
  EXPECT_EQ(before, 1);
  EXPECT_EQ(after, 0);

  // A failure inside then() itself (its input is done) is stored too, not thrown by then().
  dash::Future<int> failed_at_once = dash::Future<int>(1).then([](int) -> int { throw dash::OutOfRange("at once"); });
  EXPECT_TRUE(failed_at_once.test());
  EXPECT_THROW(failed_at_once.get(), dash::OutOfRange);

  // when_all carries the first error in argument order, after every input is done.
  auto failing = [](const char* what) {
    return dash::Future<int>(0).then([what](int) -> int { throw std::runtime_error(what); });
  };
  dash::Future<std::tuple<long, int, int>> all =
      dash::when_all(owned.at(right(), 0).get_async(), failing("first"), failing("second"));
  const std::string message = [&] {
    try {
      all.get();
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string();
  }();
  EXPECT_EQ(message, "first");
  owned.array.barrier();
}

TEST(FutureErrors, InvalidFuturesThrowInvalidState) {
  dash::Future<int> none;
  EXPECT_FALSE(none.valid());
  EXPECT_TRUE(mentions(thrown_message([&] { none.test(); }), "dash::Future::test"));
  EXPECT_TRUE(mentions(thrown_message([&] { none.wait(); }), "dash::Future::wait"));
  EXPECT_TRUE(mentions(thrown_message([&] { none.get(); }), "dash::Future::get"));
  EXPECT_TRUE(mentions(thrown_message([&] { std::move(none).then([](int v) { return v; }); }), "dash::Future::then"));
  EXPECT_THROW(none.get(), dash::InvalidState);

  dash::Future<void> consumed = dash::Future<void>::ready();
  dash::Future<void> next = std::move(consumed).then([] {});
  EXPECT_THROW(consumed.wait(), dash::InvalidState);  // NOLINT(bugprone-use-after-move)
  next.wait();

  // when_all checks every argument before taking any, so the valid ones stay with the caller.
  dash::Future<int> valid(3);
  dash::Future<int> invalid;
  const std::string message = thrown_message([&] { dash::when_all(std::move(valid), std::move(invalid)); });
  EXPECT_TRUE(mentions(message, "dash::when_all: argument 2 holds no operation")) << message;
  EXPECT_EQ(valid.get(), 3);  // NOLINT(bugprone-use-after-move): when_all threw before taking it
  EXPECT_THROW(dash::when_any(valid, invalid), dash::InvalidState);

  // A continuation that returns an invalid future fails its result's future.
  dash::Future<int> returned_invalid = dash::Future<void>::ready().then([] { return dash::Future<int>(); });
  EXPECT_THROW(returned_invalid.get(), dash::InvalidState);
}

// A future assigned over one still pending finishes the old transfer before its buffer goes (with
// DASH_SHARED_MEMORY=0 the transfers are MPI one-sided operations that complete later).
TEST(Future, AssigningOverAPendingFutureFinishesItFirst) {
  constexpr std::size_t per_unit = 4;
  dash::Array<long> a(per_unit * static_cast<std::size_t>(P()));
  for (std::size_t i = 0; i < per_unit; ++i) {
    a.local[i] = 1000L * me() + static_cast<long>(i);
  }
  a.barrier();
  const auto right = static_cast<std::size_t>((me() + 1) % P());
  bool ok = true;
  for (int round = 0; round < 50; ++round) {
    dash::Future<long> read = a[per_unit * right].get_async();
    read = a[per_unit * right + 1].get_async();
    ok = ok && read.wait() == 1000L * static_cast<long>(right) + 1;
  }
  EXPECT_TRUE(dash::testing::on_all_ranks(ok));
  a.barrier();
}

// A future dropped before it was waited for still completes its transfer (with
// DASH_SHARED_MEMORY=0 the put is an MPI one-sided operation that completes later).
TEST(Future, DroppedUnwaitedFuturesFinishTheirTransfers) {
  OwnedValues owned(1);
  for (int round = 0; round < 20; ++round) {
    static_cast<void>(owned.at(right(), 0).put_async(round + 100L * me()));
  }
  owned.array.barrier();
  EXPECT_EQ(owned.array.local[0], 19 + 100L * static_cast<long>(left()));
}

}  // namespace
