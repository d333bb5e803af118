#pragma once
// gather: the root gets every member's block, in rank order.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto gather_as(const In& in, Out&& out, int root, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::gather", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  if (group.rank() == root) {
    detail::expect_size("dash::comm::gather", "out", output.size(),
                        input.size() * static_cast<std::size_t>(group.size()),
                        "group size times the size of in, at the root");
  }
  auto call = detail::make_call("dash::comm::gather", Coll::gather, root);
  call.elements = input.size();
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: on `root`, out holds p blocks of in.size() elements, block r from
// member r; elsewhere out is not touched (may be empty). Volume at the root: (p - 1) n received.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> igather(const In& in, Out&& out, int root, const Group& group = Group::world(),
                                         const Options& options = {}) {
  return detail::gather_as<detail::Started>(in, out, root, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void gather(const In& in, Out&& out, int root, const Group& group = Group::world(), const Options& options = {}) {
  detail::gather_as<detail::Completed>(in, out, root, group, options);
}

}  // namespace dash::comm
