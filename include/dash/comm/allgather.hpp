#pragma once
// allgather: every member gets every member's block, in rank order.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto allgather_as(const In& in, Out&& out, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::allgather", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  detail::expect_size("dash::comm::allgather", "out", output.size(),
                      input.size() * static_cast<std::size_t>(group.size()), "group size times the size of in");
  auto call = detail::make_call("dash::comm::allgather", Coll::allgather);
  call.elements = input.size();
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: out holds p blocks of in.size() elements, block r from member r.
// Arrivals report source = the member whose block landed. Volume per rank: (p - 1) n received.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iallgather(const In& in, Out&& out, const Group& group = Group::world(),
                                            const Options& options = {}) {
  return detail::allgather_as<detail::Started>(in, out, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void allgather(const In& in, Out&& out, const Group& group = Group::world(), const Options& options = {}) {
  detail::allgather_as<detail::Completed>(in, out, group, options);
}

}  // namespace dash::comm
