// The team_emulation suite: Sack 2011 ch. 2's evaluation method (§2.4)
// at P = 2. One split of n simulated processes into one team with random keys (Sack 2011's
// workload), each variant of the team-split service replayed by two real processes that exchange,
// merge and sort exactly what one simulated process does at every stage, with the library's own
// pieces: its collection step (one exchange of records each way, detail::merge_records), its parallel sort
// (detail::parallel_sort, real at p = 2), its splitter search (detail::SplitterSearch) and its run
// merge (detail::RunMergeTree). Contention is not modelled, as in Sack 2011. The baseline of every
// case is the conventional algorithm, so ratios are speed-ups over what MPI libraries do.
// scripts/split_model fits a cost model to the phase times and extrapolates to Table 2.1's sizes
// (docs/results/team_split.md).
//
// Real process r plays simulated process x_r = r n / p: members 0 and 1 of the first sort group
// (for conventional and merge_per_step, p = 2). Whatever its simulated partners would send, the
// other real process sends in their place, from the same records, which both generate.
//
// Map: the workload (simulated_records) and what a simulated process receives (partner_block,
// sorted_partner_blocks); Phases (phase times and counts); Wire (exchanges standing in for the
// simulated partners); the splitter search of all p sorters, replayed (SearchRound, RecordedSearch,
// splitter_counts, piece); SplitEmulation: the variants' runs, the conventional baseline,
// verification and metrics, then collect, the sorts, exchange_and_merge and gather_table; the
// sizes, job sizes and case registrations.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <dash/comm/allgatherv.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/core/detail/exact_splitters.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/detail/run_merge_tree.hpp>
#include <dash/core/detail/split_service.hpp>
#include <dash/dash.hpp>

#include "runner/registry.hpp"

namespace dash::bench::team_emulation {

namespace {

using detail::SplitRecord;
using Less = std::less<>;
using Proposal = detail::SplitProposal<SplitRecord>;
using Clock = std::chrono::steady_clock;

constexpr const char* suite_function = "dash-bench team_emulation";

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

int log2_of(std::size_t power_of_two) { return std::countr_zero(power_of_two); }

bool same_records(std::span<const SplitRecord> a, std::span<const SplitRecord> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const SplitRecord& x, const SplitRecord& y) {
    return x.color == y.color && x.key == y.key && x.parent_rank == y.parent_rank && x.base_rank == y.base_rank;
  });
}

// Sack 2011's workload: all n simulated processes in one team (color 0), random keys, so the
// split is a pure reorder.
std::vector<SplitRecord> simulated_records(std::size_t n) {
  std::mt19937_64 random(0x5ac2011u + n);
  std::vector<SplitRecord> records(n);
  for (std::size_t i = 0; i < n; ++i) {
    records[i] = {0, static_cast<int>(static_cast<std::uint32_t>(random() >> 32)), static_cast<int>(i),
                  static_cast<int>(i)};
  }
  return records;
}

// The first simulated process of the block that process x receives at recursive-doubling stage s:
// its partner x XOR 2^s holds the 2^s records of the partner's aligned block.
std::size_t partner_block(std::size_t x, int stage) {
  const std::size_t width = std::size_t{1} << stage;
  return (x ^ width) & ~(width - 1);
}

// What simulated process x receives in the first `stages` stages of the collection with a merge
// per step: each partner's block, sorted.
std::vector<std::vector<SplitRecord>> sorted_partner_blocks(const std::vector<SplitRecord>& records, std::size_t x,
                                                            int stages) {
  std::vector<std::vector<SplitRecord>> blocks;
  for (int stage = 0; stage < stages; ++stage) {
    const auto first = records.begin() + static_cast<std::ptrdiff_t>(partner_block(x, stage));
    blocks.emplace_back(first, first + (std::ptrdiff_t{1} << stage));
    std::sort(blocks.back().begin(), blocks.back().end());
  }
  return blocks;
}

// Seconds of each phase on the slower real process, and the splitter search's counts.
struct Phases {
  double collect = 0;       // recursive doubling (to n, or to n/p for the parallel sort)
  double collect_comm = 0;  // the part of `collect` spent exchanging
  double sort = 0;          // the conventional algorithm's sort of all n records
  double splitters = 0;
  double exchange = 0;
  double merge = 0;
  double table_allgather = 0;  // the full-table variant's allgather of the p slices
  double splitter_rounds = 0;
  double splitter_messages = 0;  // sent by one sorter, start-ups on its critical path
  double splitter_bytes = 0;     // sent by one sorter
  double splitter_searches = 0;  // binary searches of one sorter: the other sorters' proposals
};

const std::vector<ExtraMetric> phase_metrics{
    {"collect", "s"},         {"collect_comm", "s"},     {"sort", "s"},            {"splitters", "s"},
    {"exchange", "s"},        {"merge", "s"},            {"table_allgather", "s"}, {"splitter_rounds", ""},
    {"splitter_messages", ""}, {"splitter_bytes", ""}, {"splitter_searches", ""},
};

std::vector<double> values_of(const Phases& phases) {
  return {phases.collect,          phases.collect_comm,      phases.sort,           phases.splitters,
          phases.exchange,         phases.merge,             phases.table_allgather, phases.splitter_rounds,
          phases.splitter_messages, phases.splitter_bytes, phases.splitter_searches};
}

// Blocking exchanges of `bytes` each way with the other real process: the volume of one message
// between two simulated processes.
class Wire {
public:
  Wire(MPI_Comm comm, int peer) : comm_(comm), peer_(peer) {}

  void exchange(const void* send, void* receive, std::size_t bytes) {
    const comm::MessageCount count(bytes, MPI_BYTE, suite_function);
    comm::check_mpi(MPI_Sendrecv(send, count.count(), count.type(), peer_, tag, receive, count.count(), count.type(),
                                 peer_, tag, comm_, MPI_STATUS_IGNORE),
                    "dash-bench team_emulation: MPI_Sendrecv");
  }

  // A message whose contents nobody reads.
  void exchange(std::size_t bytes) {
    out_.resize(std::max(out_.size(), bytes));
    in_.resize(std::max(in_.size(), bytes));
    exchange(out_.data(), in_.data(), bytes);
  }

  MPI_Comm comm() const noexcept { return comm_; }
  int peer() const noexcept { return peer_; }

  static constexpr int tag = 5011;

private:
  MPI_Comm comm_;
  int peer_;
  std::vector<std::byte> out_;
  std::vector<std::byte> in_;
};

// One round of the splitter search as all p sorters ran it: every sorter's proposals and the
// global counts below them.
struct SearchRound {
  std::vector<Proposal> gathered;
  std::vector<std::uint64_t> global_below;
};

// The splitter search of p sorters holding `blocks` (p sorted blocks of n/p records, side by
// side), run in this process; cuts[q][j] is sorter q's cut for target j.
struct RecordedSearch {
  std::vector<SearchRound> rounds;
  std::vector<std::vector<std::size_t>> cuts;
};

RecordedSearch search_all_sorters(std::span<const SplitRecord> blocks, int p, std::span<const std::uint64_t> targets) {
  const std::size_t per = blocks.size() / static_cast<std::size_t>(p);
  std::vector<detail::SplitterSearch<SplitRecord, Less>> sorters;
  for (int q = 0; q < p; ++q) {
    sorters.emplace_back(blocks.subspan(static_cast<std::size_t>(q) * per, per), Less{}, q, targets, blocks.size());
  }
  RecordedSearch recorded;
  while (!sorters.front().done()) {
    SearchRound round;
    for (const auto& sorter : sorters) {
      const std::vector<Proposal> mine = sorter.proposals();
      round.gathered.insert(round.gathered.end(), mine.begin(), mine.end());
    }
    std::vector<std::vector<std::uint64_t>> local_below;
    round.global_below.assign(round.gathered.size(), 0);
    for (const auto& sorter : sorters) {
      local_below.push_back(sorter.count(round.gathered));
      std::transform(round.global_below.begin(), round.global_below.end(), local_below.back().begin(),
                     round.global_below.begin(), std::plus<>());
    }
    for (std::size_t q = 0; q < sorters.size(); ++q) {
      sorters[q].narrow(round.gathered, local_below[q], round.global_below);
    }
    recorded.rounds.push_back(std::move(round));
  }
  for (const auto& sorter : sorters) {
    recorded.cuts.push_back(sorter.positions());
  }
  return recorded;
}

// What sorter `member` of p sends in the search, with recursive doubling for its allgathers and
// allreduces (lg p messages each): the total count's allreduce, then per round an allgather of
// its proposals and an allreduce of the counts below all p sorters' proposals.
Phases splitter_counts(const RecordedSearch& search, int p, int member) {
  const int stages = log2_of(static_cast<std::size_t>(p));
  Phases counts;
  counts.splitter_rounds = static_cast<double>(search.rounds.size());
  counts.splitter_messages = stages;
  counts.splitter_bytes = 8.0 * stages;
  for (const SearchRound& round : search.rounds) {
    const std::size_t slots = round.gathered.size() / static_cast<std::size_t>(p);
    counts.splitter_messages += 2.0 * stages;
    counts.splitter_bytes += static_cast<double>((std::size_t{1} << stages) - 1) * static_cast<double>(slots) *
                                 sizeof(Proposal) +
                             static_cast<double>(stages) * static_cast<double>(round.gathered.size()) * 8.0;
    counts.splitter_searches +=
        static_cast<double>(std::count_if(round.gathered.begin(), round.gathered.end(), [&](const Proposal& proposal) {
          return proposal.position != Proposal::empty_slot && proposal.member != member;
        }));
  }
  return counts;
}

// Sorter q's piece for sorter k, given every sorter's cuts.
std::pair<std::size_t, std::size_t> piece(const RecordedSearch& search, std::size_t per, int q, int k) {
  const auto& cuts = search.cuts[static_cast<std::size_t>(q)];
  const std::size_t first = k == 0 ? 0 : cuts[static_cast<std::size_t>(k) - 1];
  const std::size_t last = static_cast<std::size_t>(k) == cuts.size() ? per : cuts[static_cast<std::size_t>(k)];
  return {first, last};
}

enum class Variant { merge_per_step, parallel_sort };

class SplitEmulation final : public Workload {
public:
  SplitEmulation(const Problem& problem, Variant variant, int sorters)
      : n_(problem.size), p_(variant == Variant::merge_per_step ? 2 : sorters), variant_(variant) {
    if (!std::has_single_bit(n_) || n_ < 2 * static_cast<std::size_t>(p_)) {
      throw invalid_argument(suite_function, "size", n_,
                             "a power of two of at least 2 p = " + std::to_string(2 * p_) + " simulated processes");
    }
    comm::check_mpi(MPI_Comm_dup(problem.team, &comm_), "dash-bench team_emulation: MPI_Comm_dup");
    MPI_Comm_rank(comm_, &me_);
    wire_ = std::make_unique<Wire>(comm_, 1 - me_);
    records_ = simulated_records(n_);
    sorted_ = records_;
    std::sort(sorted_.begin(), sorted_.end());
    const std::size_t per = n_ / static_cast<std::size_t>(p_);
    const int other = 1 - me_;
    const int stages = variant_ == Variant::merge_per_step ? log2_of(n_) : log2_of(per);
    to_partner_ = sorted_partner_blocks(records_, static_cast<std::size_t>(other) * per, stages);
    if (variant_ == Variant::parallel_sort) {
      prepare_sort(per, other);
    }
  }
  ~SplitEmulation() override { MPI_Comm_free(&comm_); }

  void run_impl() override {
    impl_phases_ = counts_;
    std::vector<SplitRecord> block = collect(static_cast<int>(to_partner_.size()), impl_phases_);
    if (variant_ == Variant::merge_per_step) {
      table_ = std::move(block);
      return;
    }
    phase_boundary();
    if (p_ == 2) {
      sort_pair(std::move(block));
    } else {
      sort_emulated(std::move(block));
    }
  }

  // The conventional algorithm: a recursive-doubling allgather of one record per process into a
  // table in rank order, then one sort of the table (what split_service's `conventional` does).
  void run_baseline() override {
    baseline_phases_ = {};
    const auto start = Clock::now();
    const std::size_t x = me_x(2);
    const std::size_t other_x = n_ / 2 - x;
    std::vector<SplitRecord> table(n_);
    table[x] = records_[x];
    for (int stage = 0; stage < log2_of(n_); ++stage) {
      const auto exchange_start = Clock::now();
      wire_->exchange(records_.data() + partner_block(other_x, stage), table.data() + partner_block(x, stage),
                      (std::size_t{1} << stage) * sizeof(SplitRecord));
      baseline_phases_.collect_comm += seconds_since(exchange_start);
    }
    baseline_phases_.collect = seconds_since(start);
    const auto sort_start = Clock::now();
    std::sort(table.begin(), table.end());
    baseline_phases_.sort = seconds_since(sort_start);
    conventional_ = std::move(table);
  }

  void reset() override {
    table_.clear();
    slice_.clear();
    conventional_.clear();
  }

  // Every emulated result is what the real algorithm computes: the conventional and merged
  // tables are the sorted records, a sorter's slice is its part of them (and every full table
  // gathered for the extra metrics was the sorted records).
  bool verify() const override {
    if (!conventional_.empty()) {
      return same_records(conventional_, sorted_);
    }
    if (variant_ == Variant::merge_per_step) {
      return same_records(table_, sorted_);
    }
    const std::size_t per = n_ / static_cast<std::size_t>(p_);
    const auto mine = std::span<const SplitRecord>(sorted_).subspan(static_cast<std::size_t>(me_) * per, per);
    return search_matched_ && full_tables_ok_ && same_records(slice_, mine);
  }

  std::vector<double> extra_metrics(Side side) override {
    if (side == Side::impl && variant_ == Variant::parallel_sort) {
      gather_table();
    }
    std::vector<double> values = values_of(side == Side::impl ? impl_phases_ : baseline_phases_);
    std::vector<double> slowest(values.size());
    comm::check_mpi(MPI_Allreduce(values.data(), slowest.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX,
                                  comm_),
                    "dash-bench team_emulation: MPI_Allreduce");
    return slowest;
  }

private:
  // A barrier between phases, so that neither process's phase times include waiting for the other
  // to finish the previous phase (a few microseconds, in the total only).
  void phase_boundary() const { comm::check_mpi(MPI_Barrier(comm_), "dash-bench team_emulation: MPI_Barrier"); }

  // The simulated process this one plays: member me_ of the first sort group of `sorters`.
  std::size_t me_x(int sorters) const {
    return static_cast<std::size_t>(me_) * (n_ / static_cast<std::size_t>(sorters));
  }

  // The parallel sort's inputs for p > 2: the search all p sorters run, replayed by this one, and
  // the runs the other process's sorter receives. p = 2 records the search only to count it.
  void prepare_sort(std::size_t per, int other) {
    std::vector<SplitRecord> blocks = records_;
    for (int q = 0; q < p_; ++q) {
      const auto first = blocks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(q) * per);
      std::sort(first, first + static_cast<std::ptrdiff_t>(per));
    }
    targets_ = detail::balanced_targets(n_, p_);
    search_ = search_all_sorters(blocks, p_, targets_);
    counts_ = splitter_counts(search_, p_, me_);
    if (p_ == 2) {
      return;
    }
    for (int q = 0; q < p_; ++q) {
      const auto [mine_first, mine_last] = piece(search_, per, q, me_);
      run_sizes_.push_back(mine_last - mine_first);
      const auto [first, last] = piece(search_, per, q, other);
      const auto block = blocks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(q) * per);
      partner_runs_.emplace_back(block + static_cast<std::ptrdiff_t>(first), block + static_cast<std::ptrdiff_t>(last));
    }
  }

  // Recursive doubling with a merge after every stage (split_service's collect_block), `stages`
  // stages from one record.
  std::vector<SplitRecord> collect(int stages, Phases& phases) {
    const auto start = Clock::now();
    const std::size_t x = me_x(p_);
    std::vector<SplitRecord> table{records_[x]};
    for (int stage = 0; stage < stages; ++stage) {
      const auto exchange_start = Clock::now();
      // Both simulated partners hold a block of 2^stage records (n is a power of two).
      const std::vector<SplitRecord>& mine = to_partner_[static_cast<std::size_t>(stage)];
      std::vector<SplitRecord> theirs(mine.size());
      wire_->exchange(mine.data(), theirs.data(), mine.size() * sizeof(SplitRecord));
      phases.collect_comm += seconds_since(exchange_start);
      table = detail::merge_records(table, theirs);
    }
    phases.collect = seconds_since(start);
    return table;
  }

  // p = 2: the two real processes are the two sorters and run the library's parallel sort, as
  // split_service does on each sort group.
  void sort_pair(std::vector<SplitRecord> block) {
    detail::SortPhases phases;
    detail::ParallelSortSettings settings;
    settings.phases = &phases;
    settings.presorted = true;
    detail::SortedSlice<SplitRecord> slice =
        detail::parallel_sort(std::move(block), Less{}, comm::Group::world(), settings);
    impl_phases_.splitters = phases.splitters;
    impl_phases_.exchange = phases.exchange;
    impl_phases_.merge = phases.merge;
    search_matched_ = search_matched_ && static_cast<std::size_t>(slice.splitter_rounds) == search_.rounds.size();
    slice_ = std::move(slice.elements);
  }

  // p > 2: this process is sorter me_ of p; parallel_sort_into's phases (its block presorted, as
  // split_service passes it) with the library's pieces, the other sorters' messages played by the
  // other process.
  void sort_emulated(std::vector<SplitRecord> block) {
    const int stages = log2_of(static_cast<std::size_t>(p_));
    const auto start = Clock::now();
    for (int stage = 0; stage < stages; ++stage) {
      wire_->exchange(sizeof(std::uint64_t));  // the allreduce of the total count
    }
    detail::SplitterSearch<SplitRecord, Less> search(block, Less{}, me_, targets_, n_);
    std::vector<std::uint64_t> sum;
    std::vector<std::uint64_t> received;
    for (const SearchRound& round : search_.rounds) {
      if (search.done()) {
        break;
      }
      const std::vector<Proposal> mine = search.proposals();
      for (int stage = 0; stage < stages; ++stage) {
        wire_->exchange((std::size_t{1} << stage) * mine.size() * sizeof(Proposal));
      }
      const std::vector<std::uint64_t> local_below = search.count(round.gathered);
      sum = local_below;
      received.resize(sum.size());
      for (int stage = 0; stage < stages; ++stage) {
        wire_->exchange(sum.data(), received.data(), sum.size() * sizeof(std::uint64_t));
        std::transform(sum.begin(), sum.end(), received.begin(), sum.begin(), std::plus<>());
      }
      search.narrow(round.gathered, local_below, round.global_below);
    }
    search_matched_ = search_matched_ && search.done() &&
                      static_cast<std::size_t>(search.rounds()) == search_.rounds.size() &&
                      search.positions() == search_.cuts[static_cast<std::size_t>(me_)];
    impl_phases_.splitters = seconds_since(start);
    phase_boundary();
    exchange_and_merge(block, search.positions());
  }

  // The counts' alltoall and the alltoallv, pairwise (p - 1 messages each way), merging each run
  // as it lands, as parallel_sort_into does.
  void exchange_and_merge(const std::vector<SplitRecord>& block, const std::vector<std::size_t>& cuts) {
    const auto start = Clock::now();
    const auto p = static_cast<std::size_t>(p_);
    for (std::size_t q = 1; q < p; ++q) {
      wire_->exchange(sizeof(std::size_t));
    }
    std::vector<std::size_t> offsets(p + 1, 0);
    for (std::size_t q = 0; q < p; ++q) {
      offsets[q + 1] = offsets[q] + run_sizes_[q];
    }
    const auto received = std::make_unique_for_overwrite<SplitRecord[]>(offsets[p]);
    slice_.resize(offsets[p]);
    detail::RunMergeTree<SplitRecord, Less> merge(std::span<SplitRecord>(received.get(), offsets[p]), slice_,
                                                  run_sizes_, Less{});
    const auto me = static_cast<std::size_t>(me_);
    const std::size_t own_first = me == 0 ? 0 : cuts[me - 1];
    std::copy(block.begin() + static_cast<std::ptrdiff_t>(own_first),
              block.begin() + static_cast<std::ptrdiff_t>(own_first + run_sizes_[me]), received.get() + offsets[me]);
    double merging = 0;
    std::vector<MPI_Request> receives;
    std::vector<std::size_t> sources;
    std::vector<MPI_Request> sends;
    std::vector<comm::MessageCount> counts;  // alive until the requests complete
    counts.reserve(2 * p);
    const auto other = static_cast<std::size_t>(1 - me_);
    for (std::size_t q = 0; q < p; ++q) {
      if (q != me) {
        const auto& count = counts.emplace_back(run_sizes_[q] * sizeof(SplitRecord), MPI_BYTE, suite_function);
        receives.push_back(MPI_REQUEST_NULL);
        sources.push_back(q);
        comm::check_mpi(MPI_Irecv(received.get() + offsets[q], count.count(), count.type(), wire_->peer(),
                                  static_cast<int>(q), comm_, &receives.back()),
                        "dash-bench team_emulation: MPI_Irecv");
      }
      if (q != other) {
        const auto& count =
            counts.emplace_back(partner_runs_[q].size() * sizeof(SplitRecord), MPI_BYTE, suite_function);
        sends.push_back(MPI_REQUEST_NULL);
        comm::check_mpi(MPI_Isend(partner_runs_[q].data(), count.count(), count.type(), wire_->peer(),
                                  static_cast<int>(q), comm_, &sends.back()),
                        "dash-bench team_emulation: MPI_Isend");
      }
    }
    for (std::size_t landed = 0; landed < receives.size(); ++landed) {
      int index = MPI_UNDEFINED;
      comm::check_mpi(MPI_Waitany(static_cast<int>(receives.size()), receives.data(), &index, MPI_STATUS_IGNORE),
                      "dash-bench team_emulation: MPI_Waitany");
      const auto merge_start = Clock::now();
      const std::size_t source = sources[static_cast<std::size_t>(index)];
      merge.landed(source, run_sizes_[source]);
      merging += seconds_since(merge_start);
    }
    comm::check_mpi(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE),
                    "dash-bench team_emulation: MPI_Waitall");
    impl_phases_.exchange = seconds_since(start) - merging;
    const auto finish_start = Clock::now();
    merge.finish();
    impl_phases_.merge = merging + seconds_since(finish_start);
  }

  // The full-table variant's last phase: every sorter gathers all p slices. p = 2 runs the
  // library's allgatherv (as split_service does); p > 2 recursive doubling, the other sorters'
  // slices sent by the other process.
  void gather_table() {
    const auto start = Clock::now();
    std::vector<SplitRecord> table;
    if (p_ == 2) {
      table = comm::allgatherv(slice_, comm::Group::world()).data;
    } else {
      const std::size_t per = n_ / static_cast<std::size_t>(p_);
      const auto me = static_cast<std::size_t>(me_);
      table.resize(n_);
      std::copy(slice_.begin(), slice_.end(), table.begin() + static_cast<std::ptrdiff_t>(me * per));
      for (int stage = 0; stage < log2_of(static_cast<std::size_t>(p_)); ++stage) {
        const std::size_t send_first = partner_block(1 - me, stage) * per;
        const std::size_t receive_first = partner_block(me, stage) * per;
        wire_->exchange(sorted_.data() + send_first, table.data() + receive_first,
                        (per << stage) * sizeof(SplitRecord));
      }
    }
    impl_phases_.table_allgather = seconds_since(start);
    full_tables_ok_ = full_tables_ok_ && same_records(table, sorted_);
  }

  std::size_t n_;
  int p_;
  Variant variant_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int me_ = 0;
  std::unique_ptr<Wire> wire_;
  std::vector<SplitRecord> records_;  // simulated process i's record at i
  std::vector<SplitRecord> sorted_;   // the split's result: every table and slice is part of it
  std::vector<std::vector<SplitRecord>> to_partner_;  // sent at each collection stage
  // The parallel sort's search as all sorters ran it, its targets, this sorter's counts and
  // incoming run sizes, and the runs the other process's sorter receives from each sorter.
  RecordedSearch search_;
  std::vector<std::uint64_t> targets_;
  Phases counts_;
  std::vector<std::size_t> run_sizes_;
  std::vector<std::vector<SplitRecord>> partner_runs_;
  bool search_matched_ = true;
  bool full_tables_ok_ = true;
  std::vector<SplitRecord> table_;         // merge_per_step's result
  std::vector<SplitRecord> slice_;         // the parallel sort's result
  std::vector<SplitRecord> conventional_;  // the baseline's result
  Phases impl_phases_;
  Phases baseline_phases_;
};

std::vector<std::size_t> simulated_sizes(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {std::size_t{1} << 20, std::size_t{1} << 21};
  }
  std::vector<std::size_t> sizes;
  for (int lg = 20; lg <= 25; ++lg) {
    sizes.push_back(std::size_t{1} << lg);
  }
  return sizes;
}

// Two real processes play every simulated one: the cases run in jobs of two.
std::vector<int> pair_only(int job_size) {
  if (job_size == 2) {
    return {2};
  }
  return {};
}

Case emulation_case(std::string name, std::string impl, Variant variant, int sorters) {
  return Case{
      .suite = "team_emulation",
      .name = std::move(name),
      .impl = std::move(impl),
      .baseline = "conventional split, emulated: recursive-doubling allgather of the n records, then one sort",
      .size_unit = "simulated processes (one split, one team, random keys)",
      .sizes = simulated_sizes,
      .active_rank_counts = pair_only,
      .rate = std::nullopt,
      .make_workload = [variant, sorters](const Problem& problem) -> std::unique_ptr<Workload> {
        return std::make_unique<SplitEmulation>(problem, variant, sorters);
      },
      .calls_per_run = nullptr,
      .extra_metrics = phase_metrics,
  };
}

const CaseRegistration merge_per_step{emulation_case(
    "merge_per_step", "split with a merge after each recursive-doubling step, emulated", Variant::merge_per_step, 2)};

Case parallel_sort_case(int sorters) {
  return emulation_case("parallel_sort_p" + std::to_string(sorters),
                        "split by collection to n/p, parallel sort of p = " + std::to_string(sorters) +
                            " sorters, distributed table; " +
                            (sorters == 2 ? "the sort real" : "the sort emulated by 2 of its sorters"),
                        Variant::parallel_sort, sorters);
}

const CaseRegistration parallel_sort_2{parallel_sort_case(2)};
const CaseRegistration parallel_sort_4{parallel_sort_case(4)};
const CaseRegistration parallel_sort_8{parallel_sort_case(8)};
const CaseRegistration parallel_sort_16{parallel_sort_case(16)};
const CaseRegistration parallel_sort_32{parallel_sort_case(32)};
const CaseRegistration parallel_sort_64{parallel_sort_case(64)};

}  // namespace

}  // namespace dash::bench::team_emulation
