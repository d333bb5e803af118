// The team-split service (include/dash/core/detail/split_service.hpp; docs/teams.md, "The service
// (Sack 2011 ch. 2)").
//
// Map: the collection's messages and merge_records; StridedMembers (sort and table groups);
// collect_block and share_with_folded (recursive doubling with a merge per step, Sack's technique 1);
// parallel_sort_table (full tables); the distributed table's pieces (RunEdges, Answer, reversed
// ranks, exchanges by destination, TableLayout, moving rows to their holders) and
// parallel_sort_distributed (technique 3); collect_sorted, default_sorters, reserve_table_rows and
// its error; split_service, the entry point; to_string(SplitAlgorithm).

#include <algorithm>
#include <array>
#include <functional>
#include <bit>
#include <iterator>
#include <string>
#include <utility>

#include <dash/comm/allgather.hpp>
#include <dash/comm/allgatherv.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/alltoallv.hpp>
#include <dash/comm/table_window.hpp>
#include <dash/comm/scan.hpp>
#include <dash/comm/point_to_point.hpp>
#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/detail/parallel_sort.hpp>
#include <dash/core/detail/split_service.hpp>

namespace dash::detail {

namespace {

constexpr const char* service = "dash::Team::split_by";

// Every transfer of the collection has a size both sides know from n and the stage, so each is one
// message: no count goes ahead of the records. Peers are group ranks.
template <class T>
void send_values(std::span<const T> values, const comm::Group& group, int peer, int tag) {
  comm::send(values, group, peer, tag, service);
}

template <class T>
std::vector<T> receive_values(std::size_t count, const comm::Group& group, int peer, int tag) {
  std::vector<T> values(count);
  comm::receive(std::span<T>(values), group, peer, tag, service);
  return values;
}

// One step of the recursive-doubling collection between `peer` and the caller: sends `mine` and
// returns the peer's `incoming` records (both sides know the block sizes of every stage, so one
// message each way).
std::vector<SplitRecord> exchange_records(std::span<const SplitRecord> mine, std::size_t incoming,
                                          const comm::Group& group, int peer, int tag) {
  std::vector<SplitRecord> theirs(incoming);
  comm::send_receive(mine, std::span<SplitRecord>(theirs), group, peer, tag, service);
  return theirs;
}

}  // namespace

std::vector<SplitRecord> merge_records(const std::vector<SplitRecord>& a, const std::vector<SplitRecord>& b) {
  std::vector<SplitRecord> result;
  result.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(result));
  return result;
}

// Up to this many members a full table (16 bytes a row while splitting, 4 after) costs less
// than the sort's extra collectives; beyond, the distributed table keeps memory at O(n/p).
constexpr int automatic_full_table_limit = 1024;

namespace {

// Ranks of a sort or table group: members j, j + stride, j + 2 stride, ... of the parent.
class StridedMembers final : public comm::RankMap {
public:
  StridedMembers(comm::Group parent, int first, int stride)
      : parent_(std::move(parent)), first_(first), stride_(stride) {}
  int to_base(int rank) const override { return parent_.base_rank(first_ + rank * stride_); }

private:
  comm::Group parent_;
  int first_;
  int stride_;
};

// The power of two m <= n over which recursive doubling runs; members m .. n-1 fold into 0 .. n-m-1.
int doubling_size(int n) { return static_cast<int>(std::bit_floor(static_cast<unsigned>(n))); }

// Phase A of the service: `stages` recursive-doubling steps with a merge after each, over the
// first m members (the others first hand their record to member rank - m). Returns the sorted
// records of the caller's 2^stages block; a folded member gets nothing here.
std::vector<SplitRecord> collect_block(const comm::Group& group, const SplitRecord& mine, int stages, int tag) {
  const int n = group.size();
  const int rank = group.rank();
  const int m = doubling_size(n);
  std::vector<SplitRecord> table{mine};
  if (rank >= m) {
    send_values<SplitRecord>(table, group, rank - m, tag);
    return {};
  }
  if (rank + m < n) {
    table = merge_records(table, receive_values<SplitRecord>(1, group, rank + m, tag));
  }
  for (int stage = 0; stage < stages; ++stage) {
    const int width = 1 << stage;
    const int partner = rank ^ width;
    // The partner's block: `width` members from its aligned start, plus those folded into them.
    const int first = partner & ~(width - 1);
    const auto incoming = static_cast<std::size_t>(width + std::clamp(n - m - first, 0, width));
    table = merge_records(table, exchange_records(table, incoming, group, partner, tag));
  }
  return table;
}

// Hands the finished table (all n records) to the member folded into the caller, or receives it as
// that member.
std::vector<SplitRecord> share_with_folded(const comm::Group& group, std::vector<SplitRecord> table, int tag) {
  const int n = group.size();
  const int rank = group.rank();
  const int m = doubling_size(n);
  if (rank >= m) {
    return receive_values<SplitRecord>(static_cast<std::size_t>(n), group, rank - m, tag);
  }
  if (rank + m < n) {
    send_values<SplitRecord>(table, group, rank + m, tag);
  }
  return table;
}

int log2_of(int power_of_two) { return std::countr_zero(static_cast<unsigned>(power_of_two)); }

// The collection leaves every block sorted, so the parallel sort skips its local sort.
ParallelSortSettings collected_block() {
  ParallelSortSettings settings;
  settings.presorted = true;
  return settings;
}

// Sack's variant with full tables: phase A stops lg(n/p) steps early; the members with equal low
// bits then hold the p distinct blocks and sort them together (every such group redundantly, so
// each ends with the whole table), and an allgather of the sorted slices gives every sorter the
// table.
std::vector<SplitRecord> parallel_sort_table(const comm::Group& parent, const SplitRecord& mine, int sorters,
                                             comm::TagSpace scratch_tags, std::size_t& peak_rows) {
  const int m = doubling_size(parent.size());
  const int p = std::clamp(sorters, 1, m);
  const int stages = log2_of(m / p);
  const int tag = parent.next_tag();
  std::vector<SplitRecord> block = collect_block(parent, mine, stages, tag);
  std::vector<SplitRecord> table;
  if (parent.rank() < m) {
    const int stride = 1 << stages;
    const comm::Group sorters_group(p, parent.rank() >> stages,
                                    std::make_shared<StridedMembers>(parent, parent.rank() & (stride - 1), stride),
                                    scratch_tags);
    peak_rows = block.size();
    SortedSlice<SplitRecord> slice = parallel_sort(std::move(block), std::less<>(), sorters_group, collected_block());
    peak_rows = std::max(peak_rows, slice.elements.size());
    table = comm::allgatherv(slice.elements, sorters_group).data;
  }
  table = share_with_folded(parent, std::move(table), tag);
  peak_rows = std::max(peak_rows, table.size());
  return table;
}

// Color runs at the ends of a sorter's slice, combined along the sorters by a scan: the color of
// the last run and where that run starts (reading forward) or ends (reading backward).
struct RunEdges {
  int first_color;
  int last_color;
  std::uint64_t last_run_edge;
  std::uint64_t uniform;  // the slice is one run
};

RunEdges combine_runs(const RunEdges& earlier, const RunEdges& later) {
  const bool continues = later.uniform != 0 && later.first_color == earlier.last_color;
  return {earlier.first_color, later.last_color, continues ? earlier.last_run_edge : later.last_run_edge,
          earlier.uniform != 0 && later.uniform != 0 && earlier.last_color == later.first_color ? 1u : 0u};
}

// What a sorter tells a member about its new team.
struct Answer {
  int owner;  // parent rank
  int color;
  int rank;
  int size;
  std::uint64_t first_position;
};

// The reverse half of a row on its way to the sorter whose slice holds it.
struct AddressedReverseRow {
  int parent_rank;
  int color;
  int rank;
};

// Sort groups read their ranks in reverse through this map (for the backward scan).
class ReversedRanks final : public comm::RankMap {
public:
  ReversedRanks(comm::Group group) : group_(std::move(group)) {}
  int to_base(int rank) const override { return group_.base_rank(group_.size() - 1 - rank); }

private:
  comm::Group group_;
};

// Sends values[k] to member k of `group` (any number each); returns what arrived, by source.
template <class T>
std::vector<T> exchange_by_destination(const std::vector<std::vector<T>>& outgoing, const comm::Group& group) {
  const auto p = static_cast<std::size_t>(group.size());
  std::vector<std::size_t> send_counts(p);
  std::vector<T> packed;
  for (std::size_t k = 0; k < p; ++k) {
    send_counts[k] = outgoing[k].size();
    packed.insert(packed.end(), outgoing[k].begin(), outgoing[k].end());
  }
  return comm::alltoallv(packed, std::span<const std::size_t>(send_counts), group).data;
}

// Which members hold the distributed table (detail/distributed_table.hpp): table groups of
// stride `stride`, the first `holders` members of each holding the rows.
struct TableLayout {
  int stride;
  int holders;
};

// By default the sort groups (stride m / p) and the members folded into them share a table held
// by the p sorters; otherwise groups of stride floor(n / P') hold it on their first P' members,
// so every member of [0, n) belongs to exactly one group and each group has at least P' members.
TableLayout table_layout(int n, int sorters, int table_holders) {
  if (table_holders == 0) {
    return {doubling_size(n) / sorters, sorters};
  }
  return {n / table_holders, table_holders};
}

// The table layout of a split with valid `options` of a team of n members, and its number of sorters p.
struct DistributedSplit {
  int sorters;
  TableLayout layout;
};

DistributedSplit distributed_split(int n, const SplitOptions& options) {
  const int sorters = options.sorters > 0 ? options.sorters : default_sorters(n);
  const int p = std::clamp(sorters, 1, doubling_size(n));
  return {p, table_layout(n, p, options.table_holders)};
}

bool keeps_distributed_table(int n, SplitAlgorithm algorithm) {
  return algorithm == SplitAlgorithm::parallel_sort_distributed_table ||
         (algorithm == SplitAlgorithm::automatic && n > automatic_full_table_limit);
}

// Moves the complete rows of the caller's sort slice (`sorted`, items from `sorted_first`; empty
// for a member that did not sort) to the holders that keep them, and receives the caller's own
// rows, if it holds any, into `own`, its reserved range of the table window. Sort group j feeds
// the table groups g with g mod sort_stride == j, so each table group gets one whole copy. A pair
// of processes exchanges at most one message, since a process sorts in one sort group and holds
// in one table group; rows that stay on the process are copied.
std::unique_ptr<TableRows> hand_rows_to_holders(const comm::Group& parent, const TableLayout& layout, int sorters,
                                                int sort_stride, const std::vector<TableRow>& sorted,
                                                std::uint64_t sorted_first, int tag,
                                                std::unique_ptr<TableRows> own) {
  const auto n = static_cast<std::uint64_t>(parent.size());
  const int me = parent.rank();
  comm::PendingMessages messages;
  const auto receive = [&](TableRow* into, std::uint64_t rows, int peer) {
    messages.start_receive(std::span<TableRow>(into, rows), parent, peer, tag, service);
  };
  const auto send = [&](const TableRow* from, std::uint64_t rows, int peer) {
    messages.start_send(std::span<const TableRow>(from, rows), parent, peer, tag, service);
  };
  const int group = me % layout.stride;
  const int index = me / layout.stride;
  if (index < layout.holders) {
    const BalancedSlice rows = balanced_slice(n, layout.holders, index);
    assert_that(own && own->bytes() == rows.count * sizeof(TableRow),
                "dash::Team::split_by: the rows reserved before the split are the rows the caller holds");
    auto* held = reinterpret_cast<TableRow*>(comm::TableWindow::current().local().data() + own->offset());
    const int feeder = group % sort_stride;
    const int last = balanced_owner(n, sorters, rows.first + rows.count - 1);
    for (int sorter = balanced_owner(n, sorters, rows.first); sorter <= last; ++sorter) {
      const BalancedSlice from = balanced_slice(n, sorters, sorter);
      const std::uint64_t lo = std::max(rows.first, from.first);
      const std::uint64_t hi = std::min(rows.first + rows.count, from.first + from.count);
      const int source = feeder + sorter * sort_stride;
      if (source == me) {
        std::copy_n(sorted.begin() + static_cast<std::ptrdiff_t>(lo - sorted_first), hi - lo, held + (lo - rows.first));
      } else {
        receive(held + (lo - rows.first), hi - lo, source);
      }
    }
  }
  if (!sorted.empty()) {
    const std::uint64_t sorted_end = sorted_first + sorted.size();
    const int first_holder = balanced_owner(n, layout.holders, sorted_first);
    const int last_holder = balanced_owner(n, layout.holders, sorted_end - 1);
    for (int fed = me % sort_stride; fed < layout.stride; fed += sort_stride) {
      for (int holder = first_holder; holder <= last_holder; ++holder) {
        const BalancedSlice to = balanced_slice(n, layout.holders, holder);
        const std::uint64_t lo = std::max(sorted_first, to.first);
        const std::uint64_t hi = std::min(sorted_end, to.first + to.count);
        const int destination = fed + holder * layout.stride;
        if (destination != me) {
          send(sorted.data() + (lo - sorted_first), hi - lo, destination);
        }
      }
    }
  }
  messages.wait();
  return own;
}

// Sack's technique 3: the sorted table stays distributed, over the sort groups or, with
// `table_holders` = P', over groups of P' holders.
SplitResult parallel_sort_distributed(const comm::Group& parent, std::shared_ptr<const TeamRanks> parent_ranks,
                                      const SplitRecord& mine, const SplitOptions& options,
                                      comm::TagSpace scratch_tags, std::unique_ptr<TableRows> reserved_rows) {
  const int n = parent.size();
  const int m = doubling_size(n);
  const auto [p, layout] = distributed_split(n, options);
  const int stages = log2_of(m / p);
  const int stride = 1 << stages;
  const int tag = parent.next_tag();
  const int rows_tag = parent.next_tag();
  std::vector<SplitRecord> block = collect_block(parent, mine, stages, tag);
  auto table = std::make_shared<SplitTable>();
  table->records = static_cast<std::uint64_t>(n);
  table->holders = layout.holders;
  table->group_first = parent.rank() % layout.stride;
  table->stride = layout.stride;
  table->parent_ranks = std::move(parent_ranks);
  // Thirds of the scratch tags for the forward and backward sort groups and the table group: they
  // share members and run one after another, so their sequences must not meet.
  const int third = scratch_tags.count / 3;
  const comm::TagSpace forward_tags{scratch_tags.first, third};
  const comm::TagSpace backward_tags{scratch_tags.first + third, third};
  const comm::TagSpace table_tags{scratch_tags.first + 2 * third, third};
  SplitResult result;
  std::vector<Answer> answers;
  std::vector<TableRow> sorted_rows;  // complete rows of the caller's sort slice
  std::uint64_t sorted_first = 0;
  if (parent.rank() < m) {
    const int index = parent.rank() >> stages;
    const comm::Group group(p, index, std::make_shared<StridedMembers>(parent, parent.rank() & (stride - 1), stride),
                            forward_tags);
    const comm::Group backward(p, p - 1 - index, std::make_shared<ReversedRanks>(group), backward_tags);
    result.peak_rows = block.size();
    SortedSlice<SplitRecord> sorted = parallel_sort(std::move(block), std::less<>(), group, collected_block());
    const std::vector<SplitRecord>& slice = sorted.elements;
    const std::uint64_t first = sorted.global_first;
    sorted_first = first;

    // Phase C: where the runs of the slice's end colors start and end globally.
    const auto run_end_in_slice = [&](std::size_t at) {
      std::size_t end = at;
      while (end < slice.size() && slice[end].color == slice[at].color) {
        ++end;
      }
      return end;
    };
    std::size_t last_run_begin = slice.size() - 1;
    while (last_run_begin > 0 && slice[last_run_begin - 1].color == slice.back().color) {
      --last_run_begin;
    }
    const std::uint64_t uniform = slice.front().color == slice.back().color ? 1u : 0u;
    const RunEdges forward{slice.front().color, slice.back().color, first + last_run_begin, uniform};
    const RunEdges backward_edges{slice.back().color, slice.front().color, first + run_end_in_slice(0), uniform};
    const auto op = comm::non_commutative(combine_runs);
    std::vector<RunEdges> before(1);
    std::vector<RunEdges> after(1);
    comm::exscan(std::span<const RunEdges>(&forward, 1), before, op, group);
    comm::exscan(std::span<const RunEdges>(&backward_edges, 1), after, op, backward);
    const std::uint64_t first_run_start =
        index > 0 && before[0].last_color == slice.front().color ? before[0].last_run_edge : first;
    const std::uint64_t last_run_end =
        index < p - 1 && after[0].last_color == slice.back().color ? after[0].last_run_edge : first + slice.size();

    // Answers for the members this group serves, and reverse rows to the sorters whose slice
    // holds their parent rank, so that every sorter ends with complete rows.
    std::vector<std::vector<Answer>> to_members(static_cast<std::size_t>(p));
    std::vector<std::vector<AddressedReverseRow>> to_row_sorters(static_cast<std::size_t>(p));
    sorted_rows.resize(slice.size());
    const int group_first = parent.rank() & (stride - 1);
    for (std::size_t at = 0; at < slice.size();) {
      const std::size_t end = run_end_in_slice(at);
      const std::uint64_t run_start = at == 0 ? first_run_start : first + at;
      const std::uint64_t run_end = end == slice.size() ? last_run_end : first + end;
      for (std::size_t i = at; i < end; ++i) {
        const SplitRecord& record = slice[i];
        sorted_rows[i].base_rank = record.base_rank;
        const int rank = record.color < 0 ? -1 : static_cast<int>(first + i - run_start);
        const int row_sorter = balanced_owner(table->records, p, static_cast<std::uint64_t>(record.parent_rank));
        to_row_sorters[static_cast<std::size_t>(row_sorter)].push_back({record.parent_rank, record.color, rank});
        const int served_by = record.parent_rank < m ? record.parent_rank : record.parent_rank - m;
        if (record.color >= 0 && (served_by & (stride - 1)) == group_first) {
          to_members[static_cast<std::size_t>(served_by >> stages)].push_back(
              Answer{record.parent_rank, record.color, rank, static_cast<int>(run_end - run_start), run_start});
        }
      }
      at = end;
    }
    answers = exchange_by_destination(to_members, group);
    for (const AddressedReverseRow& reverse : exchange_by_destination(to_row_sorters, group)) {
      TableRow& row = sorted_rows[static_cast<std::uint64_t>(reverse.parent_rank) - first];
      row.color = reverse.color;
      row.rank = reverse.rank;
    }
    result.peak_rows = std::max(result.peak_rows, slice.size() + sorted_rows.size());
    // The member folded into the caller learns its answer.
    if (parent.rank() + m < n) {
      const int folded = parent.rank() + m;
      std::vector<Answer> its_answer;
      std::copy_if(answers.begin(), answers.end(), std::back_inserter(its_answer),
                   [&](const Answer& answer) { return answer.owner == folded; });
      const std::uint64_t count = its_answer.size();
      send_values(std::span<const std::uint64_t>(&count, 1), parent, folded, tag);
      send_values<Answer>(its_answer, parent, folded, tag);
    }
  } else {
    const int peer = parent.rank() - m;
    const std::size_t count = receive_values<std::uint64_t>(1, parent, peer, tag)[0];
    answers = receive_values<Answer>(count, parent, peer, tag);
  }

  // The rows go to their holders, and the caller's table group learns where they are.
  table->own_rows =
      hand_rows_to_holders(parent, layout, p, stride, sorted_rows, sorted_first, rows_tag, std::move(reserved_rows));
  result.peak_rows = std::max(result.peak_rows, sorted_rows.size() + table->rows_held());
  comm::TableWindow::current().publish();
  const int members = (n - table->group_first + layout.stride - 1) / layout.stride;
  const auto table_members = std::make_shared<StridedMembers>(parent, table->group_first, layout.stride);
  const comm::Group table_group(members, parent.rank() / layout.stride, table_members, table_tags);
  const std::uint64_t offset = table->own_rows ? table->own_rows->offset() : 0;
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(members));
  comm::allgather(std::span<const std::uint64_t>(&offset, 1), offsets, table_group);
  offsets.resize(static_cast<std::size_t>(layout.holders));
  const bool shared_offset = std::all_of(offsets.begin(), offsets.end(), [&](auto at) { return at == offsets[0]; });
  table->offsets = shared_offset ? std::vector<std::uint64_t>{offsets[0]} : std::move(offsets);

  result.retained = table;
  const auto own = std::find_if(answers.begin(), answers.end(),
                                [&](const Answer& answer) { return answer.owner == parent.rank(); });
  if (mine.color < 0 || own == answers.end()) {
    return result;
  }
  result.member = true;
  result.rank = own->rank;
  result.size = own->size;
  result.ranks = std::make_shared<DistributedTableRanks>(table, own->first_position, own->size, own->color);
  return result;
}
}  // namespace

std::vector<SplitRecord> collect_sorted(const comm::Group& group, const SplitRecord& mine) {
  const int tag = group.next_tag();
  std::vector<SplitRecord> table = collect_block(group, mine, log2_of(doubling_size(group.size())), tag);
  return share_with_folded(group, std::move(table), tag);
}

int default_sorters(int group_size) noexcept {
  // Sack's best p grows with n (32 to 64 sorters for 8M to 128M processes); small teams use a
  // few, so that phase A does most of the work.
  const int m = doubling_size(std::max(group_size, 1));
  return std::clamp(doubling_size(std::max(m / 16, 1)), 1, 64);
}

TableReservation reserve_table_rows(int size, int rank, const SplitOptions& options) {
  TableReservation reservation;
  if (!keeps_distributed_table(size, options.algorithm)) {
    return reservation;
  }
  const TableLayout layout = distributed_split(size, options).layout;
  const int index = rank / layout.stride;
  if (index >= layout.holders) {
    return reservation;
  }
  reservation.row_count = balanced_slice(static_cast<std::uint64_t>(size), layout.holders, index).count;
  const std::shared_ptr<TableSpace> space = TableSpace::current();
  try {
    reservation.rows = std::make_unique<TableRows>(space, reservation.row_count * sizeof(TableRow), service);
  } catch (const BadAlloc&) {
    reservation.no_room = true;
    reservation.bytes_in_use = space->bytes_in_use();
  }
  return reservation;
}

void throw_no_room_for_table(const comm::Group& parent, int member, const TableReservation& mine) {
  // Only `member` knows its numbers (the window's size may differ between processes); the others
  // add zeros.
  const bool named = parent.rank() == member;
  const std::array<std::uint64_t, 3> known{
      named ? mine.row_count : 0, named ? mine.bytes_in_use : 0,
      named ? static_cast<std::uint64_t>(comm::TableWindow::current().local().size()) : 0};
  std::array<std::uint64_t, 3> theirs{};
  comm::allreduce(known, theirs, dash::max{}, parent);
  const auto [rows, in_use, window_bytes] = theirs;
  throw BadAlloc(std::string(service) + ": member " + std::to_string(member) + " of the team (process " +
                 std::to_string(parent.base_rank(member)) +
                 ") has no room in its segment of the table window for its " + std::to_string(rows) +
                 (rows == 1 ? " row" : " rows") + " of the split's distributed table: no free range of " +
                 std::to_string(rows * sizeof(TableRow)) + " bytes, " + std::to_string(in_use) + " of " +
                 std::to_string(window_bytes) +
                 " bytes in use; raise DASH_TABLE_WINDOW_BYTES, free teams that are no longer needed (a team keeps "
                 "the rows of its distributed-table splits until it is freed), or spread the table over more "
                 "holders (SplitOptions::table_holders)");
}

SplitResult split_service(const comm::Group& parent, std::shared_ptr<const TeamRanks> parent_ranks, int color,
                          int key, const SplitOptions& options, comm::TagSpace scratch_tags,
                          TableReservation reserved) {
  const SplitRecord mine{color < 0 ? -1 : color, key, parent.rank(), parent.base_rank(parent.rank())};
  if (keeps_distributed_table(parent.size(), options.algorithm)) {
    return parallel_sort_distributed(parent, std::move(parent_ranks), mine, options, scratch_tags,
                                     std::move(reserved.rows));
  }
  std::vector<SplitRecord> table;
  SplitResult result;
  switch (options.algorithm) {
    case SplitAlgorithm::conventional:
      table.resize(static_cast<std::size_t>(parent.size()));
      comm::allgather(std::span<const SplitRecord>(&mine, 1), table, parent);
      std::sort(table.begin(), table.end());
      break;
    case SplitAlgorithm::automatic:
    case SplitAlgorithm::merge_per_step:
      table = collect_sorted(parent, mine);
      break;
    case SplitAlgorithm::parallel_sort_full_table:
      table = parallel_sort_table(parent, mine, options.sorters > 0 ? options.sorters : default_sorters(parent.size()),
                                  scratch_tags, result.peak_rows);
      break;
    case SplitAlgorithm::parallel_sort_distributed_table:
      break;  // ran above
  }
  result.peak_rows = std::max(result.peak_rows, table.size());
  if (mine.color < 0) {
    return result;
  }
  const auto [first, last] = std::equal_range(table.begin(), table.end(), mine, [](const auto& a, const auto& b) {
    return a.color < b.color;
  });
  std::vector<int> base_of_rank;
  base_of_rank.reserve(static_cast<std::size_t>(last - first));
  for (auto record = first; record != last; ++record) {
    if (record->parent_rank == mine.parent_rank) {
      result.rank = static_cast<int>(base_of_rank.size());
    }
    base_of_rank.push_back(record->base_rank);
  }
  result.member = true;
  result.size = static_cast<int>(base_of_rank.size());
  result.ranks = compact_ranks(std::move(base_of_rank));
  return result;
}

}  // namespace dash::detail

namespace dash {

std::string_view to_string(SplitAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case SplitAlgorithm::automatic:
      return "automatic";
    case SplitAlgorithm::conventional:
      return "conventional";
    case SplitAlgorithm::merge_per_step:
      return "merge_per_step";
    case SplitAlgorithm::parallel_sort_full_table:
      return "parallel_sort_full_table";
    case SplitAlgorithm::parallel_sort_distributed_table:
      return "parallel_sort_distributed_table";
  }
  return "?";
}

}  // namespace dash
