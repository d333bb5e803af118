#pragma once
// scatter: member r gets block r of the root's buffer.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto scatter_as(const In& in, Out&& out, int root, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::scatter", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  if (group.rank() == root) {
    detail::expect_size("dash::comm::scatter", "in", input.size(),
                        output.size() * static_cast<std::size_t>(group.size()),
                        "group size times the size of out, at the root");
  }
  auto call = detail::make_call("dash::comm::scatter", Coll::scatter, root);
  call.elements = output.size();
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: in (significant at `root` only, may be empty elsewhere) holds p blocks
// of out.size() elements; member r's out is block r. Volume at the root: (p - 1) n sent.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> iscatter(const In& in, Out&& out, int root, const Group& group = Group::world(),
                                          const Options& options = {}) {
  return detail::scatter_as<detail::Started>(in, out, root, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void scatter(const In& in, Out&& out, int root, const Group& group = Group::world(), const Options& options = {}) {
  detail::scatter_as<detail::Completed>(in, out, root, group, options);
}

}  // namespace dash::comm
