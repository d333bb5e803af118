#pragma once
// neighbor_alltoall: a personalised exchange with the neighbours on a Cartesian process grid,
// MPI_Neighbor_alltoall on the communicator MPI_Cart_create(..., reorder = 0) would build
// (Kowalewski 2021 §5.3.1: the halo exchange of a stencil).

#include <memory>
#include <string>

#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/detail/typed_call.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/options.hpp>

namespace dash::comm {

namespace detail {

template <class Mode, class In, class Out>
auto neighbor_alltoall_as(const In& in, Out&& out, const CartesianGrid& grid, const Group& group,
                          const Options& options) {
  constexpr const char* function = "dash::comm::neighbor_alltoall";
  const detail::LocalFailureReport report(function, group);
  using T = detail::element_of<Out>;
  detail::require_transferable<T>();
  const auto input = detail::view_of<T>(in);
  const auto output = detail::mutable_view_of<T>(out);
  if (grid.size() != group.size()) {
    throw invalid_argument(function, "grid.size()", grid.size(),
                           "the group size " + std::to_string(group.size()) + " (one member per grid point)");
  }
  const auto slots = static_cast<std::size_t>(grid.neighbor_slots());
  if (slots == 0 ? !input.empty() : input.size() % slots != 0) {
    throw invalid_argument(function, "in.size()", input.size(),
                           "a multiple of 2 * grid.ndims() = " + std::to_string(slots) + " (one block per neighbour)");
  }
  detail::expect_size(function, "out", output.size(), input.size(), "the size of in");
  auto call = detail::make_call(function, Coll::neighbor_alltoall);
  call.elements = slots == 0 ? 0 : input.size() / slots;
  call.grid = std::make_shared<const CartesianGrid>(grid);
  return detail::issue<Mode, T, detail::NoCombination>(call, input, output, nullptr, group, options);
}

}  // namespace detail

// Collective over `group`, whose members form `grid` (group rank = grid rank): in and out hold
// 2 * grid.ndims() blocks of n elements, one per neighbour slot (cartesian_grid.hpp: slot 2d is
// the neighbour one step down dimension d, slot 2d + 1 the one a step up). In's block k goes to
// the neighbour in slot k; out's block k receives that neighbour's block k ^ 1 (what it sent
// towards this member). Where a non-periodic dimension ends there is no neighbour: that in block
// is not sent and that out block is left untouched. Arrivals report source = the neighbour's
// group rank and block = the out block's index. Volume per member: one message of n elements to
// and from each existing neighbour, in one round.
template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
Request<detail::element_of<Out>> ineighbor_alltoall(const In& in, Out&& out, const CartesianGrid& grid,
                                                    const Group& group = Group::world(),
                                                    const Options& options = {}) {
  return detail::neighbor_alltoall_as<detail::Started>(in, out, grid, group, options);
}

template <class In, class Out>
  requires detail::ContiguousOf<In, detail::element_of<Out>>
void neighbor_alltoall(const In& in, Out&& out, const CartesianGrid& grid, const Group& group = Group::world(),
                       const Options& options = {}) {
  detail::neighbor_alltoall_as<detail::Completed>(in, out, grid, group, options);
}

}  // namespace dash::comm
