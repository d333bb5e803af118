#pragma once
// barrier on a group, through the collective engine.

#include <cstddef>
#include <span>

#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode>
auto barrier_as(const Group& group, const Options& options) {
  const detail::LocalFailureReport report("dash::comm::barrier", group);
  auto call = detail::make_call("dash::comm::barrier", Coll::barrier, 0, true);
  call.elements = 0;
  return detail::issue<Mode, std::byte, bit_or>(call, std::span<const std::byte>(), std::span<std::byte>(), nullptr,
                                                group, options);
}

}  // namespace detail

// Collective over `group`: completes on a member only after every member started it.
// Dissemination: ceil(lg p) rounds of empty messages.
inline Request<std::byte> ibarrier(const Group& group = Group::world(), const Options& options = {}) {
  return detail::barrier_as<detail::Started>(group, options);
}

inline void barrier(const Group& group = Group::world(), const Options& options = {}) {
  detail::barrier_as<detail::Completed>(group, options);
}

}  // namespace dash::comm
