#include <algorithm>
#include <limits>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/exact_splitters.hpp>

namespace dash::detail {

namespace {

// A bracket whose target sits at one of its ends has its answer: everything undetermined lies on
// the other side.
void settle(SplitBracket& bracket) {
  if (bracket.target == bracket.global_first) {
    bracket.global_last = bracket.global_first;
    bracket.local_last = bracket.local_first;
  } else if (bracket.target == bracket.global_last) {
    bracket.global_first = bracket.global_last;
    bracket.local_first = bracket.local_last;
  }
}

// floor(part * width / whole) for part < whole and width <= whole. Exact unless the product
// exceeds 64 bits; then approximate, which only costs a proposal its aim, never correctness.
std::size_t scale(std::uint64_t part, std::uint64_t width, std::uint64_t whole) {
  if (part == 0 || width <= std::numeric_limits<std::uint64_t>::max() / part) {
    return static_cast<std::size_t>(part * width / whole);
  }
  const auto approximate = static_cast<std::uint64_t>(static_cast<long double>(part) *
                                                      static_cast<long double>(width) /
                                                      static_cast<long double>(whole));
  return static_cast<std::size_t>(std::min(approximate, width - 1));
}

}  // namespace

SplitBracket initial_bracket(std::uint64_t target, std::uint64_t global_count, std::size_t local_count) {
  SplitBracket bracket{target, 0, global_count, 0, local_count};
  settle(bracket);
  return bracket;
}

Proposals propose(const SplitBracket& bracket) {
  Proposals proposals;
  const std::size_t width = bracket.local_width();
  if (bracket.resolved() || width == 0) {
    return proposals;
  }
  auto& at = proposals.positions;
  const std::size_t first = bracket.local_first;
  const std::size_t guess =
      first + scale(bracket.target - bracket.global_first, width, bracket.global_last - bracket.global_first);
  at[0] = first;
  at[1] = guess;
  at[2] = bracket.local_last - 1;
  proposals.count = static_cast<std::size_t>(std::unique(at.begin(), at.begin() + 3) - at.begin());
  std::size_t widest = 0;
  for (std::size_t i = 1; i < proposals.count; ++i) {
    if (at[i] - at[i - 1] > at[widest + 1] - at[widest]) {
      widest = i - 1;
    }
  }
  if (proposals.count > 1 && at[widest + 1] - at[widest] > 1) {
    const std::size_t middle = at[widest] + (at[widest + 1] - at[widest]) / 2;
    std::copy_backward(at.begin() + static_cast<std::ptrdiff_t>(widest + 1),
                       at.begin() + static_cast<std::ptrdiff_t>(proposals.count),
                       at.begin() + static_cast<std::ptrdiff_t>(proposals.count + 1));
    at[widest + 1] = middle;
    ++proposals.count;
  }
  return proposals;
}

void narrow(std::span<SplitBracket> brackets, std::span<const CountedProposal> counted) {
  for (SplitBracket& bracket : brackets) {
    if (bracket.resolved()) {
      continue;
    }
    const auto above = std::partition_point(counted.begin(), counted.end(), [&](const CountedProposal& c) {
      return c.global_below < bracket.target;
    });
    if (above != counted.end() && above->global_below < bracket.global_last) {
      bracket.global_last = above->global_below;
      bracket.local_last = above->local_below;
    }
    if (above != counted.begin()) {
      const CountedProposal& below = *(above - 1);
      if (below.global_below + 1 > bracket.global_first) {
        bracket.global_first = below.global_below + 1;
        bracket.local_first = below.local_below + (below.is_local ? 1 : 0);
      }
    }
    settle(bracket);
  }
}

std::vector<std::uint64_t> balanced_targets(std::uint64_t global_count, int parts) {
  if (parts < 1) {
    throw invalid_argument("dash::detail::balanced_targets", "parts", parts, "at least 1");
  }
  const auto p = static_cast<std::uint64_t>(parts);
  const std::uint64_t quotient = global_count / p;
  const std::uint64_t remainder = global_count % p;
  std::vector<std::uint64_t> targets;
  targets.reserve(p - 1);
  for (std::uint64_t k = 1; k < p; ++k) {
    // floor(k N / p) without forming k N: N = q p + r gives k q + floor(k r / p), and k r < p^2.
    targets.push_back(k * quotient + k * remainder / p);
  }
  return targets;
}

}  // namespace dash::detail
