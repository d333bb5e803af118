#pragma once
// reduce_scatter_block: member r gets block r of the element-wise combination of all vectors,
// blocks of equal size (MPI_Reduce_scatter_block).

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out, class Op>
auto reduce_scatter_block_as(const In& in, Out&& out, const Op& op, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::reduce_scatter_block", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::reduce_scatter_block: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  detail::expect_size("dash::comm::reduce_scatter_block", "in", input.size(),
                      output.size() * static_cast<std::size_t>(group.size()), "group size times the size of out");
  auto call = detail::make_call("dash::comm::reduce_scatter_block", Coll::reduce_scatter, 0, is_commutative_v<Op>);
  call.elements = output.size();
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

}  // namespace detail

// Collective over `group`: in holds p blocks of out.size() elements; member r's out is block r of
// in_0 ⊕ ... ⊕ in_{p-1} (rank order for non-commutative operations). Volume per rank: about
// (p - 1)/p of in.
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ireduce_scatter_block(const In& in, Out&& out, Op op,
                                                       const Group& group = Group::world(),
                                                       const Options& options = {}) {
  return detail::reduce_scatter_block_as<detail::Started>(in, out, op, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void reduce_scatter_block(const In& in, Out&& out, Op op, const Group& group = Group::world(),
                          const Options& options = {}) {
  detail::reduce_scatter_block_as<detail::Completed>(in, out, op, group, options);
}

}  // namespace dash::comm
