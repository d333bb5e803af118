#pragma once
// scan and exscan: prefix combinations over the members in rank order.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out, class Op>
auto scan_as(const In& in, Out&& out, const Op& op, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::scan", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::scan: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  detail::expect_size("dash::comm::scan", "out", output.size(), input.size(), "the size of in");
  auto call = detail::make_call("dash::comm::scan", Coll::scan, 0, is_commutative_v<Op>);
  call.elements = input.size();
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

template <class Mode, class In, class Out, class Op>
auto exscan_as(const In& in, Out&& out, const Op& op, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::exscan", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  static_assert(ReductionFor<Op, T>, "dash::comm::exscan: the operation must combine two T into a T");
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  detail::expect_size("dash::comm::exscan", "out", output.size(), input.size(), "the size of in");
  auto call = detail::make_call("dash::comm::exscan", Coll::exscan, 0, is_commutative_v<Op>);
  call.elements = input.size();
  return detail::issue<Mode, T, Op>(call, input, output, &op, group, options);
}

}  // namespace detail

// Collective over `group`: member r's out = in_0 ⊕ ... ⊕ in_r (inclusive). ceil(lg p) rounds.
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iscan(const In& in, Out&& out, Op op, const Group& group = Group::world(),
                                       const Options& options = {}) {
  return detail::scan_as<detail::Started>(in, out, op, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void scan(const In& in, Out&& out, Op op, const Group& group = Group::world(), const Options& options = {}) {
  detail::scan_as<detail::Completed>(in, out, op, group, options);
}

// Collective over `group`: member r's out = in_0 ⊕ ... ⊕ in_{r-1} (exclusive); out on member 0 is
// not touched, as with MPI_Exscan.
template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iexscan(const In& in, Out&& out, Op op, const Group& group = Group::world(),
                                         const Options& options = {}) {
  return detail::exscan_as<detail::Started>(in, out, op, group, options);
}

template <class In, class Out, class Op>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void exscan(const In& in, Out&& out, Op op, const Group& group = Group::world(), const Options& options = {}) {
  detail::exscan_as<detail::Completed>(in, out, op, group, options);
}

}  // namespace dash::comm
