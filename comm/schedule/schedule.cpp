#include <dash/comm/schedule/schedule.hpp>

namespace dash::comm::schedule {

std::size_t Schedule::message_count() const noexcept {
  std::size_t sends = 0;
  for (const Round& round : rounds) {
    for (const Action& action : round.actions) {
      sends += action.kind == ActionKind::send ? 1 : 0;
    }
  }
  return sends;
}

void Schedule::fence_every_round() noexcept {
  for (Round& round : rounds) {
    round.fence = true;
  }
}

}  // namespace dash::comm::schedule
