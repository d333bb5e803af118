#pragma once
// bcast: the root's buffer is copied to every member.

#include <span>

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class Buf>
auto bcast_as(Buf&& buf, int root, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::bcast", group);
  using T = detail::element_of<Buf>;
  detail::require_transferable<T>();
  const auto buffer = detail::mutable_view_of<T>(buf);
  auto call = detail::make_call("dash::comm::bcast", Coll::bcast, root);
  call.elements = buffer.size();
  return detail::issue<Mode, T, detail::NoCombination>(call, std::span<const T>(), buffer, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: afterwards buf on every member equals buf on `root`; buf has the same
// size on every member. Volume: n per rank (binomial: n per tree edge, ceil(lg p) rounds; long
// messages: scatter + allgather, about 2n per rank).
template <class Buf>
  requires std::ranges::contiguous_range<Buf>
Request<detail::element_of<Buf>> ibcast(Buf&& buf, int root, const Group& group = Group::world(),
                                        const Options& options = {}) {
  return detail::bcast_as<detail::Started>(buf, root, group, options);
}

template <class Buf>
  requires std::ranges::contiguous_range<Buf>
void bcast(Buf&& buf, int root, const Group& group = Group::world(), const Options& options = {}) {
  detail::bcast_as<detail::Completed>(buf, root, group, options);
}

}  // namespace dash::comm
