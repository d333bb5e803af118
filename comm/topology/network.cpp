#include <dash/comm/network.hpp>

#include <charconv>
#include <climits>
#include <sstream>

#include <dash/comm/exception.hpp>

namespace dash::comm {

namespace {

constexpr std::string_view accepted =
    "'flat', 'torus:AxBx...', 'mesh:AxBx...', 'grid:AxB...,wrap=01...' (positive extents, product at most "
    "2^31 - 1; any grid may end in ',routing=adaptive' or ',routing=deterministic') or "
    "'clos:T=<nodes per leaf>,mu=<bisection ratio in (0, 1]>'";

constexpr std::string_view routing_field = ",routing=";

[[noreturn]] void refuse(std::string_view source, std::string_view text) {
  throw invalid_argument(std::string(source), "network descriptor", text, accepted);
}

int parse_positive(std::string_view digits, std::string_view source, std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value < 1) {
    refuse(source, text);
  }
  return value;
}

std::vector<int> parse_extents(std::string_view list, std::string_view source, std::string_view text) {
  std::vector<int> dims;
  long long product = 1;
  while (true) {
    const auto cross = list.find('x');
    dims.push_back(parse_positive(list.substr(0, cross), source, text));
    product *= dims.back();
    if (product > INT_MAX) {
      refuse(source, text);
    }
    if (cross == std::string_view::npos) {
      return dims;
    }
    list.remove_prefix(cross + 1);
  }
}

// Removes a trailing ",routing=..." from a grid's fields and returns the routing it names.
GridRouting take_routing(std::string_view& fields, std::string_view source, std::string_view text) {
  const auto field = fields.find(routing_field);
  if (field == std::string_view::npos) {
    return GridRouting::adaptive;
  }
  const std::string_view name = fields.substr(field + routing_field.size());
  fields = fields.substr(0, field);
  if (name == "adaptive") {
    return GridRouting::adaptive;
  }
  if (name == "deterministic") {
    return GridRouting::deterministic;
  }
  refuse(source, text);
}

}  // namespace

int Network::grid_nodes() const noexcept {
  if (kind != NetworkKind::grid) {
    return 0;
  }
  int nodes = 1;
  for (const int extent : dims) {
    nodes *= extent;
  }
  return nodes;
}

Network parse_network(std::string_view text, std::string_view source) {
  Network network;
  if (text == "flat") {
    return network;
  }
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    refuse(source, text);
  }
  const std::string_view kind = text.substr(0, colon);
  std::string_view rest = text.substr(colon + 1);
  if (kind == "torus" || kind == "mesh" || kind == "grid") {
    network.routing = take_routing(rest, source, text);
  }
  if (kind == "torus" || kind == "mesh") {
    network.kind = NetworkKind::grid;
    network.dims = parse_extents(rest, source, text);
    network.wrap.assign(network.dims.size(), kind == "torus");
    return network;
  }
  if (kind == "grid") {
    const auto comma = rest.find(",wrap=");
    if (comma == std::string_view::npos) {
      refuse(source, text);
    }
    network.kind = NetworkKind::grid;
    network.dims = parse_extents(rest.substr(0, comma), source, text);
    const std::string_view flags = rest.substr(comma + 6);
    if (flags.size() != network.dims.size() || flags.find_first_not_of("01") != std::string_view::npos) {
      refuse(source, text);
    }
    for (const char flag : flags) {
      network.wrap.push_back(flag == '1');
    }
    return network;
  }
  if (kind == "clos") {
    network.kind = NetworkKind::clos;
    if (!rest.starts_with("T=")) {
      refuse(source, text);
    }
    rest.remove_prefix(2);
    const auto comma = rest.find(",mu=");
    if (comma == std::string_view::npos) {
      refuse(source, text);
    }
    network.nodes_per_leaf = parse_positive(rest.substr(0, comma), source, text);
    const std::string ratio(rest.substr(comma + 4));
    std::size_t used = 0;
    double mu = 0;
    try {
      mu = std::stod(ratio, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (ratio.empty() || used != ratio.size() || !(mu > 0.0 && mu <= 1.0)) {
      refuse(source, text);
    }
    network.bisection = mu;
    return network;
  }
  refuse(source, text);
}

std::string to_string(const Network& network) {
  std::ostringstream out;
  switch (network.kind) {
    case NetworkKind::flat:
      return "flat";
    case NetworkKind::clos:
      out << "clos:T=" << network.nodes_per_leaf << ",mu=" << network.bisection;
      return out.str();
    case NetworkKind::grid:
      break;
  }
  bool all = true;
  bool none = true;
  for (const bool wraps : network.wrap) {
    all = all && wraps;
    none = none && !wraps;
  }
  out << (all ? "torus:" : none ? "mesh:" : "grid:");
  for (std::size_t d = 0; d < network.dims.size(); ++d) {
    out << (d == 0 ? "" : "x") << network.dims[d];
  }
  if (!all && !none) {
    out << ",wrap=";
    for (const bool wraps : network.wrap) {
      out << (wraps ? '1' : '0');
    }
  }
  if (network.routing == GridRouting::deterministic) {
    out << routing_field << "deterministic";
  }
  return out.str();
}

}  // namespace dash::comm
