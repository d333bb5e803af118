// reduce_scatter with varying counts against MPI_Reduce_scatter: every algorithm, forced and by
// default (those that cannot serve varying counts must refuse, saying why); counts with zeros, all
// zero, all one, odd, uneven and about 1 MiB in all; int, double and a struct with a user
// commutative operation; a non-commutative operation (2x2 matrix product) against a reference
// combined in rank order; in place; the non-blocking form with arrivals; bad arguments.
//
// Map: CountPattern and patterns (the counts); the value types and their inputs (doubles, Extent with
// its MPI operation, 2x2 Matrix in rank order); candidates, forced, refusal_reason and the refusal
// helpers; the tests: every algorithm against MPI, the non-commutative operation, in place,
// arrivals, bad arguments.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <dash/dash.hpp>

namespace {

using dash::comm::Coll;
using dash::comm::Group;
using dash::comm::Options;

int P() { return static_cast<int>(dash::size()); }
int me() { return dash::myid(); }
std::size_t my_index() { return static_cast<std::size_t>(me()); }
MPI_Comm world() { return dash::comm::base_comm(); }

struct CountPattern {
  std::string name;
  std::vector<std::size_t> counts;

  std::size_t total() const { return std::accumulate(counts.begin(), counts.end(), std::size_t{0}); }
  std::size_t offset_of(std::size_t member) const {
    return std::accumulate(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(member), std::size_t{0});
  }
  std::vector<int> mpi_counts() const { return {counts.begin(), counts.end()}; }
};

std::vector<CountPattern> patterns() {
  const auto p = static_cast<std::size_t>(P());
  const auto make = [p](std::string name, const std::function<std::size_t(std::size_t)>& count_of) {
    CountPattern pattern{std::move(name), std::vector<std::size_t>(p)};
    for (std::size_t q = 0; q < p; ++q) {
      pattern.counts[q] = count_of(q);
    }
    return pattern;
  };
  // About 1 MiB of ints in all, member q's block growing with q.
  const std::size_t large_unit = (std::size_t{1} << 19) / (p * (p + 1));
  return {
      make("some zero", [](std::size_t q) { return q % 3 == 1 ? std::size_t{0} : q + 3; }),
      make("all zero", [](std::size_t) { return std::size_t{0}; }),
      make("all one", [](std::size_t) { return std::size_t{1}; }),
      make("odd", [](std::size_t q) { return 2 * q + 1; }),
      make("uneven", [p](std::size_t q) { return q == p / 2 ? std::size_t{300} : (5 * q + 2) % 9; }),
      make("large", [large_unit](std::size_t q) { return large_unit * (q + 1) + q % 2; }),
  };
}

// Member `rank`'s input, element i: a function of both, so any member can compute any input.
int int_value(int rank, std::size_t i) { return (rank + 1) * 1000 + static_cast<int>(i % 977) - 300; }

// Multiples of 1/4 far below 2^53: sums are exact in any order.
double double_value(int rank, std::size_t i) {
  return 0.25 * static_cast<double>(rank + 1) + 0.5 * static_cast<double>(i % 31);
}

// Sum, minimum and maximum at once: a user type with a commutative operation.
struct Extent {
  std::int64_t total;
  std::int32_t low;
  std::int32_t high;
  friend bool operator==(const Extent&, const Extent&) = default;
};

Extent widen(const Extent& x, const Extent& y) {
  return {x.total + y.total, std::min(x.low, y.low), std::max(x.high, y.high)};
}

Extent extent_value(int rank, std::size_t i) {
  const auto k = static_cast<std::int32_t>(i % 1013);
  return {std::int64_t{rank} * 100000 + k, (rank * 7 + k) % 23, (rank * 11 + k) % 29};
}

void mpi_widen(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* x = static_cast<const Extent*>(in);
  auto* y = static_cast<Extent*>(inout);
  for (int i = 0; i < *len; ++i) {
    y[i] = widen(x[i], y[i]);
  }
}

struct Extents {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  Extents() {
    const int lengths[3] = {1, 1, 1};
    const MPI_Aint displacements[3] = {offsetof(Extent, total), offsetof(Extent, low), offsetof(Extent, high)};
    const MPI_Datatype types[3] = {MPI_INT64_T, MPI_INT32_T, MPI_INT32_T};
    MPI_Datatype packed = MPI_DATATYPE_NULL;
    MPI_Type_create_struct(3, lengths, displacements, types, &packed);
    MPI_Type_create_resized(packed, 0, sizeof(Extent), &type);
    MPI_Type_free(&packed);
    MPI_Type_commit(&type);
    MPI_Op_create(&mpi_widen, 1, &op);
  }
  ~Extents() {
    MPI_Op_free(&op);
    MPI_Type_free(&type);
  }
  Extents(const Extents&) = delete;
  Extents& operator=(const Extents&) = delete;
};

const auto extent_op = dash::comm::commutative(&widen);

// 2x2 matrices of unsigned 32-bit integers: their product (mod 2^32) is associative and not
// commutative.
struct Matrix {
  std::uint32_t a, b, c, d;
  friend bool operator==(const Matrix&, const Matrix&) = default;
};

Matrix multiply(const Matrix& x, const Matrix& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}

Matrix matrix_value(int rank, std::size_t i) {
  const auto r = static_cast<std::uint32_t>(rank);
  const auto k = static_cast<std::uint32_t>(i);
  return {r + 1, k + 2, r * 3 + k, 5 + r * k};
}

const auto matrix_product = dash::comm::non_commutative(&multiply);

template <class T>
std::vector<T> input_of(const CountPattern& pattern, T (*value)(int, std::size_t)) {
  std::vector<T> in(pattern.total());
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = value(me(), i);
  }
  return in;
}

// This member's block of in_0 · in_1 · ... · in_{p-1}, multiplied in rank order.
std::vector<Matrix> rank_ordered_product(const CountPattern& pattern) {
  const std::size_t first = pattern.offset_of(my_index());
  std::vector<Matrix> product(pattern.counts[my_index()]);
  for (std::size_t i = 0; i < product.size(); ++i) {
    product[i] = matrix_value(0, first + i);
    for (int rank = 1; rank < P(); ++rank) {
      product[i] = multiply(product[i], matrix_value(rank, first + i));
    }
  }
  return product;
}

template <class T>
std::vector<T> mpi_reduce_scatter(const std::vector<T>& in, const CountPattern& pattern, MPI_Datatype type,
                                  MPI_Op op) {
  std::vector<T> out(pattern.counts[my_index()]);
  const std::vector<int> counts = pattern.mpi_counts();
  MPI_Reduce_scatter(in.data(), out.data(), counts.data(), type, op, world());
  return out;
}

// The algorithms to try: each registered one, and "" for the library's own choice.
std::vector<std::string> candidates() {
  std::vector<std::string> names{""};
  for (const std::string_view name : dash::comm::algorithms(Coll::reduce_scatter)) {
    names.emplace_back(name);
  }
  return names;
}

Options forced(std::string_view algorithm) {
  Options options;
  options.algorithm = std::string(algorithm);
  return options;
}

// Why `algorithm` must refuse varying counts, or "" if it serves them. Pairwise keeps only the
// member's own block in scratch space; ring stages other members' partial sums there from p = 3
// on (and needs a commutative operation); recursive halving stages the whole vector; the
// shared-memory arena cuts blocks of one size into chunks.
std::string refusal_reason(std::string_view algorithm, bool commutative) {
  if (algorithm.empty() || algorithm == "pairwise") {
    return {};
  }
  if (algorithm == "shared_memory" || algorithm == "distance_halving" || algorithm == "torus_order" ||
      algorithm.starts_with("bucket")) {
    return "it needs contributions of one size";
  }
  if (algorithm == "ring") {
    if (!commutative) {
      return "needs a commutative operation";
    }
    return P() <= 2 ? std::string() : "stages blocks in scratch space";
  }
  return "stages blocks in scratch space";
}

std::string label(std::string_view algorithm, const CountPattern& pattern) {
  return (algorithm.empty() ? std::string("default") : std::string(algorithm)) + ", counts: " + pattern.name;
}

// Runs `call`, which every rank makes alike, and returns the message of the InvalidArgument it
// throws, or "" if it completes. Alike on every rank, the call throws everywhere or nowhere, so a
// wrong expectation fails the test without leaving any rank waiting.
std::string refusal_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const dash::InvalidArgument& error) {
    return error.what();
  }
  return {};
}

void expect_refused(const std::function<void()>& call, const std::string& reason) {
  const std::string message = refusal_of(call);
  EXPECT_NE(message.find("cannot serve this call"), std::string::npos) << message;
  EXPECT_NE(message.find(reason), std::string::npos) << message;
}

TEST(ReduceScatter, MatchesMpiForEveryAlgorithm) {
  const Extents extents;
  for (const CountPattern& pattern : patterns()) {
    const std::vector<int> ints = input_of(pattern, &int_value);
    const std::vector<double> doubles = input_of(pattern, &double_value);
    const std::vector<Extent> extent_input = input_of(pattern, &extent_value);
    const auto int_expected = mpi_reduce_scatter(ints, pattern, MPI_INT, MPI_SUM);
    const auto double_expected = mpi_reduce_scatter(doubles, pattern, MPI_DOUBLE, MPI_SUM);
    const auto extent_expected = mpi_reduce_scatter(extent_input, pattern, extents.type, extents.op);
    const std::size_t mine = pattern.counts[my_index()];
    for (const std::string& algorithm : candidates()) {
      SCOPED_TRACE(label(algorithm, pattern));
      std::vector<int> int_out(mine, -1);
      std::vector<double> double_out(mine, -1.0);
      std::vector<Extent> extent_out(mine, Extent{-1, -1, -1});
      const auto run_ints = [&] {
        dash::comm::reduce_scatter(ints, pattern.counts, int_out, dash::plus{}, Group::world(), forced(algorithm));
      };
      if (const std::string reason = refusal_reason(algorithm, true); !reason.empty()) {
        expect_refused(run_ints, reason);
        continue;
      }
      run_ints();
      EXPECT_EQ(int_out, int_expected);
      dash::comm::reduce_scatter(doubles, pattern.counts, double_out, dash::plus{}, Group::world(), forced(algorithm));
      EXPECT_EQ(double_out, double_expected);
      dash::comm::reduce_scatter(extent_input, pattern.counts, extent_out, extent_op, Group::world(),
                                 forced(algorithm));
      EXPECT_EQ(extent_out, extent_expected);
    }
  }
}

TEST(ReduceScatter, NonCommutativeOperationKeepsRankOrder) {
  for (const CountPattern& pattern : patterns()) {
    const std::vector<Matrix> in = input_of(pattern, &matrix_value);
    const std::vector<Matrix> expected = rank_ordered_product(pattern);
    for (const std::string& algorithm : candidates()) {
      SCOPED_TRACE(label(algorithm, pattern));
      std::vector<Matrix> out(pattern.counts[my_index()], Matrix{0, 0, 0, 0});
      const auto run = [&] {
        dash::comm::reduce_scatter(in, pattern.counts, out, matrix_product, Group::world(), forced(algorithm));
      };
      if (const std::string reason = refusal_reason(algorithm, false); !reason.empty()) {
        expect_refused(run, reason);
        continue;
      }
      run();
      EXPECT_EQ(out, expected);
    }
  }
}

TEST(ReduceScatter, InPlace) {
  for (const CountPattern& pattern : patterns()) {
    SCOPED_TRACE(pattern.name);
    std::vector<int> data = input_of(pattern, &int_value);
    const auto expected = mpi_reduce_scatter(data, pattern, MPI_INT, MPI_SUM);
    const auto own = std::span<int>(data).subspan(pattern.offset_of(my_index()), pattern.counts[my_index()]);
    dash::comm::reduce_scatter(data, pattern.counts, own, dash::plus{});
    EXPECT_TRUE(std::equal(own.begin(), own.end(), expected.begin(), expected.end()));
  }
}

TEST(ReduceScatter, ArrivalsReportEverySegmentOnceWithItsFinalValue) {
  constexpr std::uint32_t segments = 4;
  for (const CountPattern& pattern : patterns()) {
    for (const bool commutative : {true, false}) {
      SCOPED_TRACE(pattern.name + (commutative ? ", int sum" : ", matrix product"));
      const std::size_t n = pattern.counts[my_index()];
      Options options = forced("pairwise");
      options.segments = segments;
      std::set<std::size_t> reported;
      std::size_t elements = 0;
      const auto check_arrival = [&](std::size_t block, std::size_t count, std::size_t first) {
        EXPECT_TRUE(reported.insert(block).second) << "segment " << block << " reported twice";
        ASSERT_LT(block, std::size_t{segments});
        EXPECT_EQ(first, block * n / segments);
        EXPECT_EQ(count, (block + 1) * n / segments - block * n / segments);
        elements += count;
      };
      // Runs the non-blocking call and checks each arrival against `expected` as it lands.
      const auto run = [&](const auto& in, const auto& expected, auto out, auto op) {
        using T = typename decltype(out)::value_type;
        auto request = dash::comm::ireduce_scatter(in, pattern.counts, out, op, Group::world(), options);
        request.for_each_arrival([&](const dash::comm::Arrival<T>& arrival) {
          EXPECT_EQ(arrival.source, -1);
          const auto first = static_cast<std::size_t>(arrival.data - out.data());
          check_arrival(arrival.block, arrival.count, first);
          // Final when reported: compare right away.
          EXPECT_TRUE(std::equal(arrival.data, arrival.data + arrival.count,
                                 expected.begin() + static_cast<std::ptrdiff_t>(first)));
        });
        EXPECT_TRUE(request.done());
        EXPECT_EQ(out, expected);
      };
      if (commutative) {
        const std::vector<int> in = input_of(pattern, &int_value);
        run(in, mpi_reduce_scatter(in, pattern, MPI_INT, MPI_SUM), std::vector<int>(n, -1), dash::plus{});
      } else {
        run(input_of(pattern, &matrix_value), rank_ordered_product(pattern), std::vector<Matrix>(n, Matrix{0, 0, 0, 0}),
            matrix_product);
      }
      EXPECT_EQ(reported.size(), std::size_t{segments});
      EXPECT_EQ(elements, n);
    }
  }
}

TEST(ReduceScatter, BadArgumentsThrowOnEveryRank) {
  const auto p = static_cast<std::size_t>(P());
  const std::string function = "dash::comm::reduce_scatter: invalid argument ";
  const std::vector<std::size_t> counts(p, 2);
  const std::vector<int> in(2 * p, 1);
  std::vector<int> out(2);

  const std::vector<std::size_t> one_too_many(p + 1, 2);
  EXPECT_EQ(refusal_of([&] { dash::comm::reduce_scatter(in, one_too_many, out, dash::plus{}); }),
            function + "'counts.size()' = " + std::to_string(p + 1) + "; expected " + std::to_string(p) +
                " (the group size)");

  const std::vector<int> long_in(2 * p + 1, 1);
  EXPECT_EQ(refusal_of([&] { dash::comm::reduce_scatter(long_in, counts, out, dash::plus{}); }),
            function + "'in.size()' = " + std::to_string(2 * p + 1) + "; expected " + std::to_string(2 * p) +
                " (the sum of counts)");

  std::vector<int> long_out(3);
  EXPECT_EQ(refusal_of([&] { auto request = dash::comm::ireduce_scatter(in, counts, long_out, dash::plus{}); }),
            function + "'out.size()' = 3; expected 2 (counts[rank] of the calling member)");

  std::string known;
  for (const std::string_view name : dash::comm::algorithms(Coll::reduce_scatter)) {
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  EXPECT_EQ(
      refusal_of([&] { dash::comm::reduce_scatter(in, counts, out, dash::plus{}, Group::world(), forced("bogus")); }),
      function + "'algorithm (forced by Options::algorithm)' = 'bogus'; expected one of " + known);

  // Nothing was started: the group is still in step.
  dash::comm::reduce_scatter(in, counts, out, dash::plus{});
  EXPECT_EQ(out, std::vector<int>(2, P()));
}

}  // namespace
