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
    State(PatternT p, Team& team)
        : pattern(std::move(p)), segment(team, pattern.local_size(static_cast<std::size_t>(team.myid())) * sizeof(T)) {}
    PatternT pattern;
    GlobalSegment segment;
  };

  const State& required(const char* function) const {
    if (!state_) {
      throw InvalidState(std::string(function) + ": the container is not allocated");
    }
    return *state_;
  }

  std::unique_ptr<State> state_;
};

}  // namespace dash::detail
