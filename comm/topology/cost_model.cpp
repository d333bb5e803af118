#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <system_error>

#include <dash/comm/cost_model.hpp>
#include <dash/comm/exception.hpp>

namespace dash::comm {

namespace {

struct Field {
  std::string_view name;
  double CostParameters::*member;
};

constexpr std::array<Field, 7> fields{{{"alpha", &CostParameters::alpha},
                                       {"beta", &CostParameters::beta},
                                       {"gamma", &CostParameters::gamma},
                                       {"delta", &CostParameters::delta},
                                       {"alpha_net", &CostParameters::alpha_net},
                                       {"beta_net", &CostParameters::beta_net},
                                       {"overhead", &CostParameters::overhead}}};

constexpr std::string_view format =
    "comma-separated assignments alpha=, beta=, gamma=, delta=, alpha_net=, beta_net=, overhead= (seconds per "
    "start-up, per byte sent, combined, copied, per start-up and per byte sent between nodes, per send queued behind "
    "another of its round; each at most once) of finite "
    "numbers >= 0, e.g. alpha=5e-7,beta=8e-11";

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

double predicted_seconds(const CostTerms& terms, std::size_t block_bytes, const CostParameters& parameters) noexcept {
  const double per_block = static_cast<double>(block_bytes);
  return parameters.alpha * terms.startups + parameters.overhead * terms.queued_sends +
         (parameters.beta * terms.blocks + parameters.gamma * terms.reduced_blocks +
          parameters.delta * terms.copied_blocks) *
             per_block;
}

CostParameters between_nodes(const CostParameters& parameters) noexcept {
  CostParameters network = parameters;
  network.alpha = parameters.alpha_net;
  network.beta = parameters.beta_net;
  return network;
}

CostParameters parse_cost_parameters(std::string_view text, std::string_view function, std::string_view argument) {
  auto fail = [&](const std::string& problem) {
    return invalid_argument(function, argument, text, std::string(format) + " (" + problem + ")");
  };
  CostParameters parameters;
  std::array<bool, fields.size()> seen{};
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view assignment = trimmed(rest.substr(0, comma));
    const std::size_t equals = assignment.find('=');
    if (equals == std::string_view::npos) {
      throw fail("'" + std::string(assignment) + "' is not name=value");
    }
    const std::string_view name = trimmed(assignment.substr(0, equals));
    const std::string_view value = trimmed(assignment.substr(equals + 1));
    std::size_t index = 0;
    while (index < fields.size() && fields[index].name != name) {
      ++index;
    }
    if (index == fields.size()) {
      throw fail("unknown name '" + std::string(name) + "'");
    }
    if (seen[index]) {
      throw fail("'" + std::string(name) + "' is set twice");
    }
    seen[index] = true;
    double number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size() || !std::isfinite(number) || number < 0) {
      throw fail("'" + std::string(name) + "' is '" + std::string(value) + "', not a finite number >= 0");
    }
    parameters.*fields[index].member = number;
    if (comma == std::string_view::npos) {
      return parameters;
    }
    rest.remove_prefix(comma + 1);
  }
}

std::string to_string(const CostParameters& parameters) {
  std::string text;
  for (const Field& field : fields) {
    std::array<char, 32> number{};
    std::snprintf(number.data(), number.size(), "%g", parameters.*field.member);
    if (!text.empty()) {
      text += ',';
    }
    text += field.name;
    text += '=';
    text += number.data();
  }
  return text;
}

}  // namespace dash::comm
