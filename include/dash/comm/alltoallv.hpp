#pragma once
// alltoallv: member r's block q (of any size) goes to member q; blocks are packed by rank.

#include <numeric>
#include <span>
#include <vector>

#include <dash/comm/alltoall.hpp>
#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/packed.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto alltoallv_as(const In& in, std::span<const std::size_t> send_counts, Out&& out,
                  std::span<const std::size_t> receive_counts, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::alltoallv", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  constexpr std::string_view function = "dash::comm::alltoallv";
  const auto p = static_cast<std::size_t>(group.size());
  detail::expect_size(function, "send_counts", send_counts.size(), p, "the group size");
  detail::expect_size(function, "receive_counts", receive_counts.size(), p, "the group size");
  detail::expect_size(function, "in", input.size(),
                      std::accumulate(send_counts.begin(), send_counts.end(), std::size_t{0}), "the sum of send_counts");
  detail::expect_size(function, "out", output.size(),
                      std::accumulate(receive_counts.begin(), receive_counts.end(), std::size_t{0}),
                      "the sum of receive_counts");
  const auto me = static_cast<std::size_t>(group.rank());
  detail::expect_size(function, "receive_counts[rank]", receive_counts[me], send_counts[me],
                      "send_counts[rank]: the block a member sends itself");
  auto call = detail::make_call(function, Coll::alltoall);
  call.input_sizes =
      std::make_shared<const detail::VariableSizes>(std::vector<std::size_t>(send_counts.begin(), send_counts.end()));
  call.output_sizes = std::make_shared<const detail::VariableSizes>(
      std::vector<std::size_t>(receive_counts.begin(), receive_counts.end()));
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: in holds p blocks packed in rank order, send_counts[q] elements for
// member q; out receives p blocks packed in rank order, receive_counts[q] elements from member q.
// send_counts[q] on this member must equal receive_counts[this member] on q (as MPI requires);
// where they differ, q's call runs to its end and then throws dash::InvalidArgument naming this
// member. Arrivals report source = the sending member. Volume per rank: its blocks, each sent once.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ialltoallv(const In& in, std::span<const std::size_t> send_counts, Out&& out,
                                            std::span<const std::size_t> receive_counts,
                                            const Group& group = Group::world(), const Options& options = {}) {
  return detail::alltoallv_as<detail::Started>(in, send_counts, out, receive_counts, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void alltoallv(const In& in, std::span<const std::size_t> send_counts, Out&& out,
               std::span<const std::size_t> receive_counts, const Group& group = Group::world(),
               const Options& options = {}) {
  detail::alltoallv_as<detail::Completed>(in, send_counts, out, receive_counts, group, options);
}

// Collective over `group`: as above, exchanging the counts first (an alltoall of one count per
// pair of members); returns the received blocks packed by source.
template <class In>
  requires std::ranges::contiguous_range<In>
Packed<detail::element_of<In>> alltoallv(const In& in, std::span<const std::size_t> send_counts,
                                         const Group& group = Group::world(), const Options& options = {}) {
  using T = detail::element_of<In>;
  Packed<T> result;
  result.counts.resize(static_cast<std::size_t>(group.size()));
  detail::expect_size("dash::comm::alltoallv", "send_counts", send_counts.size(),
                      static_cast<std::size_t>(group.size()), "the group size");
  alltoall(send_counts, result.counts, group);
  result.data.resize(std::accumulate(result.counts.begin(), result.counts.end(), std::size_t{0}));
  alltoallv(in, send_counts, result.data, std::span<const std::size_t>(result.counts), group, options);
  return result;
}

}  // namespace dash::comm
