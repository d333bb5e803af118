#pragma once
// allgatherv: every member gets every member's block, blocks of different sizes, packed in rank
// order.

#include <numeric>
#include <span>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/packed.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto allgatherv_as(const In& in, Out&& out, std::span<const std::size_t> counts, const Group& group,
                   const Options& options) {
  const detail::LocalFailureReport report("dash::comm::allgatherv", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  constexpr std::string_view function = "dash::comm::allgatherv";
  detail::expect_size(function, "counts", counts.size(), static_cast<std::size_t>(group.size()), "the group size");
  detail::expect_size(function, "in", input.size(), counts[static_cast<std::size_t>(group.rank())],
                      "counts[rank] of the calling member");
  detail::expect_size(function, "out", output.size(), std::accumulate(counts.begin(), counts.end(), std::size_t{0}),
                      "the sum of counts");
  auto call = detail::make_call(function, Coll::allgather);
  call.elements = input.size();
  call.output_sizes = std::make_shared<const detail::VariableSizes>(std::vector<std::size_t>(counts.begin(), counts.end()));
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: member r contributes in (counts[r] elements); out holds all
// contributions packed in rank order (sum of counts elements). counts is the same on every
// member. Arrivals report source = the contributing member. Volume per rank: the other members'
// elements, received once.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iallgatherv(const In& in, Out&& out, std::span<const std::size_t> counts,
                                             const Group& group = Group::world(), const Options& options = {}) {
  return detail::allgatherv_as<detail::Started>(in, out, counts, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void allgatherv(const In& in, Out&& out, std::span<const std::size_t> counts, const Group& group = Group::world(),
                const Options& options = {}) {
  detail::allgatherv_as<detail::Completed>(in, out, counts, group, options);
}

// Collective over `group`: as above, exchanging the counts first (an allgather of one count per
// member).
template <class In>
  requires std::ranges::contiguous_range<In>
Packed<detail::element_of<In>> allgatherv(const In& in, const Group& group = Group::world(),
                                          const Options& options = {}) {
  using T = detail::element_of<In>;
  Packed<T> result;
  result.counts.resize(static_cast<std::size_t>(group.size()));
  const std::vector<std::size_t> mine{std::ranges::size(in)};
  allgather(mine, result.counts, group);
  result.data.resize(std::accumulate(result.counts.begin(), result.counts.end(), std::size_t{0}));
  allgatherv(in, result.data, std::span<const std::size_t>(result.counts), group, options);
  return result;
}

}  // namespace dash::comm
