#pragma once
// The handle of a running non-blocking collective (docs/design.md §2 "Partial aggregation").
//
// Progress is manual: the collective advances inside test(), wait(), for_each_arrival() and
// when_any(). Output blocks can be consumed the moment they hold their final value: each block
// is reported exactly once by for_each_arrival, in the order blocks became final; a block that
// was reported stays valid. A request that is destroyed before completion completes first
// (blocking), so a collective is never left half-way.

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include <dash/comm/arrival.hpp>
#include <dash/comm/cartesian_grid.hpp>
#include <dash/comm/detail/execution.hpp>
#include <dash/comm/schedule/collective.hpp>

namespace dash::comm {

namespace detail {

// What an output block is: whose contribution, which segment (schedule/collective.hpp).
struct ArrivalMap {
  Coll collective = Coll::allgather;
  int root = 0;
  std::uint32_t segments = 1;
  // Non-canonical placement: output block i holds canonical block (*placement)[i]; null if canonical.
  std::shared_ptr<const std::vector<std::uint32_t>> placement;
  // neighbor_alltoall: the grid and the caller's rank in it, which name the neighbour of each slot.
  std::shared_ptr<const CartesianGrid> grid;
  int rank = 0;

  std::uint32_t canonical(std::uint32_t block) const noexcept { return placement ? (*placement)[block] : block; }

  int source(std::uint32_t output_block) const noexcept {
    const std::uint32_t block = canonical(output_block);
    switch (collective) {
      case Coll::allgather:
      case Coll::gather:
      case Coll::alltoall:
        return static_cast<int>(block / segments);
      case Coll::bcast:
      case Coll::scatter:
        return root;
      case Coll::neighbor_alltoall:
        return grid->neighbor_in_slot(rank, static_cast<int>(block / segments)).value_or(-1);
      default:
        return -1;
    }
  }

  // Arrival::block: the output block itself for neighbor_alltoall (its slot tells the direction,
  // which the source alone does not when both neighbours are one rank), else the segment.
  std::size_t block_of(std::uint32_t output_block) const noexcept {
    return collective == Coll::neighbor_alltoall ? output_block : canonical(output_block) % segments;
  }
};

}  // namespace detail

template <class T>
class Request {
public:
  // An empty request: already complete, nothing to report.
  Request() = default;

  Request(detail::Execution execution, detail::BlockLayout layout, detail::ArrivalMap map, T* output,
          std::shared_ptr<void> keep_alive)
      : keep_alive_(std::move(keep_alive)),
        execution_(std::move(execution)),
        layout_(layout),
        map_(map),
        output_(output) {}

  Request(Request&&) noexcept = default;
  Request& operator=(Request&& other) noexcept {
    if (this != &other) {
      execution_ = detail::Execution();  // complete the collective this request held
      keep_alive_ = std::move(other.keep_alive_);
      execution_ = std::move(other.execution_);
      layout_ = other.layout_;
      map_ = other.map_;
      output_ = other.output_;
      continuations_ = std::move(other.continuations_);
    }
    return *this;
  }
  ~Request() = default;

  // Advances the collective; true once it is complete (then runs pending continuations).
  bool test() {
    const bool complete = execution_.progress();
    if (complete) {
      run_continuations();
    }
    return complete;
  }

  // Blocks until the collective is complete.
  void wait() {
    while (!test()) {
    }
  }

  // Calls f(Arrival<T>) for every output block not reported yet, as each becomes final, and
  // returns when the collective is complete (while_some_partial of Kowalewski 2021 §6.3).
  template <class F>
  void for_each_arrival(F&& f) {
    while (true) {
      const bool complete = execution_.progress();
      deliver(f);
      if (complete) {
        run_continuations();
        return;
      }
    }
  }

  // Calls f(Arrival<T>) for the blocks that arrived so far without waiting; true once complete.
  template <class F>
  bool test_arrivals(F&& f) {
    const bool complete = execution_.progress();
    deliver(f);
    if (complete) {
      run_continuations();
    }
    return complete;
  }

  // Runs f() once the collective is complete: at once if it is, else inside test()/wait().
  template <class F>
  Request& then(F&& f) {
    continuations_.emplace_back(std::forward<F>(f));
    if (execution_.done()) {
      run_continuations();
    }
    return *this;
  }

  bool done() const noexcept { return execution_.done(); }

private:
  template <class F>
  void deliver(F& f) {
    while (const auto block = execution_.next_arrival()) {
      f(Arrival<T>{map_.source(*block), map_.block_of(*block), output_ + layout_.first_element(*block),
                   layout_.count(*block)});
    }
  }

  void run_continuations() {
    auto pending = std::move(continuations_);
    continuations_.clear();
    for (auto& continuation : pending) {
      continuation();
    }
  }

  // Declared first, destroyed last: the operation object and staged buffers it owns must outlive
  // the execution, whose destructor completes the collective.
  std::shared_ptr<void> keep_alive_;
  detail::Execution execution_;
  detail::BlockLayout layout_;
  detail::ArrivalMap map_;
  T* output_ = nullptr;
  std::vector<std::function<void()>> continuations_;
};

// Advances all requests until one is complete; returns its position in the argument list.
template <class... Requests>
std::size_t when_any(Requests&... requests) {
  while (true) {
    std::size_t index = 0;
    std::size_t found = sizeof...(Requests);
    ((found == sizeof...(Requests) && requests.test() ? (found = index) : 0, ++index), ...);
    if (found != sizeof...(Requests)) {
      return found;
    }
  }
}

}  // namespace dash::comm
