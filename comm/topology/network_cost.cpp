// The congestion-aware network cost (include/dash/comm/network_cost.hpp; docs/collectives.md,
// "Topology-aware schedules and the network cost model").
//
// Map: Message; GridLinks (link loads of one stage on a grid, dimension-ordered or adaptive);
// check (the arguments); StageLoads (per-stage bandwidth loads on any network); Endpoint,
// FlatRounds and flatten (every rank's rounds with each message's two sides paired); Stages and
// lay_out_stages (when each message travels); network_cost, which prices the stages.

#include <dash/comm/network_cost.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>

namespace dash::comm {

namespace {

constexpr const char* function = "dash::comm::network_cost";

struct Message {
  int from;
  int to;
  double blocks;
};

// Link loads of one stage on a grid. Dimension k keeps two arrays indexed by node: the blocks on
// the link from that node one step up dimension k and one step down. A path segment along a line
// of dimension k adds its weight as a difference (+w where it starts, -w past its end), so a
// message costs O(dimensions) and one prefix sum per line settles every link's load.
class GridLinks {
public:
  explicit GridLinks(const Network& network)
      : dims_(network.dims),
        wrap_(network.wrap),
        routing_(network.routing),
        strides_(dims_.size(), 1),
        nodes_(network.grid_nodes()) {
    for (std::size_t k = dims_.size(); k-- > 1;) {
      strides_[k - 1] = strides_[k] * dims_[k];
    }
    up_.assign(dims_.size(), std::vector<double>(static_cast<std::size_t>(nodes_), 0.0));
    down_ = up_;
  }

  // Routes a message dimension by dimension, the last (fastest-varying) first.
  void add(int from, int to, double blocks) {
    int current = from;
    for (std::size_t k = dims_.size(); k-- > 0;) {
      const int d = dims_[k];
      const int a = current / strides_[k] % d;
      const int b = to / strides_[k] % d;
      if (a == b) {
        continue;
      }
      const int line = current - a * strides_[k];
      if (!wrap_[k]) {
        b > a ? add_up(k, line, a, b - a, blocks) : add_down(k, line, a, a - b, blocks);
      } else {
        const int forward = (b - a + d) % d;
        if (2 * forward < d) {
          add_up(k, line, a, forward, blocks);
        } else if (2 * forward > d) {
          add_down(k, line, a, d - forward, blocks);
        } else if (routing_ == GridRouting::adaptive) {  // half the ring: half each way
          add_up(k, line, a, forward, blocks / 2);
          add_down(k, line, a, forward, blocks / 2);
        } else if (2 * a == d) {  // half the ring from the middle coordinate: down
          add_down(k, line, a, forward, blocks);
        } else {
          add_up(k, line, a, forward, blocks);
        }
      }
      current = line + b * strides_[k];
    }
  }

  // The most blocks on any directed link; leaves every load at zero for the next stage.
  double take_max_load() {
    double most = 0;
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      for (std::vector<double>* loads : {&up_[k], &down_[k]}) {
        most = std::max(most, settle(k, *loads));
      }
    }
    return most;
  }

  // The time a permutation of every node's message of `blocks` blocks needs when all of it
  // crosses the narrowest bisection (cutting dimension k in half crosses nodes/d_k lines, each
  // once per direction without wrap-around and twice with it), but at least one message's time.
  double bisection_bound(double blocks) const {
    double narrowest = 0;
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      if (dims_[k] >= 2) {
        const double per_direction = static_cast<double>(nodes_ / dims_[k]) * (wrap_[k] ? 2 : 1);
        narrowest = narrowest == 0 ? per_direction : std::min(narrowest, per_direction);
      }
    }
    return narrowest == 0 ? blocks : std::max(blocks, blocks * nodes_ / (2 * narrowest));
  }

private:
  std::size_t index(std::size_t k, int line, int coordinate) const {
    return static_cast<std::size_t>(line + coordinate * strides_[k]);
  }

  // Coordinates [lo, hi) of a line of dimension k, in direction `loads`, carry `blocks` more.
  void add_range(std::vector<double>& loads, std::size_t k, int line, int lo, int hi, double blocks) {
    loads[index(k, line, lo)] += blocks;
    if (hi < dims_[k]) {
      loads[index(k, line, hi)] -= blocks;
    }
  }

  // The links leaving coordinates a, a + 1, ..., a + hops - 1 (wrapping around).
  void add_up(std::size_t k, int line, int a, int hops, double blocks) {
    const int d = dims_[k];
    add_range(up_[k], k, line, a, std::min(a + hops, d), blocks);
    if (a + hops > d) {
      add_range(up_[k], k, line, 0, a + hops - d, blocks);
    }
  }

  // The links leaving coordinates a, a - 1, ..., a - hops + 1 (wrapping around).
  void add_down(std::size_t k, int line, int a, int hops, double blocks) {
    const int d = dims_[k];
    add_range(down_[k], k, line, std::max(a - hops + 1, 0), a + 1, blocks);
    if (a - hops + 1 < 0) {
      add_range(down_[k], k, line, d + a - hops + 1, d, blocks);
    }
  }

  // Prefix sums along every line of dimension k: the largest load, and the differences cleared.
  double settle(std::size_t k, std::vector<double>& loads) const {
    const int d = dims_[k];
    const int stride = strides_[k];
    double most = 0;
    for (int outer = 0; outer < nodes_; outer += d * stride) {
      for (int line = outer; line < outer + stride; ++line) {
        double load = 0;
        for (int c = 0; c < d; ++c) {
          double& difference = loads[index(k, line, c)];
          load += difference;
          difference = 0;
          most = std::max(most, load);
        }
      }
    }
    return most;
  }

  std::vector<int> dims_;
  std::vector<bool> wrap_;
  GridRouting routing_;
  std::vector<int> strides_;
  int nodes_;
  std::vector<std::vector<double>> up_;
  std::vector<std::vector<double>> down_;
};

void check(const CollectiveShape& shape, const Network& network, const NetworkCostOptions& options) {
  if (network.kind == NetworkKind::grid && network.grid_nodes() != shape.size) {
    throw invalid_argument(function, "network", to_string(network),
                           "a grid of shape.size = " + std::to_string(shape.size) + " nodes (one rank per node)");
  }
  if (network.kind == NetworkKind::clos && network.nodes_per_leaf < 1) {
    throw invalid_argument(function, "network.nodes_per_leaf", network.nodes_per_leaf, "at least 1");
  }
  if (network.kind == NetworkKind::clos && !(network.bisection > 0 && network.bisection <= 1)) {
    throw invalid_argument(function, "network.bisection", network.bisection, "a ratio µ in (0, 1]");
  }
  if (!(options.multi_port_efficiency > 0 && options.multi_port_efficiency <= 1)) {
    throw invalid_argument(function, "options.multi_port_efficiency", options.multi_port_efficiency,
                           "a fraction in (0, 1]");
  }
  if (network.routing != GridRouting::adaptive && network.routing != GridRouting::deterministic) {
    throw invalid_argument(function, "network.routing", static_cast<int>(network.routing),
                           "GridRouting::adaptive or GridRouting::deterministic");
  }
}

// Stage-by-stage bandwidth loads; scratch arrays are kept across stages.
class StageLoads {
public:
  StageLoads(int nodes, const Network& network, const NetworkCostOptions& options)
      : network_(network), options_(options), sent_(static_cast<std::size_t>(nodes)), received_(sent_.size()),
        sends_(sent_.size()), receives_(sent_.size()) {
    if (network.kind == NetworkKind::grid) {
      links_.emplace(network);
    } else if (network.kind == NetworkKind::clos) {
      const int leaves = (nodes + network.nodes_per_leaf - 1) / network.nodes_per_leaf;
      leaving_.assign(static_cast<std::size_t>(leaves), 0.0);
      entering_ = leaving_;
    }
  }

  double load(const std::vector<Message>& messages) {
    double largest = 0;
    bool permutation = true;
    for (const Message& message : messages) {
      if (message.from == message.to) {
        continue;
      }
      const auto from = static_cast<std::size_t>(message.from);
      const auto to = static_cast<std::size_t>(message.to);
      sent_[from] += message.blocks;
      received_[to] += message.blocks;
      const bool first_send = ++sends_[from] == 1;
      const bool first_receive = ++receives_[to] == 1;
      permutation = permutation && first_send && first_receive;
      largest = std::max(largest, message.blocks);
      if (links_) {
        links_->add(message.from, message.to, message.blocks);
      } else if (network_.kind == NetworkKind::clos) {
        const auto from_leaf = from / static_cast<std::size_t>(network_.nodes_per_leaf);
        const auto to_leaf = to / static_cast<std::size_t>(network_.nodes_per_leaf);
        if (from_leaf != to_leaf) {
          leaving_[from_leaf] += message.blocks;
          entering_[to_leaf] += message.blocks;
        }
      }
    }
    const double busiest_node = take_max(sent_, received_);
    std::fill(sends_.begin(), sends_.end(), 0);
    std::fill(receives_.begin(), receives_.end(), 0);
    double load = busiest_node;
    if (links_) {
      const double links = links_->take_max_load();
      const double routed = options_.multi_port ? links : std::max(links, busiest_node);
      const bool adaptive = network_.routing == GridRouting::adaptive;
      load = permutation && adaptive ? std::min(routed, links_->bisection_bound(largest)) : routed;
    } else if (network_.kind == NetworkKind::clos) {
      const double uplinks = network_.bisection * network_.nodes_per_leaf;
      load = std::max(busiest_node, take_max(leaving_, entering_) / uplinks);
    }
    return options_.multi_port ? load / options_.multi_port_efficiency : load;
  }

private:
  // The largest entry of either array; both are left at zero.
  static double take_max(std::vector<double>& a, std::vector<double>& b) {
    double most = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      most = std::max({most, a[i], b[i]});
    }
    std::fill(a.begin(), a.end(), 0.0);
    std::fill(b.begin(), b.end(), 0.0);
    return most;
  }

  const Network& network_;
  const NetworkCostOptions& options_;
  std::vector<double> sent_;
  std::vector<double> received_;
  std::vector<int> sends_;
  std::vector<int> receives_;
  std::optional<GridLinks> links_;  // grid only
  std::vector<double> leaving_;     // clos only: blocks leaving and entering each leaf switch
  std::vector<double> entering_;
};

// Every rank's rounds, flattened: round g (all ranks' rounds, rank by rank) holds endpoints
// [round_begin[g], round_begin[g + 1]), and rank r's rounds are [rank_begin[r], rank_begin[r + 1]).
// An endpoint is one side of a message: its peer, its blocks, and the round (flat index) that holds
// the other side, or -1.
struct Endpoint {
  int peer;
  double blocks;
  bool send;
  std::int64_t counterpart = -1;
};

struct FlatRounds {
  std::vector<std::size_t> rank_begin;
  std::vector<std::size_t> round_begin;
  std::vector<Endpoint> endpoints;
  std::vector<double> round_combined;  // blocks each round combines (receive_reduce and reduce)
  double most_copied = 0;              // the most blocks any rank copies locally
};

// Flattens the schedules and pairs each endpoint with its counterpart: the i-th send from a to b
// meets the i-th receive at b from a (sorting both sides by channel keeps each side's order).
FlatRounds flatten(const std::vector<schedule::Schedule>& schedules) {
  const int p = static_cast<int>(schedules.size());
  FlatRounds flat;
  struct Side {
    std::uint64_t channel;  // from * p + to
    std::size_t endpoint;
    std::size_t round;
  };
  std::vector<Side> sends;
  std::vector<Side> receives;
  for (int rank = 0; rank < p; ++rank) {
    flat.rank_begin.push_back(flat.round_begin.size());
    const auto& rounds = schedules[static_cast<std::size_t>(rank)].rounds;
    double copied = 0;
    for (std::size_t k = 0; k < rounds.size(); ++k) {
      const std::size_t round = flat.round_begin.size();
      flat.round_begin.push_back(flat.endpoints.size());
      double combined = 0;
      for (const schedule::Action& action : rounds[k].actions) {
        const auto blocks = static_cast<double>(action.blocks.size());
        combined += action.kind == schedule::ActionKind::receive_reduce || action.kind == schedule::ActionKind::reduce
                        ? blocks
                        : 0;
        copied += action.kind == schedule::ActionKind::copy ? blocks : 0;
        if (!action.is_message()) {
          continue;
        }
        const bool send = action.kind == schedule::ActionKind::send;
        if (action.peer < 0 || action.peer >= p) {
          throw invalid_argument(function,
                                 "schedule_of(" + std::to_string(rank) + ") round " + std::to_string(k) +
                                     (send ? " send peer" : " receive peer"),
                                 action.peer, "a rank in [0, " + std::to_string(p) + ")");
        }
        const auto from = static_cast<std::uint64_t>(send ? rank : action.peer);
        const auto to = static_cast<std::uint64_t>(send ? action.peer : rank);
        (send ? sends : receives).push_back({from * static_cast<std::uint64_t>(p) + to, flat.endpoints.size(), round});
        flat.endpoints.push_back({action.peer, blocks, send});
      }
      flat.round_combined.push_back(combined);
    }
    flat.most_copied = std::max(flat.most_copied, copied);
  }
  flat.rank_begin.push_back(flat.round_begin.size());
  flat.round_begin.push_back(flat.endpoints.size());
  const auto by_channel = [](const Side& a, const Side& b) { return a.channel < b.channel; };
  std::stable_sort(sends.begin(), sends.end(), by_channel);
  std::stable_sort(receives.begin(), receives.end(), by_channel);
  for (std::size_t i = 0, j = 0; i < sends.size() && j < receives.size();) {
    if (sends[i].channel != receives[j].channel) {
      ++(sends[i].channel < receives[j].channel ? i : j);
      continue;
    }
    flat.endpoints[sends[i].endpoint].counterpart = static_cast<std::int64_t>(receives[j].round);
    flat.endpoints[receives[j].endpoint].counterpart = static_cast<std::int64_t>(sends[i].round);
    ++i;
    ++j;
  }
  return flat;
}

// The schedules laid out in stages (see the header comment: when each message travels).
struct Stages {
  std::vector<std::vector<Message>> messages;  // per stage
  std::vector<double> most_combined;           // per stage: the most blocks a rank combines in rounds ending there
  double most_copied = 0;
};

Stages lay_out_stages(const std::vector<schedule::Schedule>& schedules) {
  const int p = static_cast<int>(schedules.size());
  const FlatRounds flat = flatten(schedules);
  const std::size_t round_count = flat.round_begin.size() - 1;
  // The stage round g starts in, -1 while unknown; current[r]: rank r's first round not yet ended.
  std::vector<std::int64_t> start(round_count, -1);
  std::vector<std::size_t> current(flat.rank_begin.begin(), flat.rank_begin.end() - 1);
  const auto rank_end = [&](int rank) { return flat.rank_begin[static_cast<std::size_t>(rank) + 1]; };
  Stages laid_out;
  std::vector<std::vector<Message>>& stages = laid_out.messages;
  struct Combining {
    std::size_t stage;
    int rank;
    double blocks;
  };
  std::vector<Combining> combining;  // rounds that combine, with the stage their combining counts in
  std::vector<std::pair<std::size_t, Message>> sent;  // one round's sends and their stages
  int finished = 0;
  for (int rank = 0; rank < p; ++rank) {
    const std::size_t first = current[static_cast<std::size_t>(rank)];
    finished += first == rank_end(rank) ? 1 : 0;
    if (first < rank_end(rank)) {
      start[first] = 0;
    }
  }
  while (finished < p) {
    bool progress = false;
    for (int rank = 0; rank < p; ++rank) {
      const auto r = static_cast<std::size_t>(rank);
      while (current[r] < rank_end(rank)) {
        const std::size_t g = current[r];
        std::int64_t ends = start[g];
        bool waits = false;
        sent.clear();
        for (std::size_t e = flat.round_begin[g]; e < flat.round_begin[g + 1]; ++e) {
          const Endpoint& endpoint = flat.endpoints[e];
          std::int64_t stage = start[g];
          if (endpoint.peer != rank && endpoint.counterpart >= 0) {
            const std::int64_t other = start[static_cast<std::size_t>(endpoint.counterpart)];
            if (other < 0) {
              waits = true;
              break;
            }
            stage = std::max(stage, other);
          }
          ends = std::max(ends, stage + 1);
          if (endpoint.send) {
            sent.emplace_back(static_cast<std::size_t>(stage), Message{rank, endpoint.peer, endpoint.blocks});
          }
        }
        if (waits) {
          break;
        }
        for (const auto& [stage, message] : sent) {
          if (stage >= stages.size()) {
            stages.resize(stage + 1);
          }
          stages[stage].push_back(message);
        }
        if (flat.round_combined[g] > 0) {  // counts in the round's last stage (a round without messages: the one before)
          combining.push_back({static_cast<std::size_t>(std::max<std::int64_t>(ends, 1) - 1), rank,
                               flat.round_combined[g]});
        }
        ++current[r];
        progress = true;
        if (current[r] == rank_end(rank)) {
          ++finished;
        } else {
          start[current[r]] = ends;
        }
      }
    }
    if (!progress) {
      int stuck = 0;
      while (current[static_cast<std::size_t>(stuck)] == rank_end(stuck)) {
        ++stuck;
      }
      const auto r = static_cast<std::size_t>(stuck);
      throw invalid_argument(function,
                             "schedule_of(" + std::to_string(stuck) + ") round " +
                                 std::to_string(current[r] - flat.rank_begin[r]),
                             "a round in a cycle of rounds waiting for each other", "schedules that cannot deadlock");
    }
  }
  // Per stage, the most blocks one rank combines (a rank's rounds may share a stage).
  std::sort(combining.begin(), combining.end(), [](const Combining& a, const Combining& b) {
    return a.stage != b.stage ? a.stage < b.stage : a.rank < b.rank;
  });
  for (std::size_t i = 0; i < combining.size();) {
    std::size_t j = i;
    double blocks = 0;
    for (; j < combining.size() && combining[j].stage == combining[i].stage && combining[j].rank == combining[i].rank;
         ++j) {
      blocks += combining[j].blocks;
    }
    if (combining[i].stage >= laid_out.most_combined.size()) {
      laid_out.most_combined.resize(combining[i].stage + 1, 0.0);
    }
    laid_out.most_combined[combining[i].stage] = std::max(laid_out.most_combined[combining[i].stage], blocks);
    i = j;
  }
  laid_out.most_copied = flat.most_copied;
  return laid_out;
}

}  // namespace

NetworkCostTerms network_cost(const CollectiveShape& shape, const schedule::ScheduleOfRank& schedule_of,
                              const Network& network, const NetworkCostOptions& options) {
  check(shape, network, options);
  const int p = shape.size;
  std::vector<schedule::Schedule> schedules;
  schedules.reserve(static_cast<std::size_t>(p));
  for (int rank = 0; rank < p; ++rank) {
    schedules.push_back(schedule_of(rank));
  }
  NetworkCostTerms terms;
  StageLoads loads(p, network, options);
  std::vector<int> sends(static_cast<std::size_t>(p), 0);
  const Stages stages = lay_out_stages(schedules);
  for (const double blocks : stages.most_combined) {
    terms.reduced_blocks += blocks;
  }
  terms.copied_blocks = stages.most_copied;
  for (const std::vector<Message>& stage : stages.messages) {
    if (stage.empty()) {
      continue;
    }
    int most_sends = 0;
    for (const Message& message : stage) {
      most_sends = std::max(most_sends, ++sends[static_cast<std::size_t>(message.from)]);
    }
    for (const Message& message : stage) {
      sends[static_cast<std::size_t>(message.from)] = 0;
    }
    const double load = loads.load(stage);
    terms.stage_link_blocks.push_back(load);
    terms.link_blocks += load;
    terms.startups += most_sends;
  }
  return terms;
}

}  // namespace dash::comm
