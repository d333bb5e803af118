#pragma once
// The memory of a distributed container: its pattern and the global segment that holds each unit's
// part, on the heap so that iterators survive moves of the container. Shared by Array and Matrix.

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/team.hpp>

namespace dash::detail {

template <class T, class PatternT>
class DistributedStorage {
public:
  // Throws dash::InvalidArgument naming `function` unless the caller is a member of `team`.
  static void require_member(const Team& team, const char* function) {
    if (team.is_freed() || team.is_null() || team.myid() < 0) {
      throw InvalidArgument(std::string(function) + ": the calling process (unit " + std::to_string(dash::myid()) +
                            " of Team::All()) is not a member of the team the container is allocated on");
    }
  }

  // Collective over `team`: each member allocates its part of `pattern`.
  void allocate(PatternT pattern, Team& team) { state_ = std::make_unique<State>(std::move(pattern), team); }
  // Collective when allocated.
  void reset() noexcept { state_.reset(); }
  bool allocated() const noexcept { return state_ != nullptr; }

  const PatternT& pattern(const char* function) const { return required(function).pattern; }
  const GlobalSegment& segment(const char* function) const { return required(function).segment; }
  const PatternT* pattern_ptr() const noexcept { return state_ ? &state_->pattern : nullptr; }
  const GlobalSegment* segment_ptr() const noexcept { return state_ ? &state_->segment : nullptr; }
  T* local_data() const noexcept { return state_ ? reinterpret_cast<T*>(state_->segment.local().data()) : nullptr; }

private:
  struct State {
    State(PatternT p, Team& team) : pattern(std::move(p)), segment(team, local_bytes(pattern, team)) {}
    PatternT pattern;
    GlobalSegment segment;
  };

  // The unit's part in bytes. The check is on the largest part, which every member computes alike,
  // so that all of them throw together instead of some entering the collective allocation.
  static std::size_t local_bytes(const PatternT& pattern, const Team& team) {
    if (pattern.local_capacity() > static_cast<std::size_t>(-1) / sizeof(T)) {
      throw OutOfRange("dash container allocation: the largest unit's part of " +
                       std::to_string(pattern.local_capacity()) + " elements of " + std::to_string(sizeof(T)) +
                       " bytes each exceeds the address space");
    }
    return pattern.local_size(static_cast<std::size_t>(team.myid())) * sizeof(T);
  }

  const State& required(const char* function) const {
    if (!state_) {
      throw InvalidState(std::string(function) + ": the container is not allocated");
    }
    return *state_;
  }

  std::unique_ptr<State> state_;
};

}  // namespace dash::detail
