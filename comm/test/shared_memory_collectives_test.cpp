// The intra-node shared-memory collectives (comm/arena/shared_memory_run.hpp) against the MPI
// library's own result, with vectors of many arena chunks (more than the arena has slots, and a
// remainder), a non-commutative operation, interleaved non-blocking calls completed out of order,
// arrivals, sizes around the limits of reading the others' buffers in place, and the reasons the
// arena refuses a call. RefusalsNameTheReason runs again with DASH_SHARED_MEMORY=0, where every
// call must be refused with that reason; the whole suite runs again with DASH_SINGLE_COPY=0, where
// every chunk is staged, and with DASH_STREAMING_STORE_BYTES=1, where every allgather, alltoall and
// broadcast output is written with streaming stores.
//
// Map: arena options and the Affine operation (non-commutative, with its MPI twin); the operations
// against MPI (allreduce, reduce_scatter_block, alltoall, allgather and bcast); interleaved
// requests; calls running ahead through the lines and the packed entries; arrivals; single copy and
// its limits, in-place sources completing after their readers; groups kept out of the arena and the
// refusals' reasons; the broadcast root's writes and chunks.

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/uio.h>
#include <unistd.h>

#include <dash/dash.hpp>

#include "arena/collective_arena.hpp"
#include "arena_inputs.hpp"
#include "dash_testing.hpp"

namespace {

using dash::comm::Coll;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
MPI_Comm world() { return dash::comm::base_comm(); }

Options arena(std::string_view algorithm = "shared_memory") {
  Options options;
  options.algorithm = algorithm;
  return options;
}

bool arena_on() { return dash::comm::config().shared_memory_access; }

using dash::testing::exact_doubles;
using dash::testing::rank_integers;
constexpr std::size_t many = dash::testing::many_arena_chunks;

// x ∘ y = (x.a * y.a, x.b + x.a * y.b): composition of affine maps t -> a t + b modulo 2^64;
// associative, not commutative.
struct Affine {
  std::uint64_t a, b;
  friend bool operator==(const Affine&, const Affine&) = default;
};

Affine compose(const Affine& x, const Affine& y) { return {x.a * y.a, x.b + x.a * y.b}; }

void mpi_compose(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Affine*>(in);
  auto* y = static_cast<Affine*>(inout);
  for (int i = 0; i < *len; ++i) {
    y[i] = compose(x[i], y[i]);
  }
}

std::vector<Affine> affines(std::size_t n, int rank) {
  std::vector<Affine> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = {static_cast<std::uint64_t>(rank) * 2 + 3 + i % 5, static_cast<std::uint64_t>(i) + 11 * static_cast<std::uint64_t>(rank)};
  }
  return values;
}

TEST(SharedMemoryCollectives, AllreduceMatchesMpi) {
  for (const std::string_view algorithm : {"shared_memory", "shared_memory_replicated"})
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{32768}, many}) {
    SCOPED_TRACE(std::string(algorithm) + " n=" + std::to_string(n));
    const std::vector<double> in = exact_doubles(n, me());
    std::vector<double> ours(n, -1);
    std::vector<double> theirs(n, -2);
    dash::comm::allreduce(in, ours, dash::plus{}, Group::world(), arena(algorithm));
    MPI_Allreduce(in.data(), theirs.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, world());
    EXPECT_EQ(ours, theirs);

    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_UINT64_T, &type);
    MPI_Type_commit(&type);
    MPI_Op op = MPI_OP_NULL;
    MPI_Op_create(&mpi_compose, 0, &op);
    const std::vector<Affine> ain = affines(n, me());
    std::vector<Affine> aours(n);
    std::vector<Affine> atheirs(n);
    dash::comm::allreduce(ain, aours, dash::comm::non_commutative(&compose), Group::world(), arena(algorithm));
    MPI_Allreduce(ain.data(), atheirs.data(), static_cast<int>(n), type, op, world());
    EXPECT_EQ(aours, atheirs);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
  }
}

TEST(SharedMemoryCollectives, ReduceScatterBlockMatchesMpi) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{3}, many}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<std::int64_t> in = rank_integers(n * static_cast<std::size_t>(P()), me());
    std::vector<std::int64_t> ours(n, -1);
    std::vector<std::int64_t> theirs(n, -2);
    dash::comm::reduce_scatter_block(in, ours, dash::plus{}, Group::world(), arena());
    MPI_Reduce_scatter_block(in.data(), theirs.data(), static_cast<int>(n), MPI_INT64_T, MPI_SUM, world());
    EXPECT_EQ(ours, theirs);
  }
}

// Blocks of 5.3 slot slices per destination (a slot holds one slice per other process): several
// chunks each, and a remainder.
TEST(SharedMemoryCollectives, AlltoallMatchesMpi) {
  const auto others = static_cast<std::size_t>(std::max(P() - 1, 1));
  const std::size_t slice = 256 * 1024 / others / 64 * 64 / sizeof(std::int64_t);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, 5 * slice + 321}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<std::int64_t> in = rank_integers(n * static_cast<std::size_t>(P()), me());
    std::vector<std::int64_t> ours(in.size(), -1);
    std::vector<std::int64_t> theirs(in.size(), -2);
    dash::comm::alltoall(in, ours, Group::world(), arena());
    MPI_Alltoall(in.data(), static_cast<int>(n), MPI_INT64_T, theirs.data(), static_cast<int>(n), MPI_INT64_T,
                 world());
    EXPECT_EQ(ours, theirs);
  }
}

TEST(SharedMemoryCollectives, AllgatherAndBcastMatchMpi) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, many}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<double> in = exact_doubles(n, me());
    std::vector<double> ours(n * static_cast<std::size_t>(P()), -1);
    std::vector<double> theirs(ours.size(), -2);
    dash::comm::allgather(in, ours, Group::world(), arena());
    MPI_Allgather(in.data(), static_cast<int>(n), MPI_DOUBLE, theirs.data(), static_cast<int>(n), MPI_DOUBLE,
                  world());
    EXPECT_EQ(ours, theirs);
    for (int root = 0; root < P(); ++root) {
      std::vector<double> buffer = me() == root ? exact_doubles(n, root) : std::vector<double>(n, -3);
      dash::comm::bcast(buffer, root, Group::world(), arena());
      EXPECT_EQ(buffer, exact_doubles(n, root)) << "root " << root;
    }
  }
}

// Five arena collectives in flight at once, completed in the reverse order: waiting on the last
// must drive the earlier ones, whose chunks hold the slots it needs.
TEST(SharedMemoryCollectives, InterleavedRequestsCompleteInAnyOrder) {
  const std::vector<double> a = exact_doubles(many, me());
  const std::vector<std::int64_t> b = rank_integers(many, me());
  std::vector<double> summed(many);
  std::vector<std::int64_t> gathered(many * static_cast<std::size_t>(P()));
  std::vector<double> broadcast = me() == P() - 1 ? exact_doubles(many, 42) : std::vector<double>(many);
  auto first = dash::comm::iallreduce(a, summed, dash::plus{}, Group::world(), arena());
  auto second = dash::comm::iallgather(b, gathered, Group::world(), arena());
  auto third = dash::comm::ibcast(broadcast, P() - 1, Group::world(), arena());
  const std::vector<std::int64_t> scattered = rank_integers(many * static_cast<std::size_t>(P()), me() + 3);
  std::vector<std::int64_t> exchanged(scattered.size());
  auto fourth = dash::comm::ialltoall(scattered, exchanged, Group::world(), arena());
  std::vector<std::int64_t> b_summed(many);
  auto fifth = dash::comm::iallreduce(b, b_summed, dash::plus{}, Group::world(), arena("shared_memory_replicated"));
  fifth.wait();
  fourth.wait();
  third.wait();
  second.wait();
  first.wait();
  std::vector<double> expected_sum(many);
  MPI_Allreduce(a.data(), expected_sum.data(), static_cast<int>(many), MPI_DOUBLE, MPI_SUM, world());
  std::vector<std::int64_t> expected_gather(gathered.size());
  MPI_Allgather(b.data(), static_cast<int>(many), MPI_INT64_T, expected_gather.data(), static_cast<int>(many),
                MPI_INT64_T, world());
  std::vector<std::int64_t> expected_exchange(exchanged.size());
  MPI_Alltoall(scattered.data(), static_cast<int>(many), MPI_INT64_T, expected_exchange.data(), static_cast<int>(many),
               MPI_INT64_T, world());
  std::vector<std::int64_t> expected_b_sum(many);
  MPI_Allreduce(b.data(), expected_b_sum.data(), static_cast<int>(many), MPI_INT64_T, MPI_SUM, world());
  EXPECT_EQ(summed, expected_sum);
  EXPECT_EQ(gathered, expected_gather);
  EXPECT_EQ(broadcast, exact_doubles(many, 42));
  EXPECT_EQ(exchanged, expected_exchange);
  EXPECT_EQ(b_summed, expected_b_sum);
}

// Starts `calls` arena broadcasts of buffer_for(call) from root_of(call) all at once, waits for them
// in reverse order and returns the buffers.
template <class MakeBuffer, class RootOf>
auto broadcast_all_in_flight(std::size_t calls, MakeBuffer buffer_for, RootOf root_of) {
  using Buffer = decltype(buffer_for(std::size_t{0}));
  std::vector<Buffer> buffers;
  std::vector<dash::comm::Request<typename Buffer::value_type>> requests;
  for (std::size_t call = 0; call < calls; ++call) {
    buffers.push_back(buffer_for(call));
  }
  for (std::size_t call = 0; call < calls; ++call) {
    requests.push_back(dash::comm::ibcast(buffers[call], root_of(call), Group::world(), arena()));
  }
  for (std::size_t call = calls; call-- > 0;) {
    requests[call].wait();
  }
  return buffers;
}

// Short calls live in the arena's lines, a ring deeper than the slots, so a broadcast's root runs
// many calls ahead of its readers. More calls than lines, of sizes on both sides of a line's
// capacity (the longer ones take the slots in between; alltoall and reduce_scatter_block put the
// slices for all others in one line), from every root, blocking and then all in flight at once
// completed in reverse order: each call delivers its own values.
TEST(SharedMemoryCollectives, ShortCallsRunAheadThroughTheLines) {
  using dash::comm::detail::CollectiveArena;
  constexpr std::size_t line_doubles = CollectiveArena::line_bytes / sizeof(double);
  const std::size_t calls = 3 * CollectiveArena::line_count + 5;
  const auto size_of = [&](std::size_t call) { return call % 4 == 3 ? line_doubles + 1 : 1 + call % line_doubles; };
  const auto root_of = [&](std::size_t call) { return static_cast<int>(call % static_cast<std::size_t>(P())); };
  const auto values = [](std::size_t call, std::size_t n) { return exact_doubles(n, static_cast<int>(call)); };
  const auto buffer_for = [&](std::size_t call) {
    const std::size_t n = size_of(call);
    return me() == root_of(call) ? values(call, n) : std::vector<double>(n, -1);
  };
  std::size_t wrong = 0;
  for (std::size_t call = 0; call < calls; ++call) {
    std::vector<double> buffer = buffer_for(call);
    dash::comm::bcast(buffer, root_of(call), Group::world(), arena());
    wrong += buffer != values(call, buffer.size()) ? 1u : 0u;
    const std::vector<double> contribution = values(call + static_cast<std::size_t>(me()), size_of(call));
    std::vector<double> summed(contribution.size());
    std::vector<double> expected(contribution.size());
    dash::comm::allreduce(contribution, summed, dash::plus{}, Group::world(),
                          arena(call % 2 == 0 ? "shared_memory" : "shared_memory_replicated"));
    MPI_Allreduce(contribution.data(), expected.data(), static_cast<int>(contribution.size()), MPI_DOUBLE, MPI_SUM,
                  world());
    wrong += summed != expected ? 1u : 0u;
    std::vector<double> gathered(contribution.size() * static_cast<std::size_t>(P()));
    std::vector<double> expected_gather(gathered.size());
    dash::comm::allgather(contribution, gathered, Group::world(), arena());
    MPI_Allgather(contribution.data(), static_cast<int>(contribution.size()), MPI_DOUBLE, expected_gather.data(),
                  static_cast<int>(contribution.size()), MPI_DOUBLE, world());
    wrong += gathered != expected_gather ? 1u : 0u;
    // Blocks of the same sizes: the slices for the others fit a line up to line_bytes together.
    const std::size_t block = size_of(call);
    const auto np = static_cast<std::size_t>(P());
    const std::vector<double> blocks = values(call * 3 + static_cast<std::size_t>(me()), block * np);
    std::vector<double> exchanged(blocks.size());
    std::vector<double> expected_exchange(blocks.size());
    dash::comm::alltoall(blocks, exchanged, Group::world(), arena());
    MPI_Alltoall(blocks.data(), static_cast<int>(block), MPI_DOUBLE, expected_exchange.data(), static_cast<int>(block),
                 MPI_DOUBLE, world());
    wrong += exchanged != expected_exchange ? 1u : 0u;
    std::vector<double> scattered(block);
    std::vector<double> expected_scatter(block);
    dash::comm::reduce_scatter_block(blocks, scattered, dash::plus{}, Group::world(), arena());
    MPI_Reduce_scatter_block(blocks.data(), expected_scatter.data(), static_cast<int>(block), MPI_DOUBLE, MPI_SUM,
                             world());
    wrong += scattered != expected_scatter ? 1u : 0u;
  }
  EXPECT_EQ(wrong, 0u) << "blocking calls with wrong results";
  const std::vector<std::vector<double>> buffers = broadcast_all_in_flight(calls, buffer_for, root_of);
  for (std::size_t call = 0; call < calls; ++call) {
    EXPECT_EQ(buffers[call], values(call, buffers[call].size())) << "call " << call << " in flight";
  }
}

// Broadcasts of at most packed_bytes live in the packed entries, four to a cache line. Byte vectors
// of every length up to one past an entry (which takes a line), from every root, more calls than
// entries: blocking, then all in flight at once completed in reverse order. A wrong entry offset or
// stamp mixes the calls' bytes up or leaves a reader waiting on a stale stamp.
TEST(SharedMemoryCollectives, ByteBroadcastsRunAheadThroughThePackedEntries) {
  using dash::comm::detail::CollectiveArena;
  const std::size_t calls = 3 * CollectiveArena::packed_count + 5;
  const auto size_of = [](std::size_t call) { return 1 + call % (CollectiveArena::packed_bytes + 1); };
  const auto root_of = [&](std::size_t call) { return static_cast<int>(call % static_cast<std::size_t>(P())); };
  const auto values = [&](std::size_t call) {
    std::vector<std::uint8_t> bytes(size_of(call));
    std::iota(bytes.begin(), bytes.end(), static_cast<std::uint8_t>(call * 7));  // wraps mod 256
    return bytes;
  };
  const auto buffer_for = [&](std::size_t call) {
    return me() == root_of(call) ? values(call) : std::vector<std::uint8_t>(size_of(call), 0xff);
  };
  std::size_t wrong = 0;
  for (std::size_t call = 0; call < calls; ++call) {
    std::vector<std::uint8_t> buffer = buffer_for(call);
    dash::comm::bcast(buffer, root_of(call), Group::world(), arena());
    wrong += buffer != values(call) ? 1u : 0u;
  }
  EXPECT_EQ(wrong, 0u) << "blocking broadcasts with wrong results";
  const std::vector<std::vector<std::uint8_t>> buffers = broadcast_all_in_flight(calls, buffer_for, root_of);
  for (std::size_t call = 0; call < calls; ++call) {
    EXPECT_EQ(buffers[call], values(call)) << "call " << call << " in flight";
  }
}

// Every output element is reported exactly once, by the contribution it came from, and holds its
// final value when reported.
TEST(SharedMemoryCollectives, ArrivalsCoverTheOutputOnce) {
  const std::vector<double> in = exact_doubles(many, me());
  std::vector<double> out(many * static_cast<std::size_t>(P()));
  std::vector<double> expected(out.size());
  MPI_Allgather(in.data(), static_cast<int>(many), MPI_DOUBLE, expected.data(), static_cast<int>(many), MPI_DOUBLE,
                world());
  std::vector<int> seen(out.size(), 0);
  bool values_final = true;
  bool sources_right = true;
  dash::comm::iallgather(in, out, Group::world(), arena()).for_each_arrival([&](const auto& arrival) {
    const auto first = static_cast<std::size_t>(arrival.data - out.data());
    for (std::size_t i = first; i < first + arrival.count; ++i) {
      ++seen[i];
      values_final = values_final && out[i] == expected[i];
    }
    sources_right = sources_right && static_cast<std::size_t>(arrival.source) == first / many;
  });
  EXPECT_TRUE(values_final);
  EXPECT_TRUE(sources_right);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(seen.size()));
}

// The arena reads the others' buffers in place (process_vm_readv) exactly when DASH_SINGLE_COPY
// allows it and the kernel lets every process of the node read every other's memory, which the
// test finds out on its own.
TEST(SharedMemoryCollectives, SingleCopyIsOnWhereTheKernelAllowsIt) {
  const dash::comm::detail::CollectiveArena* arena_now = dash::comm::detail::collective_arena();
  if (!arena_on()) {
    EXPECT_EQ(arena_now, nullptr);
    return;
  }
  ASSERT_NE(arena_now, nullptr);
  const std::uint64_t secret = 0x5eed0000u + static_cast<std::uint64_t>(me());
  const std::array<std::uint64_t, 3> mine{static_cast<std::uint64_t>(getpid()),
                                          reinterpret_cast<std::uintptr_t>(&secret), secret};
  std::vector<std::uint64_t> everyone(3 * static_cast<std::size_t>(P()));
  MPI_Allgather(mine.data(), 3, MPI_UINT64_T, everyone.data(), 3, MPI_UINT64_T, world());
  int readable = 1;
  for (int peer = 0; peer < P(); ++peer) {
    const std::uint64_t* theirs = &everyone[3 * static_cast<std::size_t>(peer)];
    std::uint64_t seen = 0;
    iovec to{&seen, sizeof seen};
    iovec from{reinterpret_cast<void*>(static_cast<std::uintptr_t>(theirs[1])), sizeof seen};
    const ssize_t read = process_vm_readv(static_cast<pid_t>(theirs[0]), &to, 1, &from, 1, 0);
    readable = readable != 0 && read == static_cast<ssize_t>(sizeof seen) && seen == theirs[2] ? 1 : 0;
  }
  int everywhere = 0;
  MPI_Allreduce(&readable, &everywhere, 1, MPI_INT, MPI_MIN, world());
  EXPECT_EQ(arena_now->single_copy(), dash::comm::config().single_copy && everywhere == 1);
}

// Sizes on both sides of the in-place limits (16 KiB per contribution, read in chunks of 1 MiB),
// every root, blocking and then all in flight at once, completed in reverse order: a source's call
// must not complete before the others read its buffer, which the source then overwrites.
TEST(SharedMemoryCollectives, InPlaceLimitsMatchMpi) {
  constexpr std::size_t kib = 1024 / sizeof(std::int64_t);
  const std::vector<std::size_t> sizes{16 * kib - 1, 16 * kib, 1024 * kib, 1024 * kib + 1, 2048 * kib + 3};
  const auto p = static_cast<std::size_t>(P());
  const auto expected_gather = [&](std::size_t n, int salt) {
    std::vector<std::int64_t> all;
    for (int r = 0; r < P(); ++r) {
      const std::vector<std::int64_t> part = rank_integers(n, r + salt);
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  };
  const auto expected_exchange = [&](std::size_t n) {
    std::vector<std::int64_t> all(n * p);
    for (int r = 0; r < P(); ++r) {
      const std::vector<std::int64_t> theirs = rank_integers(n * p, r + 100);
      std::copy_n(theirs.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(me()) * n),
                  static_cast<std::ptrdiff_t>(n), all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r) * n));
    }
    return all;
  };
  for (const std::size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    for (int root = 0; root < P(); ++root) {
      std::vector<std::int64_t> buffer = me() == root ? rank_integers(n, root) : std::vector<std::int64_t>(n, -3);
      dash::comm::bcast(buffer, root, Group::world(), arena());
      EXPECT_EQ(buffer, rank_integers(n, root)) << "root " << root;
    }
    std::vector<std::int64_t> gathered(n * p, -1);
    dash::comm::allgather(rank_integers(n, me()), gathered, Group::world(), arena());
    EXPECT_EQ(gathered, expected_gather(n, 0));
    std::vector<std::int64_t> exchanged(n * p, -1);
    dash::comm::alltoall(rank_integers(n * p, me() + 100), exchanged, Group::world(), arena());
    EXPECT_EQ(exchanged, expected_exchange(n));
  }
  struct InFlight {
    std::vector<std::int64_t> source, output;
    std::optional<dash::comm::Request<std::int64_t>> request;
  };
  std::vector<InFlight> calls(3 * sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t n = sizes[i];
    const int root = static_cast<int>(i % p);
    InFlight& bcast = calls[3 * i];
    bcast.output = me() == root ? rank_integers(n, root + 7) : std::vector<std::int64_t>(n, -3);
    bcast.request.emplace(dash::comm::ibcast(bcast.output, root, Group::world(), arena()));
    InFlight& gather = calls[3 * i + 1];
    gather.source = rank_integers(n, me() + 1);
    gather.output.assign(n * p, -1);
    gather.request.emplace(dash::comm::iallgather(gather.source, gather.output, Group::world(), arena()));
    InFlight& exchange = calls[3 * i + 2];
    exchange.source = rank_integers(n * p, me() + 100);
    exchange.output.assign(n * p, -1);
    exchange.request.emplace(dash::comm::ialltoall(exchange.source, exchange.output, Group::world(), arena()));
  }
  for (std::size_t i = calls.size(); i-- > 0;) {
    calls[i].request->wait();
    // The call is complete: its buffers are the caller's again.
    std::fill(calls[i].source.begin(), calls[i].source.end(), -9);
    if (i % 3 == 0 && me() == static_cast<int>(i / 3 % p)) {
      EXPECT_EQ(calls[i].output, rank_integers(sizes[i / 3], me() + 7));
      std::fill(calls[i].output.begin(), calls[i].output.end(), -9);
    }
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE("in flight, n=" + std::to_string(sizes[i]));
    const int root = static_cast<int>(i % p);
    if (me() != root) {
      EXPECT_EQ(calls[3 * i].output, rank_integers(sizes[i], root + 7));
    }
    EXPECT_EQ(calls[3 * i + 1].output, expected_gather(sizes[i], 1));
    EXPECT_EQ(calls[3 * i + 2].output, expected_exchange(sizes[i]));
  }
}

// A source of an in-place call (a broadcast's root, every process of an allgather or alltoall)
// must not complete while another process has yet to read its buffer. Rank 0 starts last, when
// the others have started (and lent their buffers) but stopped driving their calls: rank 0 can
// read all it needs, yet its call must stay incomplete until the others, let go, read from it.
TEST(SharedMemoryCollectives, AnInPlaceSourceCompletesOnlyAfterItsReaders) {
  constexpr std::size_t n = 1536 * 1024 / sizeof(std::int64_t);  // two chunks of an allgather
  const auto p = static_cast<std::size_t>(P());
  for (const Coll collective : {Coll::bcast, Coll::allgather, Coll::alltoall}) {
    SCOPED_TRACE(std::string(dash::comm::to_string(collective)));
    const std::size_t in_count = collective == Coll::alltoall ? n * p : n;
    const std::size_t out_count = collective == Coll::bcast ? std::min(n, std::size_t{65536}) : n * p;
    std::vector<std::int64_t> in = rank_integers(in_count, me() + 5);
    std::vector<std::int64_t> out = collective == Coll::bcast && me() == 0 ? rank_integers(out_count, 5)
                                                                           : std::vector<std::int64_t>(out_count, -1);
    const auto start = [&] {
      switch (collective) {
        case Coll::bcast:
          return dash::comm::ibcast(out, 0, Group::world(), arena());
        case Coll::allgather:
          return dash::comm::iallgather(in, out, Group::world(), arena());
        default:
          return dash::comm::ialltoall(in, out, Group::world(), arena());
      }
    };
    int token = 0;
    if (me() == 0) {
      for (int peer = 1; peer < P(); ++peer) {
        MPI_Recv(&token, 1, MPI_INT, peer, 71, world(), MPI_STATUS_IGNORE);
      }
      auto request = start();
      // Staged calls (DASH_SINGLE_COPY=0, or outputs written with streaming stores) lend nothing: a
      // staged broadcast's root may complete at once, and rank 0 may need the others to stage more
      // before its output is whole. There rank 0 polls once (a poll takes every step that is ready)
      // before it lets them go.
      const bool streams = out_count * sizeof(std::int64_t) >= dash::comm::config().streaming_store_bytes;
      if (dash::comm::detail::collective_arena()->single_copy() && !streams && P() > 1) {
        // Rank 0 drives its call until it holds all its output: a call that did not wait for its
        // readers would be complete by then, as nobody else moves meanwhile.
        std::size_t reported = 0;
        bool completed_early = false;
        while (reported < out_count && !completed_early) {
          completed_early = request.test_arrivals([&](const auto& arrival) { reported += arrival.count; });
        }
        completed_early = completed_early || request.test();
        EXPECT_FALSE(completed_early) << "rank 0's call completed before the others read its buffer";
      } else {
        request.test();
      }
      for (int peer = 1; peer < P(); ++peer) {
        MPI_Send(&token, 1, MPI_INT, peer, 72, world());
      }
      request.wait();
    } else {
      // A broadcast's readers start only when let go: nothing of theirs is lent, and they read nothing early.
      std::optional<dash::comm::Request<std::int64_t>> request;
      if (collective != Coll::bcast) {
        request.emplace(start());
      }
      MPI_Send(&token, 1, MPI_INT, 0, 71, world());
      MPI_Recv(&token, 1, MPI_INT, 0, 72, world(), MPI_STATUS_IGNORE);
      if (!request) {
        request.emplace(start());
      }
      request->wait();
    }
    std::vector<std::int64_t> expected(out_count);
    if (collective == Coll::bcast) {
      expected = rank_integers(out_count, 5);
    } else if (collective == Coll::allgather) {
      MPI_Allgather(in.data(), static_cast<int>(n), MPI_INT64_T, expected.data(), static_cast<int>(n), MPI_INT64_T,
                    world());
    } else {
      MPI_Alltoall(in.data(), static_cast<int>(n), MPI_INT64_T, expected.data(), static_cast<int>(n), MPI_INT64_T,
                   world());
    }
    EXPECT_EQ(out, expected);
  }
}

// A group of every rank that is not the world group may start its calls in another order than
// the world group's on each rank (MPI allows it across communicators), so the arena must never
// serve it, not even through a choice the library made for the world group's call of that shape.
TEST(SharedMemoryCollectives, SameSizeGroupsOtherThanTheWorldStayOutOfTheArena) {
  std::vector<int> everyone(static_cast<std::size_t>(P()));
  std::iota(everyone.begin(), everyone.end(), 0);
  const Group all_but_world = Group::of_base_ranks(everyone, dash::comm::TagSpace{30000, 16});
  const std::vector<double> a = exact_doubles(4096, me());
  const std::vector<double> b = exact_doubles(4096, me() + 7);
  std::vector<double> world_sum(a.size());
  std::vector<double> group_sum(b.size());
  dash::comm::allreduce(a, world_sum, dash::plus{}, Group::world());  // the choice for this shape is made
  std::vector<double> expected_world(a.size());
  std::vector<double> expected_group(b.size());
  MPI_Allreduce(a.data(), expected_world.data(), static_cast<int>(a.size()), MPI_DOUBLE, MPI_SUM, world());
  MPI_Allreduce(b.data(), expected_group.data(), static_cast<int>(b.size()), MPI_DOUBLE, MPI_SUM, world());
  // Progress is per request, so every rank waits in the same order; only the starts differ.
  for (int round = 0; round < 3; ++round) {
    std::optional<dash::comm::Request<double>> on_world;
    std::optional<dash::comm::Request<double>> on_group;
    if (me() % 2 == 0) {
      on_world.emplace(dash::comm::iallreduce(a, world_sum, dash::plus{}, Group::world()));
      on_group.emplace(dash::comm::iallreduce(b, group_sum, dash::plus{}, all_but_world));
    } else {
      on_group.emplace(dash::comm::iallreduce(b, group_sum, dash::plus{}, all_but_world));
      on_world.emplace(dash::comm::iallreduce(a, world_sum, dash::plus{}, Group::world()));
    }
    on_world->wait();
    on_group->wait();
    EXPECT_EQ(world_sum, expected_world);
    EXPECT_EQ(group_sum, expected_group);
  }
}

TEST(SharedMemoryCollectives, RefusalsNameTheReason) {
  std::vector<double> in(4, 1.0);
  std::vector<double> out(4);
  const Group self = Group::of_base_ranks({me()}, dash::comm::TagSpace{20000 + me() * 8, 8});
  try {
    dash::comm::allreduce(in, out, dash::plus{}, arena_on() ? self : Group::world(), arena());
    FAIL() << "no exception";
  } catch (const dash::InvalidArgument& error) {
    const std::string expected =
        arena_on() ? "it runs on the world group and on teams with an arena channel (the teams of a split of "
                     "Team::All() and of their splits; a channel's chunk tickets follow its group's call order)"
                   : "it needs shared memory, which DASH_SHARED_MEMORY=0 turned off";
    EXPECT_EQ(std::string(error.what()),
              "dash::comm::allreduce: algorithm 'shared_memory' (forced by Options::algorithm) cannot serve this "
              "call: " + expected);
  }
  // A user-chosen segment count whose chunks would overflow a slot.
  if (arena_on()) {
    std::vector<double> large(many);
    std::vector<double> result(many);
    Options options = arena();
    options.segments = 2;
    EXPECT_THROW(dash::comm::allreduce(large, result, dash::plus{}, Group::world(), options), dash::InvalidArgument);
  }
  const dash::comm::Choice choice = dash::comm::explain(Coll::allreduce, 1 << 20, Group::world());
  for (const dash::comm::Candidate& candidate : choice.candidates) {
    if (candidate.algorithm == "shared_memory") {
      EXPECT_EQ(candidate.unfit.empty(), arena_on()) << candidate.unfit;
    }
  }
}

// An in-place broadcast's root writes part of every chunk straight into the readers' outputs
// (process_vm_writev): those bytes must land exactly in the reader's buffer, element sizes and
// counts that split chunks unevenly included, and never around it or in the root's own buffer.
TEST(SharedMemoryCollectives, BroadcastRootsWriteOnlyIntoTheReadersBuffers) {
  constexpr std::size_t guard = 4096 + 3;
  const auto check = [](auto sentinel, std::size_t n, int root) {
    using T = decltype(sentinel);
    std::vector<T> padded(n + 2 * guard, sentinel);
    const std::span<T> buffer(padded.data() + guard, n);
    const auto value = [root](std::size_t i) { return static_cast<T>(i * 7 + static_cast<std::size_t>(root) + 1); };
    if (me() == root) {
      for (std::size_t i = 0; i < n; ++i) {
        buffer[i] = value(i);
      }
    }
    dash::comm::bcast(buffer, root, Group::world(), arena());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < padded.size(); ++i) {
      const bool inside = i >= guard && i < guard + n;
      wrong += padded[i] != (inside ? value(i - guard) : sentinel) ? std::size_t{1} : std::size_t{0};
    }
    EXPECT_EQ(wrong, 0u) << "element size " << sizeof(T) << ", n=" << n << ", root " << root;
  };
  for (const std::size_t bytes : {std::size_t{16} << 10, (std::size_t{1} << 20) + 3, (std::size_t{2} << 20) + 5}) {
    for (int root = 0; root < P(); ++root) {
      check(std::uint8_t{0xEE}, bytes + 1, root);
      check(std::int64_t{-5}, bytes / sizeof(std::int64_t) + 1, root);
    }
  }
}

// A broadcast's chunks: up to 4 MiB read in place in chunks of 1 MiB where the arena allows
// cross-memory reads and the output does not stream; staged, longer than the four slots, in whole
// slots (docs/collectives.md).
TEST(SharedMemoryCollectives, BroadcastChunksFollowHowTheyMove) {
  const bool single_copy = arena_on() && dash::comm::detail::collective_arena()->single_copy();
  for (const std::size_t bytes : {std::size_t{2} << 20, (std::size_t{3} << 20) + 5, std::size_t{4} << 20,
                                  (std::size_t{4} << 20) + 8}) {
    const bool in_place =
        single_copy && bytes <= (std::size_t{4} << 20) && bytes < dash::comm::config().streaming_store_bytes;
    const std::size_t chunk = in_place ? std::size_t{1} << 20 : dash::comm::detail::CollectiveArena::slot_bytes;
    for (const dash::comm::Candidate& candidate : dash::comm::explain(Coll::bcast, bytes, Group::world()).candidates) {
      if (candidate.algorithm == "shared_memory") {
        ASSERT_TRUE(candidate.unfit.empty()) << candidate.unfit;
        EXPECT_EQ(candidate.segments, (bytes + chunk - 1) / chunk) << bytes << " bytes";
        EXPECT_LE(candidate.block_bytes, chunk) << bytes << " bytes";
      }
    }
  }
}

}  // namespace
