// The bucket schedules on a grid (include/dash/comm/schedule/bucket.hpp; Sack 2011 §3.3, §3.4.2,
// §3.4.4, §3.5.6): one port, and the 3- and 6-way multi-port variants.
//
// Map: Sections (how a buffer is cut), Bucket (one set of rings) and Buckets (a rank's view: the
// gather and reduce rounds, sections to slots and back, neighbours and slots); the fenced phase
// rounds; add_gather_phases and add_reduce_phases; argument checks; the allgather, reduce_scatter
// and allreduce generators; then the public entry points, one port and multi-port for each.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/comm/schedule/bucket.hpp>
#include <dash/comm/schedule/rank_math.hpp>
#include <dash/comm/schedule/reduce_scatter.hpp>

namespace dash::comm::schedule {

namespace {

using detail::add_copy;
using detail::add_receive;
using detail::add_receive_reduce;
using detail::add_send;
using detail::without_empty_rounds;

std::uint32_t to_u32(int value) { return static_cast<std::uint32_t>(value); }

// How a working buffer is cut into sections, section s being blocks [begin(s), begin(s + 1)).
struct Sections {
  std::uint32_t ways = 1;
  std::uint32_t segments = 0;
  std::uint32_t ranks = 1;
  // Allgather and reduce-scatter: w sections per contribution of S blocks. Allreduce: the one
  // S-block vector cut into w·P near-equal sections.
  bool per_contribution = true;

  std::uint32_t begin(std::uint32_t s) const noexcept {
    if (per_contribution) {
      return s / ways * segments + s % ways * segments / ways;
    }
    return static_cast<std::uint32_t>(std::uint64_t{s} * segments / (std::uint64_t{ways} * ranks));
  }
  // Sections [first, first + count) as one block range.
  BlockSet blocks(std::uint32_t first, std::uint32_t count) const noexcept {
    return BlockSet::range(begin(first), begin(first + count) - begin(first));
  }
  // Section j of a rank's own contribution (the input of allgather, the output of reduce-scatter).
  BlockSet own(std::uint32_t j) const noexcept {
    return BlockSet::range(j * segments / ways, (j + 1) * segments / ways - j * segments / ways);
  }
};

// One bucket operation: rings along the grid dimensions in `order` (the first ring first), each
// sending towards coordinate + `direction`, over the sections first_section + slot.
struct Bucket {
  std::vector<int> order;
  std::vector<int> span;  // span[q]: how many slots apart one step along order[q] is
  int direction = 1;
  std::uint32_t first_section = 0;
};

// A rank's view of the bucket operations on the grid.
class Buckets {
public:
  Buckets(const CartesianGrid& grid, int rank, int ways, Sections sections)
      : dims_(grid.dims()), coordinates_(grid.coordinates(rank)), strides_(dims_.size(), 1), rank_(rank),
        sections_(sections) {
    const int k = grid.ndims();
    for (int d = k - 1; d > 0; --d) {
      strides_[static_cast<std::size_t>(d - 1)] = strides_[static_cast<std::size_t>(d)] * dim(d);
    }
    for (int b = 0; b < ways; ++b) {
      Bucket bucket;
      const int rotation = k == 0 ? 0 : (ways == 6 ? b / 2 : b) % k;
      int span = 1;
      for (int q = 0; q < k; ++q) {
        // Fastest first (k-1, k-2, ..., 0), rotated.
        const int d = k - 1 - (q + rotation) % k;
        bucket.order.push_back(d);
        bucket.span.push_back(span);
        span *= dim(d);
      }
      bucket.direction = ways == 6 && b % 2 == 1 ? -1 : 1;
      bucket.first_section = to_u32(b) * to_u32(grid.size());
      buckets_.push_back(std::move(bucket));
    }
  }

  int phases() const noexcept { return static_cast<int>(dims_.size()); }
  int ways() const noexcept { return static_cast<int>(buckets_.size()); }

  // Rounds of phase q: its longest ring has that many steps.
  int rounds_of_phase(int q) const {
    int rounds = 0;
    for (const Bucket& bucket : buckets_) {
      rounds = std::max(rounds, steps(bucket, q));
    }
    return rounds;
  }

  // Round t of phase q of the allgather: step t of every ring that has one. Sub-block v (the
  // slots that came from coordinate v of the ring) travels from v to v + direction, v + 2
  // direction, ... Every rank lists the buckets in the same order, so two messages between one
  // pair of ranks in a round (extent 2, or buckets sharing a ring) match.
  void add_gather_round(Round& round, Buffer work, int q, int t) const {
    for (const Bucket& bucket : buckets_) {
      if (t >= steps(bucket, q)) {
        continue;
      }
      const int c = coordinate(bucket, q);
      const int dir = bucket.direction;
      add_send(round, neighbor(bucket, q, dir), work, sub_block(bucket, q, c - dir * t));
      add_receive(round, neighbor(bucket, q, -dir), work, sub_block(bucket, q, c - dir * (t + 1)));
    }
  }

  // Round u of phase q of the reduce-scatter: the allgather's round (rounds - 1 - u) reversed,
  // every message going back with the partial sum of the sub-block the allgather delivered.
  void add_reduce_round(Round& round, Buffer work, int q, int u) const {
    const int rounds = rounds_of_phase(q);
    for (const Bucket& bucket : buckets_) {
      const int step = u - (rounds - steps(bucket, q));
      if (step < 0) {
        continue;
      }
      const int c = coordinate(bucket, q);
      const int dir = bucket.direction;
      add_send(round, neighbor(bucket, q, -dir), work, sub_block(bucket, q, c + dir * (step + 1)));
      add_receive_reduce(round, neighbor(bucket, q, dir), work, sub_block(bucket, q, c + dir * (step + 2)),
                         Operand::incoming_left);
    }
  }

  // Allgather's first round: every section of the rank's input goes to the slot that carries
  // it, and the rank's own slots fill up (sends and receives in increasing section number, so
  // several messages between one pair of ranks match).
  void add_sections_to_slots(Round& round) const {
    const std::uint32_t w = sections_.ways;
    for (std::uint32_t j = 0; j < w; ++j) {
      const std::uint32_t s = w * to_u32(rank_) + j;
      const int holder = holder_of(s);
      if (holder == rank_) {
        add_copy(round, Buffer::input, sections_.own(j), Buffer::output, sections_.blocks(s, 1));
      } else {
        add_send(round, holder, Buffer::input, sections_.own(j));
      }
    }
    for (const Bucket& bucket : buckets_) {
      const std::uint32_t s = bucket.first_section + to_u32(slot(bucket));
      const int owner = static_cast<int>(s / w);
      if (owner != rank_) {
        add_receive(round, owner, Buffer::output, sections_.blocks(s, 1));
      }
    }
  }

  // Reduce-scatter's last round, the reverse: every reduced slot goes to the section's owner.
  void add_slots_to_sections(Round& round, Buffer work) const {
    const std::uint32_t w = sections_.ways;
    for (const Bucket& bucket : buckets_) {
      const std::uint32_t s = bucket.first_section + to_u32(slot(bucket));
      const int owner = static_cast<int>(s / w);
      if (owner == rank_) {
        add_copy(round, work, sections_.blocks(s, 1), Buffer::output, sections_.own(s % w));
      } else {
        add_send(round, owner, work, sections_.blocks(s, 1));
      }
    }
    for (std::uint32_t j = 0; j < w; ++j) {
      const std::uint32_t s = w * to_u32(rank_) + j;
      const int holder = holder_of(s);
      if (holder != rank_) {
        add_receive(round, holder, Buffer::output, sections_.own(j));
      }
    }
  }

private:
  int dim(int d) const noexcept { return dims_[static_cast<std::size_t>(d)]; }
  int steps(const Bucket& bucket, int q) const noexcept {
    return dim(bucket.order[static_cast<std::size_t>(q)]) - 1;
  }
  int coordinate(const Bucket& bucket, int q) const noexcept {
    return coordinates_[static_cast<std::size_t>(bucket.order[static_cast<std::size_t>(q)])];
  }

  // The rank `delta` steps along the dimension of phase q, wrapping around.
  int neighbor(const Bucket& bucket, int q, int delta) const noexcept {
    const int d = bucket.order[static_cast<std::size_t>(q)];
    const int c = coordinates_[static_cast<std::size_t>(d)];
    return rank_ + (modulo(c + delta, dim(d)) - c) * strides_[static_cast<std::size_t>(d)];
  }

  // The rank's slot in `bucket`: its coordinates read in the bucket's dimension order.
  int slot(const Bucket& bucket) const noexcept {
    int result = 0;
    for (std::size_t q = 0; q < bucket.order.size(); ++q) {
      result += coordinates_[static_cast<std::size_t>(bucket.order[q])] * bucket.span[q];
    }
    return result;
  }

  // The rank whose slot carries section s: bucket ⌊s/P⌋, slot s mod P decoded into coordinates.
  int holder_of(std::uint32_t s) const noexcept {
    const Bucket& bucket = buckets_[s / sections_.ranks];
    int index = static_cast<int>(s % sections_.ranks);
    int result = 0;
    for (const int d : bucket.order) {
      result += index % dim(d) * strides_[static_cast<std::size_t>(d)];
      index /= dim(d);
    }
    return result;
  }

  // The slots of phase q's ring that come from coordinate v (mod extent) of the ring: every
  // coordinate along the dimensions of earlier phases, the rank's own along the later ones, so
  // span[q] consecutive slots.
  BlockSet sub_block(const Bucket& bucket, int q, int v) const noexcept {
    const auto phase = static_cast<std::size_t>(q);
    int first = 0;
    for (std::size_t later = phase + 1; later < bucket.order.size(); ++later) {
      first += coordinates_[static_cast<std::size_t>(bucket.order[later])] * bucket.span[later];
    }
    first += modulo(v, dim(bucket.order[phase])) * bucket.span[phase];
    return sections_.blocks(bucket.first_section + to_u32(first), to_u32(bucket.span[phase]));
  }

  std::vector<int> dims_;
  std::vector<int> coordinates_;
  std::vector<int> strides_;
  int rank_ = 0;
  Sections sections_;
  std::vector<Bucket> buckets_;
};

// Multi-port buckets run their rounds in lockstep: every round, and the remap after a
// reduce-scatter's phases, is fenced. Sack 2011 fences only phases (its per-dimension barrier),
// but under SMPI sends that run ahead on their own inputs, even one round ahead within a phase,
// left the 6-way allgather on the 8x8x8 torus far slower than fenced rounds and the cost model,
// with phases fenced as well (docs/collectives.md, "Engine"). One port runs one ring at a time
// and keeps its run-ahead.
Round& add_phase_round(Schedule& schedule, const Buckets& buckets) {
  Round& round = schedule.add_round();
  round.fence = buckets.ways() > 1;
  return round;
}

void add_gather_phases(Schedule& schedule, const Buckets& buckets, Buffer work) {
  for (int q = 0; q < buckets.phases(); ++q) {
    for (int t = 0; t < buckets.rounds_of_phase(q); ++t) {
      buckets.add_gather_round(add_phase_round(schedule, buckets), work, q, t);
    }
  }
}

void add_reduce_phases(Schedule& schedule, const Buckets& buckets, Buffer work) {
  for (int q = buckets.phases() - 1; q >= 0; --q) {
    for (int u = 0; u < buckets.rounds_of_phase(q); ++u) {
      buckets.add_reduce_round(add_phase_round(schedule, buckets), work, q, u);
    }
  }
}

const CartesianGrid& checked_grid(const char* function, const CollectiveShape& shape) {
  if (!shape.grid) {
    throw InvalidArgument(std::string(function) + ": shape.grid is not set; bucket schedules run on a process grid");
  }
  if (shape.grid->size() != shape.size) {
    throw invalid_argument(function, "shape.size", shape.size,
                           "the number of ranks of shape.grid, " + std::to_string(shape.grid->size()));
  }
  return *shape.grid;
}

void check_ways(const char* function, const CartesianGrid& grid, int ways) {
  if (ways != 3 && ways != 6) {
    throw invalid_argument(function, "ways", ways, "3 or 6");
  }
  if (ways == 3) {
    return;
  }
  for (int d = 0; d < grid.ndims(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    if (grid.dims()[i] > 1 && !grid.periodic()[i]) {
      throw invalid_argument(function, "ways", ways,
                             "3 on this grid: 6 ways run rings in both directions and need wrap-around links, "
                             "but dimension " + std::to_string(d) + " (extent " +
                                 std::to_string(grid.dims()[i]) + ") of shape.grid is not periodic");
    }
  }
}

void check_commutative(const char* function, const CollectiveShape& shape) {
  if (!shape.op.commutative) {
    throw invalid_argument(function, "shape.op.commutative", "false",
                           "a commutative operation: bucket rings combine partial sums out of rank order");
  }
}

Sections sections_of(const CollectiveShape& shape, int ways, bool per_contribution) {
  return Sections{to_u32(ways), shape.segments, to_u32(shape.size), per_contribution};
}

std::string name_of(int ways) { return ways == 1 ? "bucket" : "bucket_" + std::to_string(ways) + "way"; }

Schedule allgather(const CollectiveShape& shape, int rank, int ways, const CartesianGrid& grid) {
  Schedule schedule;
  schedule.algorithm = name_of(ways);
  const Buckets buckets(grid, rank, ways, sections_of(shape, ways, true));
  buckets.add_sections_to_slots(schedule.add_round());
  add_gather_phases(schedule, buckets, Buffer::output);
  return without_empty_rounds(std::move(schedule));
}

Schedule reduce_scatter(const CollectiveShape& shape, int rank, int ways, const CartesianGrid& grid) {
  Schedule schedule;
  schedule.algorithm = name_of(ways);
  const std::uint32_t vector_blocks = to_u32(shape.size) * shape.segments;
  schedule.scratch_blocks = vector_blocks;
  const Buckets buckets(grid, rank, ways, sections_of(shape, ways, true));
  add_copy(schedule.add_round(), Buffer::input, BlockSet::range(0, vector_blocks), Buffer::scratch,
           BlockSet::range(0, vector_blocks));
  add_reduce_phases(schedule, buckets, Buffer::scratch);
  buckets.add_slots_to_sections(add_phase_round(schedule, buckets), Buffer::scratch);
  return without_empty_rounds(std::move(schedule));
}

Schedule allreduce(const CollectiveShape& shape, int rank, int ways, const CartesianGrid& grid) {
  Schedule schedule;
  schedule.algorithm = name_of(ways);
  const Buckets buckets(grid, rank, ways, sections_of(shape, ways, false));
  const BlockSet vector = BlockSet::range(0, shape.segments);
  add_copy(schedule.add_round(), Buffer::input, vector, Buffer::output, vector);
  add_reduce_phases(schedule, buckets, Buffer::output);
  add_gather_phases(schedule, buckets, Buffer::output);
  return without_empty_rounds(std::move(schedule));
}

}  // namespace

Schedule allgather_bucket(const CollectiveShape& shape, int rank) {
  return allgather(shape, rank, 1, checked_grid("dash::comm::schedule::allgather_bucket", shape));
}

Schedule allgather_bucket_multiport(const CollectiveShape& shape, int rank, int ways) {
  constexpr const char* function = "dash::comm::schedule::allgather_bucket_multiport";
  const CartesianGrid& grid = checked_grid(function, shape);
  check_ways(function, grid, ways);
  return allgather(shape, rank, ways, grid);
}

Schedule reduce_scatter_bucket(const CollectiveShape& shape, int rank) {
  constexpr const char* function = "dash::comm::schedule::reduce_scatter_bucket";
  const CartesianGrid& grid = checked_grid(function, shape);
  check_commutative(function, shape);
  return reduce_scatter(shape, rank, 1, grid);
}

Schedule reduce_scatter_bucket_multiport(const CollectiveShape& shape, int rank, int ways) {
  constexpr const char* function = "dash::comm::schedule::reduce_scatter_bucket_multiport";
  const CartesianGrid& grid = checked_grid(function, shape);
  check_ways(function, grid, ways);
  check_commutative(function, shape);
  return reduce_scatter(shape, rank, ways, grid);
}

Schedule allreduce_bucket(const CollectiveShape& shape, int rank) {
  constexpr const char* function = "dash::comm::schedule::allreduce_bucket";
  const CartesianGrid& grid = checked_grid(function, shape);
  check_commutative(function, shape);
  return allreduce(shape, rank, 1, grid);
}

Schedule allreduce_bucket_multiport(const CollectiveShape& shape, int rank, int ways) {
  constexpr const char* function = "dash::comm::schedule::allreduce_bucket_multiport";
  const CartesianGrid& grid = checked_grid(function, shape);
  check_ways(function, grid, ways);
  check_commutative(function, shape);
  return allreduce(shape, rank, ways, grid);
}

}  // namespace dash::comm::schedule
