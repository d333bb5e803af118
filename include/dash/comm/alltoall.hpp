#pragma once
// alltoall: member r's block q goes to member q, which stores it as its block r.

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto alltoall_as(const In& in, Out&& out, const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::alltoall", group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  const auto p = static_cast<std::size_t>(group.size());
  if (input.size() % p != 0) {
    throw invalid_argument("dash::comm::alltoall", "in.size()", input.size(),
                           "a multiple of the group size " + std::to_string(p));
  }
  detail::expect_size("dash::comm::alltoall", "out", output.size(), input.size(), "the size of in");
  auto call = detail::make_call("dash::comm::alltoall", Coll::alltoall);
  call.elements = input.size() / p;
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`: in and out hold p blocks of in.size() / p elements each; out's block q
// is member q's block for this member. Arrivals report source = the sending member. Volume per
// rank: (p - 1) blocks each way (pairwise), more rounds but fewer start-ups with Bruck.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ialltoall(const In& in, Out&& out, const Group& group = Group::world(),
                                           const Options& options = {}) {
  return detail::alltoall_as<detail::Started>(in, out, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void alltoall(const In& in, Out&& out, const Group& group = Group::world(), const Options& options = {}) {
  detail::alltoall_as<detail::Completed>(in, out, group, options);
}

}  // namespace dash::comm
