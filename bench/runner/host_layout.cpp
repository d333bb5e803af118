#include "runner/host_layout.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstring>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::bench {

namespace {

// A positive whole number, all of `text`, or 0.
int positive(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size() && value > 0 ? value : 0;
}

}  // namespace

std::vector<Host> host_layout(MPI_Comm world) {
  int rank = 0;
  int size = 0;
  comm::check_mpi(MPI_Comm_rank(world, &rank), "dash-bench: MPI_Comm_rank");
  comm::check_mpi(MPI_Comm_size(world, &size), "dash-bench: MPI_Comm_size");
  // Each rank learns the lowest rank of its node, which names the node's host.
  MPI_Comm node = MPI_COMM_NULL;
  comm::check_mpi(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
                  "dash-bench: MPI_Comm_split_type");
  int leader = rank;
  const int result = MPI_Bcast(&leader, 1, MPI_INT, 0, node);
  MPI_Comm_free(&node);
  comm::check_mpi(result, "dash-bench: MPI_Bcast");
  std::vector<int> leaders(static_cast<std::size_t>(size));
  comm::check_mpi(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, world), "dash-bench: MPI_Allgather");

  std::array<char, MPI_MAX_PROCESSOR_NAME> name{};
  int length = 0;
  comm::check_mpi(MPI_Get_processor_name(name.data(), &length), "dash-bench: MPI_Get_processor_name");
  std::vector<char> names(static_cast<std::size_t>(size) * name.size());
  comm::check_mpi(MPI_Allgather(name.data(), static_cast<int>(name.size()), MPI_CHAR, names.data(),
                                static_cast<int>(name.size()), MPI_CHAR, world),
                  "dash-bench: MPI_Allgather");

  // Members in ascending order: a node's first member is its leader (the split keeps the job's order).
  std::vector<Host> hosts;
  std::vector<int> host_of_leader(static_cast<std::size_t>(size), -1);
  for (int member = 0; member < size; ++member) {
    const auto host_leader = static_cast<std::size_t>(leaders[static_cast<std::size_t>(member)]);
    int& index = host_of_leader[host_leader];
    if (index < 0) {
      index = static_cast<int>(hosts.size());
      const char* text = names.data() + host_leader * name.size();
      hosts.push_back(Host{std::string(text, strnlen(text, name.size())), {}});
    }
    hosts[static_cast<std::size_t>(index)].ranks.push_back(member);
  }
  return hosts;
}

nlohmann::json to_json(const std::vector<Host>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  for (const Host& host : hosts) {
    list.push_back({{"name", host.name}, {"ranks", host.ranks}});
  }
  return list;
}

std::string describe(const nlohmann::json& hosts) {
  if (hosts.size() == 1) {
    return "1 host";
  }
  std::string text = std::to_string(hosts.size()) + " hosts (";
  for (std::size_t index = 0; index < hosts.size(); ++index) {
    const std::size_t ranks = hosts[index].at("ranks").size();
    text += (index == 0 ? "" : ", ") + hosts[index].at("name").get<std::string>() + ": " + std::to_string(ranks) +
            (ranks == 1 ? " rank" : " ranks");
  }
  return text + ")";
}

std::vector<int> parse_hosts(std::string_view layout) {
  std::vector<int> ranks_per_host;
  if (const std::size_t times = layout.find('x'); times != std::string_view::npos) {
    const int hosts = positive(layout.substr(0, times));
    const int ranks = positive(layout.substr(times + 1));
    if (hosts > 0 && ranks > 0) {
      ranks_per_host.assign(static_cast<std::size_t>(hosts), ranks);
    }
  } else {
    for (std::size_t start = 0; start <= layout.size();) {
      const std::size_t end = std::min(layout.find(',', start), layout.size());
      const int ranks = positive(layout.substr(start, end - start));
      if (ranks == 0) {
        ranks_per_host.clear();
        break;
      }
      ranks_per_host.push_back(ranks);
      start = end + 1;
    }
  }
  if (ranks_per_host.empty()) {
    throw InvalidArgument("dash-bench: --hosts '" + std::string(layout) +
                          "' is neither KxN (K hosts of N ranks, e.g. 2x1) nor a list of positive rank counts "
                          "per host (e.g. 1,2)");
  }
  return ranks_per_host;
}

void check_layout(const std::vector<Host>& hosts, std::string_view layout) {
  const std::vector<int> expected = parse_hosts(layout);
  bool same = expected.size() == hosts.size();
  for (std::size_t index = 0; same && index < hosts.size(); ++index) {
    same = static_cast<std::size_t>(expected[index]) == hosts[index].ranks.size();
  }
  if (!same) {
    throw InvalidArgument("dash-bench: --hosts " + std::string(layout) + " given, but the job runs on " +
                          describe(to_json(hosts)));
  }
}

}  // namespace dash::bench
