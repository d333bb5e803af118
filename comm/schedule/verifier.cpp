// The schedule verifier (include/dash/comm/schedule/verifier.hpp; docs/testing.md, "Schedules and
// the verifier"): runs every rank's schedule symbolically and proves the result.
//
// Map: Content (what a block holds);
// Time (the α-β-γ critical path); posted sends and receives, Fifo, Channel, RankState; names for
// messages; Simulation: initialise and expected (what each output must hold), collect_metrics (the
// static checks and counts), start_rounds / post / match / complete / write (the execution),
// check_all_finished, check_outputs; verify, the entry point.

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>

#include <dash/comm/schedule/verifier.hpp>

#include "schedule/rank_sets.hpp"

namespace dash::comm::schedule {

namespace {

using verification::RankSets;

constexpr std::uint32_t no_origin = std::numeric_limits<std::uint32_t>::max();

// What a block holds: block `origin` of the contributions of the ranks in `ranks`.
struct Content {
  std::uint32_t origin = no_origin;
  std::uint32_t ranks = 0;
  bool defined() const noexcept { return origin != no_origin; }
  friend bool operator==(const Content&, const Content&) = default;
};

// Critical-path time, one component per cost term (α, β, γ evaluated as unit vectors).
struct Time {
  double startups = 0;
  double blocks = 0;
  double reduced = 0;
};

Time latest(const Time& a, const Time& b) {
  return {std::max(a.startups, b.startups), std::max(a.blocks, b.blocks),
          std::max(a.reduced, b.reduced)};
}

// Most messages of a sweep carry one to a few blocks: kept in place, a payload costs no
// allocation (at P = 1024 a pairwise reduce-scatter posts a million sends).
using Payload = boost::container::small_vector<Content, 4>;

struct PostedSend {
  int sender = 0;
  Payload payload;
  Time posted;
};

struct PostedReceive {
  int receiver = 0;
  const Action* action = nullptr;
  Time posted;
};

// A FIFO that allocates nothing while empty: the verifier keeps one pair per communicating pair
// of ranks, most of them idle at any time.
template <class T>
class Fifo {
public:
  bool empty() const noexcept { return head_ == items_.size(); }
  T& front() { return items_[head_]; }
  void push_back(T item) { items_.push_back(std::move(item)); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    }
  }

private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

struct Channel {
  Fifo<PostedSend> sends;
  Fifo<PostedReceive> receives;
};

struct RankState {
  Schedule schedule;
  std::array<std::vector<Content>, 3> buffers;
  std::size_t round = 0;
  std::size_t pending = 0;  // actions of the current round not yet complete
  Time round_start;
  Time round_end;
  bool started = false;
  bool finished() const noexcept { return round >= schedule.rounds.size(); }
};

std::string_view buffer_name(Buffer buffer) {
  switch (buffer) {
    case Buffer::input:
      return "input";
    case Buffer::output:
      return "output";
    case Buffer::scratch:
      break;
  }
  return "scratch";
}

std::string_view kind_name(ActionKind kind) {
  switch (kind) {
    case ActionKind::send:
      return "send";
    case ActionKind::receive:
      return "receive";
    case ActionKind::receive_reduce:
      return "receive_reduce";
    case ActionKind::copy:
      return "copy";
    case ActionKind::reduce:
      break;
  }
  return "reduce";
}

class Simulation {
public:
  Simulation(const CollectiveShape& shape, const ScheduleOfRank& schedule_of, VerifyOptions options)
      : shape_(shape), options_(options), ranks_(static_cast<std::size_t>(shape.size)) {
    if (shape_.collective == Coll::barrier) {
      // Barrier tokens only say "has arrived": hearing from a rank twice is harmless.
      shape_.op = OpTraits{true, true};
    }
    for (int r = 0; r < shape.size; ++r) {
      RankState& state = rank(r);
      state.schedule = schedule_of(r);
      state.buffers[0].assign(shape.input_blocks(r), Content{});
      state.buffers[1].assign(shape.output_blocks(r), Content{});
      state.buffers[2].assign(state.schedule.scratch_blocks, Content{});
      initialise(r, state);
    }
  }

  VerificationReport run() {
    VerificationReport report;
    if (!collect_metrics(report.metrics)) {
      report.error = error_;
      return report;
    }
    for (int r = 0; r < shape_.size; ++r) {
      ready_.push_back(r);
    }
    while (!ready_.empty() && error_.empty()) {
      const int r = ready_.front();
      ready_.pop_front();
      start_rounds(r);
    }
    if (error_.empty()) {
      check_all_finished();
    }
    if (error_.empty()) {
      check_outputs();
    }
    if (!error_.empty()) {
      report.error = error_;
      return report;
    }
    Time end;
    for (const RankState& state : ranks_) {
      end = latest(end, state.round_end);
    }
    report.metrics.critical_startups = end.startups;
    report.metrics.critical_blocks = end.blocks;
    report.metrics.critical_reduced_blocks = end.reduced;
    report.ok = true;
    return report;
  }

private:
  RankState& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }

  void initialise(int r, RankState& state) {
    const auto me = static_cast<std::uint32_t>(r);
    auto& input = state.buffers[0];
    switch (shape_.collective) {
      case Coll::bcast:
        if (r == shape_.root) {
          for (std::uint32_t b = 0; b < state.buffers[1].size(); ++b) {
            state.buffers[1][b] = Content{b, sets_.single(me)};
          }
        }
        break;
      default:
        for (std::uint32_t b = 0; b < input.size(); ++b) {
          input[b] = Content{b, sets_.single(me)};
        }
        break;
    }
  }

  // The content block b of rank r's output must end with; undefined where the collective leaves
  // the output untouched (exscan at rank 0, neighbor_alltoall slots without a neighbour).
  Content expected(int r, std::uint32_t b) {
    const std::uint32_t s = shape_.segments;
    const auto p = static_cast<std::uint32_t>(shape_.size);
    const auto me = static_cast<std::uint32_t>(r);
    const auto root = static_cast<std::uint32_t>(shape_.root);
    auto all_ranks = [&](std::uint32_t count) { return sets_.prefix(count); };
    switch (shape_.collective) {
      case Coll::bcast:
        return {b, sets_.single(root)};
      case Coll::reduce:
      case Coll::allreduce:
        return {b, all_ranks(p)};
      case Coll::gather:
      case Coll::allgather:
        return {b % s, sets_.single(b / s)};
      case Coll::scatter:
        return {me * s + b, sets_.single(root)};
      case Coll::reduce_scatter:
        return {me * s + b, all_ranks(p)};
      case Coll::alltoall:
        return {me * s + b % s, sets_.single(b / s)};
      case Coll::scan:
        return {b, all_ranks(me + 1)};
      case Coll::exscan:
        return me == 0 ? Content{} : Content{b, all_ranks(me)};
      case Coll::neighbor_alltoall: {
        // The neighbour in slot k sent this rank its opposite slot k ^ 1.
        const std::uint32_t slot = b / s;
        const std::optional<int> neighbor = shape_.grid->neighbor_in_slot(r, static_cast<int>(slot));
        if (!neighbor) {
          return {};
        }
        return {(slot ^ 1u) * s + b % s, sets_.single(static_cast<std::uint32_t>(*neighbor))};
      }
      case Coll::barrier:
        break;
    }
    return {0, all_ranks(p)};
  }

  std::string where(int r, std::size_t round, const Action& action) const {
    std::string text = "rank " + std::to_string(r) + " round " + std::to_string(round) + " " +
                       std::string(kind_name(action.kind));
    if (action.is_message()) {
      text += (action.kind == ActionKind::send ? " to " : " from ") + std::to_string(action.peer);
    }
    text += " (" + std::string(buffer_name(action.buffer)) + " blocks, " +
            std::to_string(action.blocks.size()) + ")";
    return text;
  }

  void fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
    }
  }

  // Static checks and counts that need no execution: peers and block indices in range, no
  // writes to the input, no conflicting accesses within a round.
  bool collect_metrics(ScheduleMetrics& metrics) {
    for (int r = 0; r < shape_.size && error_.empty(); ++r) {
      RankState& state = rank(r);
      std::size_t messages = 0;
      std::uint64_t blocks = 0;
      std::size_t communication_rounds = 0;
      for (std::size_t k = 0; k < state.schedule.rounds.size(); ++k) {
        const auto& actions = state.schedule.rounds[k].actions;
        if (std::any_of(actions.begin(), actions.end(), [](const Action& a) { return a.is_message(); })) {
          ++communication_rounds;
        }
        ++round_serial_;
        reads_.clear();
        for (const Action& action : state.schedule.rounds[k].actions) {
          if (action.is_message() && (action.peer < 0 || action.peer >= shape_.size || action.peer == r)) {
            fail(where(r, k, action) + ": peer " + std::to_string(action.peer) +
                 " is not another rank of a group of " + std::to_string(shape_.size));
            return false;
          }
          if (action.writes() && action.buffer == Buffer::input) {
            fail(where(r, k, action) + ": writes the input buffer");
            return false;
          }
          if (!in_bounds(state, action.buffer, action.blocks, r, k, action)) {
            return false;
          }
          const bool local = action.kind == ActionKind::copy || action.kind == ActionKind::reduce;
          if (local && !in_bounds(state, action.source, action.source_blocks, r, k, action)) {
            return false;
          }
          if (local && action.source_blocks.size() != action.blocks.size()) {
            fail(where(r, k, action) + ": source has " + std::to_string(action.source_blocks.size()) +
                 " blocks, destination " + std::to_string(action.blocks.size()));
            return false;
          }
          for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
            const BlockRef block{action.buffer, action.blocks[t]};
            if (action.writes()) {
              WriterMark& mark = writer_mark(state, block);
              if (mark.round == round_serial_) {
                fail(where(r, k, action) + ": block " + std::to_string(action.blocks[t]) +
                     " is written twice in the same round");
                return false;
              }
              mark = WriterMark{round_serial_, &action};
              if (action.combines()) {
                reads_.emplace_back(block, &action);  // a combination also reads its destination
              }
            } else {
              reads_.emplace_back(block, &action);
            }
          }
          if (local) {
            for (std::uint32_t t = 0; t < action.source_blocks.size(); ++t) {
              reads_.emplace_back(BlockRef{action.source, action.source_blocks[t]}, &action);
            }
          }
          if (action.kind == ActionKind::send) {
            ++messages;
            blocks += action.blocks.size();
          }
        }
        for (const auto& [block, reader] : reads_) {
          const WriterMark& mark = writer_mark(state, block);
          if (mark.round == round_serial_ && mark.writer != reader) {
            fail(where(r, k, *reader) + ": reads a block another action of the same round writes");
            return false;
          }
        }
      }
      metrics.max_communication_rounds = std::max(metrics.max_communication_rounds, communication_rounds);
      metrics.max_messages_sent = std::max(metrics.max_messages_sent, messages);
      metrics.total_messages += messages;
      metrics.max_blocks_sent = std::max(metrics.max_blocks_sent, blocks);
      metrics.total_blocks_sent += blocks;
    }
    return error_.empty();
  }

  struct BlockRef {
    Buffer buffer;
    std::uint32_t block;
  };

  // Which action wrote a block in the round numbered `round` (a running serial over all ranks'
  // rounds, so the marks never need clearing).
  struct WriterMark {
    std::uint64_t round = 0;
    const Action* writer = nullptr;
  };

  WriterMark& writer_mark(const RankState& state, const BlockRef& ref) {
    auto& marks = writer_marks_[static_cast<std::size_t>(ref.buffer)];
    const std::size_t needed = state.buffers[static_cast<std::size_t>(ref.buffer)].size();
    if (marks.size() < needed) {
      marks.resize(needed);
    }
    return marks[ref.block];
  }

  bool in_bounds(const RankState& state, Buffer buffer, const BlockSet& blocks, int r, std::size_t k,
                 const Action& action) {
    const auto limit = state.buffers[static_cast<std::size_t>(buffer)].size();
    for (std::uint32_t t = 0; t < blocks.size(); ++t) {
      if (blocks[t] >= limit) {
        fail(where(r, k, action) + ": block " + std::to_string(blocks[t]) + " is outside the " +
             std::string(buffer_name(buffer)) + " buffer of " + std::to_string(limit) + " blocks");
        return false;
      }
    }
    return true;
  }

  // Starts rounds of rank r until one has to wait for messages or the schedule ends.
  void start_rounds(int r) {
    RankState& state = rank(r);
    if (state.started && state.pending > 0) {
      return;
    }
    while (!state.finished() && error_.empty()) {
      if (state.started) {
        ++state.round;
        state.round_start = state.round_end;
        if (state.finished()) {
          return;
        }
      }
      state.started = true;
      const Round& round = state.schedule.rounds[state.round];
      state.pending = 0;
      state.round_end = state.round_start;
      for (const Action& action : round.actions) {
        post(r, state, action);
      }
      if (state.pending > 0) {
        return;
      }
    }
  }

  void post(int r, RankState& state, const Action& action) {
    switch (action.kind) {
      case ActionKind::send: {
        PostedSend send{r, {}, state.round_start};
        send.payload.reserve(action.blocks.size());
        const auto& buffer = state.buffers[static_cast<std::size_t>(action.buffer)];
        for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
          const Content& content = buffer[action.blocks[t]];
          if (!content.defined()) {
            fail(where(r, state.round, action) + ": sends block " + std::to_string(action.blocks[t]) +
                 " before anything was written to it");
            return;
          }
          send.payload.push_back(content);
        }
        ++state.pending;
        channel(r, action.peer).sends.push_back(std::move(send));
        match(r, action.peer);
        break;
      }
      case ActionKind::receive:
      case ActionKind::receive_reduce:
        ++state.pending;
        channel(action.peer, r).receives.push_back(PostedReceive{r, &action, state.round_start});
        match(action.peer, r);
        break;
      case ActionKind::copy:
      case ActionKind::reduce: {
        Payload incoming;
        const auto& source = state.buffers[static_cast<std::size_t>(action.source)];
        for (std::uint32_t t = 0; t < action.source_blocks.size(); ++t) {
          incoming.push_back(source[action.source_blocks[t]]);
        }
        Time done = state.round_start;
        if (action.kind == ActionKind::reduce) {
          done.reduced += static_cast<double>(action.blocks.size());
        }
        write(r, state, action, {incoming.data(), incoming.size()});
        state.round_end = latest(state.round_end, done);
        break;
      }
    }
  }

  Channel& channel(int from, int to) {
    const std::uint64_t key = std::uint64_t{static_cast<std::uint32_t>(from)} << 32 | static_cast<std::uint32_t>(to);
    if (const std::uint32_t* index = channel_index_.find(key)) {
      return channels_[*index];
    }
    channel_index_.insert(key, static_cast<std::uint32_t>(channels_.size()));
    return channels_.emplace_back();
  }

  void match(int from, int to) {
    Channel& link = channel(from, to);
    while (!link.sends.empty() && !link.receives.empty() && error_.empty()) {
      PostedSend send = std::move(link.sends.front());
      link.sends.pop_front();
      const PostedReceive receive = link.receives.front();
      link.receives.pop_front();
      RankState& receiver = rank(to);
      RankState& sender = rank(from);
      const Action& action = *receive.action;
      if (send.payload.size() != action.blocks.size()) {
        fail(where(to, receiver.round, action) + ": expects " + std::to_string(action.blocks.size()) +
             " blocks, but the matching send of rank " + std::to_string(from) + " (its round " +
             std::to_string(sender.round) + ") carries " + std::to_string(send.payload.size()));
        return;
      }
      const auto blocks = static_cast<double>(send.payload.size());
      Time arrival = latest(send.posted, receive.posted);
      arrival.startups += 1;
      arrival.blocks += blocks;
      Time done = arrival;
      if (action.kind == ActionKind::receive_reduce) {
        done.reduced += blocks;
      }
      write(to, receiver, action, {send.payload.data(), send.payload.size()});
      receiver.round_end = latest(receiver.round_end, done);
      sender.round_end = latest(sender.round_end, arrival);
      complete(to);
      complete(from);
    }
  }

  void complete(int r) {
    RankState& state = rank(r);
    if (--state.pending == 0) {
      ready_.push_back(r);
    }
  }

  void write(int r, RankState& state, const Action& action, std::span<const Content> incoming) {
    auto& buffer = state.buffers[static_cast<std::size_t>(action.buffer)];
    for (std::uint32_t t = 0; t < action.blocks.size(); ++t) {
      Content& target = buffer[action.blocks[t]];
      const Content& arriving = incoming[t];
      if (!arriving.defined()) {
        fail(where(r, state.round, action) + ": reads block " +
             std::to_string(action.kind == ActionKind::copy || action.kind == ActionKind::reduce
                                ? action.source_blocks[t]
                                : action.blocks[t]) +
             " before anything was written to it");
        return;
      }
      // Block i of every buffer is segment i % S of a contribution, and segments may differ in
      // size by one element, so a block may only hold data of its own segment.
      if (shape_.segments > 0 && arriving.origin % shape_.segments != action.blocks[t] % shape_.segments) {
        fail(where(r, state.round, action) + ": puts segment " +
             std::to_string(arriving.origin % shape_.segments) + " into block " +
             std::to_string(action.blocks[t]) + " of segment " +
             std::to_string(action.blocks[t] % shape_.segments) + " (sizes may differ)");
        return;
      }
      if (!action.combines()) {
        target = arriving;
        continue;
      }
      if (!target.defined()) {
        fail(where(r, state.round, action) + ": combines into block " + std::to_string(action.blocks[t]) +
             ", which holds nothing yet");
        return;
      }
      if (target.origin != arriving.origin) {
        fail(where(r, state.round, action) + ": combines block " + std::to_string(arriving.origin) +
             " into block " + std::to_string(action.blocks[t]) + ", which holds block " +
             std::to_string(target.origin));
        return;
      }
      const bool incoming_left = action.operand == Operand::incoming_left;
      std::string problem;
      const auto combined = incoming_left ? sets_.combine(arriving.ranks, target.ranks, shape_.op, problem)
                                          : sets_.combine(target.ranks, arriving.ranks, shape_.op, problem);
      if (!combined) {
        fail(where(r, state.round, action) + ": block " + std::to_string(action.blocks[t]) + " " + problem);
        return;
      }
      target.ranks = *combined;
    }
  }

  void check_all_finished() {
    std::string stuck;
    int count = 0;
    for (int r = 0; r < shape_.size; ++r) {
      const RankState& state = ranks_[static_cast<std::size_t>(r)];
      if (state.finished()) {
        continue;
      }
      if (++count <= 4) {
        stuck += (stuck.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + " in round " +
                 std::to_string(state.round) + " waits for " + pending_peers(r, state);
      }
    }
    if (count > 0) {
      fail("deadlock: " + std::to_string(count) + " rank(s) cannot finish: " + stuck);
    }
  }

  std::string pending_peers(int r, const RankState& state) {
    std::string text;
    for (const Action& action : state.schedule.rounds[state.round].actions) {
      if (!action.is_message()) {
        continue;
      }
      const bool is_send = action.kind == ActionKind::send;
      const Channel& link = is_send ? channel(r, action.peer) : channel(action.peer, r);
      const bool waiting = is_send ? !link.sends.empty() : !link.receives.empty();
      if (waiting) {
        text += (text.empty() ? "" : ", ") + std::string(is_send ? "send to " : "receive from ") +
                std::to_string(action.peer);
      }
    }
    return text.empty() ? "nothing (bug in the verifier)" : text;
  }

  void check_outputs() {
    for (int r = 0; r < shape_.size && error_.empty(); ++r) {
      const auto& output = rank(r).buffers[1];
      std::vector<Content> wanted(output.size());
      for (std::uint32_t b = 0; b < output.size(); ++b) {
        wanted[b] = expected(r, b);
      }
      const auto& placement = rank(r).schedule.placement;
      if (options_.allow_non_canonical && !placement.empty()) {
        if (placement.size() != output.size()) {
          fail("rank " + std::to_string(r) + " declares a placement of " + std::to_string(placement.size()) +
               " blocks for an output of " + std::to_string(output.size()));
          return;
        }
        for (std::uint32_t b = 0; b < output.size(); ++b) {
          const Content declared = expected(r, placement[b]);
          if (declared.defined() && !(output[b] == declared)) {
            fail("rank " + std::to_string(r) + " output block " + std::to_string(b) + " holds " + describe(output[b]) +
                 ", but the placement declares " + describe(declared));
            return;
          }
        }
        continue;
      }
      if (options_.allow_non_canonical) {
        check_permutation(r, output, wanted);
        continue;
      }
      for (std::uint32_t b = 0; b < output.size(); ++b) {
        if (!wanted[b].defined() && output[b].defined()) {
          // e.g. exscan's rank 0 or a neighbour slot at a non-periodic edge: MPI leaves that
          // output untouched, so must a schedule.
          fail("rank " + std::to_string(r) + " output block " + std::to_string(b) + " holds " + describe(output[b]) +
               ", but the collective leaves it untouched");
          return;
        }
        if (wanted[b].defined() && !(output[b] == wanted[b])) {
          fail("rank " + std::to_string(r) + " output block " + std::to_string(b) + " holds " +
               describe(output[b]) + ", expected " + describe(wanted[b]));
          return;
        }
      }
    }
  }

  void check_permutation(int r, std::vector<Content> output, std::vector<Content> wanted) {
    auto by_value = [](const Content& a, const Content& b) {
      return std::pair(a.origin, a.ranks) < std::pair(b.origin, b.ranks);
    };
    std::erase_if(wanted, [](const Content& c) { return !c.defined(); });
    std::sort(output.begin(), output.end(), by_value);
    std::sort(wanted.begin(), wanted.end(), by_value);
    if (output.size() < wanted.size() ||
        !std::includes(output.begin(), output.end(), wanted.begin(), wanted.end(), by_value)) {
      fail("rank " + std::to_string(r) + " output is not a permutation of the expected blocks");
    }
  }

  std::string describe(const Content& content) const {
    if (!content.defined()) {
      return "nothing";
    }
    return "block " + std::to_string(content.origin) + " of ranks " + sets_.describe(content.ranks);
  }

  CollectiveShape shape_;
  VerifyOptions options_;
  std::vector<RankState> ranks_;
  RankSets sets_;
  std::deque<Channel> channels_;             // stable while channels are added
  verification::KeyIndex channel_index_;  // (from << 32 | to) -> index in channels_
  std::array<std::vector<WriterMark>, 3> writer_marks_;
  std::uint64_t round_serial_ = 0;
  std::vector<std::pair<BlockRef, const Action*>> reads_;
  std::deque<int> ready_;
  std::string error_;
};

}  // namespace

VerificationReport verify(const CollectiveShape& shape, const ScheduleOfRank& schedule_of,
                          VerifyOptions options) {
  if (shape.size < 1) {
    VerificationReport report;
    report.error = "group size " + std::to_string(shape.size) + " is not positive";
    return report;
  }
  if (shape.collective == Coll::neighbor_alltoall && (!shape.grid || shape.grid->size() != shape.size)) {
    VerificationReport report;
    report.error = "neighbor_alltoall needs a grid of " + std::to_string(shape.size) + " ranks in shape.grid";
    return report;
  }
  Simulation simulation(shape, schedule_of, options);
  return simulation.run();
}

}  // namespace dash::comm::schedule
