#pragma once
// reduce_scatter: member r gets block r of the element-wise combination of all vectors, blocks of
// different sizes (MPI_Reduce_scatter).

#include <memory>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out, class Op>
auto reduce_scatter_as(const In& in, std::span<const std::size_t> counts, Out&& out, const Op& op, const Group& group,
                       const Options& options) {
  const detail::LocalFailureReport report("dash::comm::reduce_scatter", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::reduce_scatter: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  constexpr std::string_view function = "dash::comm::reduce_scatter";
  detail::expect_size(function, "counts", counts.size(), static_cast<std::size_t>(group.size()), "the group size");
  detail::expect_size(function, "in", input.size(), std::accumulate(counts.begin(), counts.end(), std::size_t{0}),
                      "the sum of counts");
  detail::expect_size(function, "out", output.size(), counts[static_cast<std::size_t>(group.rank())],
                      "counts[rank] of the calling member");
  auto call = detail::make_call(function, Coll::reduce_scatter, 0, is_commutative_v<Op>);
  call.elements = output.size();
  call.input_sizes =
      std::make_shared<const detail::VariableSizes>(std::vector<std::size_t>(counts.begin(), counts.end()));
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

}  // namespace detail

// Collective over `group`: in holds p blocks packed in rank order, counts[q] elements for member
// q; member r's out (counts[r] elements) is block r of in_0 ⊕ ... ⊕ in_{p-1} (rank order for
// non-commutative operations). counts is the same on every member. Only algorithms that keep
// nothing but the member's own block in scratch space can serve varying counts; the default,
// pairwise exchange, serves any operation. Volume per rank: its blocks for the other members,
// each sent once, and p - 1 blocks of counts[r] elements received.
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ireduce_scatter(const In& in, std::span<const std::size_t> counts, Out&& out, Op op,
                                                 const Group& group = Group::world(), const Options& options = {}) {
  return detail::reduce_scatter_as<detail::Started>(in, counts, out, op, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void reduce_scatter(const In& in, std::span<const std::size_t> counts, Out&& out, Op op,
                    const Group& group = Group::world(), const Options& options = {}) {
  detail::reduce_scatter_as<detail::Completed>(in, counts, out, op, group, options);
}

}  // namespace dash::comm
