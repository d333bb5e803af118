#pragma once
// allreduce: every member gets the element-wise combination of all members' vectors.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out, class Op>
auto allreduce_as(const In& in, Out&& out, const Op& op, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::allreduce", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::allreduce: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  detail::expect_size("dash::comm::allreduce", "out", output.size(), input.size(), "the size of in");
  auto call = detail::make_call("dash::comm::allreduce", Coll::allreduce, 0, is_commutative_v<Op>);
  call.elements = input.size();
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

}  // namespace detail

// Collective over `group`: out[i] = in_0[i] ⊕ in_1[i] ⊕ ... ⊕ in_{p-1}[i] on every member, in rank
// order for non-commutative operations. in and out have the same size on every member and may
// be the same range. Volume per rank: n lg p for short vectors (recursive doubling), about 2n for
// long ones (Rabenseifner), n = the vector's bytes.
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iallreduce(const In& in, Out&& out, Op op, const Group& group = Group::world(),
                                            const Options& options = {}) {
  return detail::allreduce_as<detail::Started>(in, out, op, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void allreduce(const In& in, Out&& out, Op op, const Group& group = Group::world(), const Options& options = {}) {
  detail::allreduce_as<detail::Completed>(in, out, op, group, options);
}

}  // namespace dash::comm
