#pragma once
// reduce: the root gets the element-wise combination of all members' vectors.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out, class Op>
auto reduce_as(const In& in, Out&& out, const Op& op, int root, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::reduce", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::reduce: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  if (group.rank() == root) {
    detail::expect_size("dash::comm::reduce", "out", output.size(), input.size(), "the size of in, at the root");
  }
  auto call = detail::make_call("dash::comm::reduce", Coll::reduce, root, is_commutative_v<Op>);
  call.elements = input.size();
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

}  // namespace detail

// Collective over `group`: on `root`, out = in_0 ⊕ ... ⊕ in_{p-1} (rank order for
// non-commutative operations); out has in.size() elements on the root and is not touched (may
// be empty) elsewhere. Volume per rank: n lg p on the binomial tree's critical path, about 2n
// for long vectors (Rabenseifner: reduce-scatter + gather).
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ireduce(const In& in, Out&& out, Op op, int root, const Group& group = Group::world(),
                                         const Options& options = {}) {
  return detail::reduce_as<detail::Started>(in, out, op, root, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void reduce(const In& in, Out&& out, Op op, int root, const Group& group = Group::world(),
            const Options& options = {}) {
  detail::reduce_as<detail::Completed>(in, out, op, root, group, options);
}

}  // namespace dash::comm
