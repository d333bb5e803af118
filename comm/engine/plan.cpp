// make_plan: a schedule's dependency analysis for the engine (plan.hpp).

#include "engine/plan.hpp"

#include "engine/plan_steps.hpp"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <utility>

namespace dash::comm::detail {

using schedule::Action;
using schedule::ActionKind;
using schedule::BlockSet;
using schedule::Buffer;

std::shared_ptr<const Plan> make_plan(schedule::Schedule source, std::uint32_t output_blocks) {
  auto plan = std::make_shared<Plan>();
  plan->schedule = std::move(source);
  plan->output_blocks = output_blocks;
  const auto& rounds = plan->schedule.rounds;
  plan->steps_per_round.assign(rounds.size(), 0);
  plan->fence_of_round.assign(rounds.size(), 0);
  for (std::uint32_t r = 1; r < rounds.size(); ++r) {
    plan->fence_of_round[r] = rounds[r].fence ? r : plan->fence_of_round[r - 1];
  }
  plan->awaited_by_fence.assign(rounds.size(), false);
  for (std::size_t r = rounds.size(); r-- > 1;) {
    plan->awaited_by_fence[r - 1] = rounds[r].fence || plan->awaited_by_fence[r];
  }
  // Per (buffer, block): the last step that wrote it and the steps that read it since.
  std::unordered_map<std::uint64_t, std::uint32_t> last_writer;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> readers;
  // Per (peer, direction): the last message step, to chain the next one to it.
  std::unordered_map<std::int64_t, std::uint32_t> last_in_channel;
  std::vector<std::uint32_t> output_writer(output_blocks, no_step);
  auto key = [](Buffer buffer, std::uint32_t block) {
    return std::uint64_t{static_cast<std::uint8_t>(buffer)} << 32 | block;
  };
  std::vector<std::uint32_t> prerequisites;
  auto& steps = plan->steps;
  bool messages_before = false;  // in the rounds before r
  for (std::uint32_t r = 0; r < rounds.size(); ++r) {
    if (r > 0) {
      messages_before = messages_before || std::any_of(rounds[r - 1].actions.begin(), rounds[r - 1].actions.end(),
                                                       [](const Action& a) { return a.is_message(); });
    }
    for (const Action& action : rounds[r].actions) {
      const auto id = static_cast<std::uint32_t>(steps.size());
      PlannedStep& step = steps.emplace_back();
      step.action = &action;
      step.round = r;
      ++plan->steps_per_round[r];
      prerequisites.clear();
      auto read = [&](Buffer buffer, const BlockSet& blocks) {
        for (std::uint32_t t = 0; t < blocks.size(); ++t) {
          const std::uint64_t k = key(buffer, blocks[t]);
          if (const auto w = last_writer.find(k); w != last_writer.end()) {
            prerequisites.push_back(w->second);
          }
          readers[k].push_back(id);
        }
      };
      auto write = [&](Buffer buffer, const BlockSet& blocks) {
        for (std::uint32_t t = 0; t < blocks.size(); ++t) {
          const std::uint64_t k = key(buffer, blocks[t]);
          if (const auto w = last_writer.find(k); w != last_writer.end()) {
            prerequisites.push_back(w->second);
          }
          if (auto rd = readers.find(k); rd != readers.end()) {
            for (const std::uint32_t reader : rd->second) {
              if (reader != id) {
                prerequisites.push_back(reader);
              }
            }
            rd->second.clear();
          }
          last_writer[k] = id;
          if (buffer == Buffer::output) {
            output_writer[blocks[t]] = id;
          }
        }
      };
      switch (action.kind) {
        case ActionKind::send:
          read(action.buffer, action.blocks);
          break;
        case ActionKind::receive:
          write(action.buffer, action.blocks);
          break;
        case ActionKind::receive_reduce:
        case ActionKind::reduce:
          if (action.kind == ActionKind::reduce) {
            read(action.source, action.source_blocks);
          }
          read(action.buffer, action.blocks);
          write(action.buffer, action.blocks);
          break;
        case ActionKind::copy:
          read(action.source, action.source_blocks);
          write(action.buffer, action.blocks);
          break;
      }
      std::sort(prerequisites.begin(), prerequisites.end());
      prerequisites.erase(std::unique(prerequisites.begin(), prerequisites.end()), prerequisites.end());
      step.prerequisites = static_cast<int>(prerequisites.size());
      for (const std::uint32_t before : prerequisites) {
        steps[before].dependents.push_back(id);
      }
      // A send the engine could post before the earlier rounds' messages complete: it needs
      // nothing of the round before, and no fence holds it.
      if (action.kind == ActionKind::send && messages_before && !rounds[r].fence &&
          std::none_of(prerequisites.begin(), prerequisites.end(),
                       [&](std::uint32_t before) { return steps[before].round + 1 == r; })) {
        plan->lockstep = false;
      }
      if (action.is_message()) {
        const std::int64_t channel = std::int64_t{action.peer} * 2 + (action.kind == ActionKind::send ? 1 : 0);
        if (const auto previous = last_in_channel.find(channel); previous != last_in_channel.end()) {
          steps[previous->second].next_in_channel = id;
        } else {
          step.first_in_channel = true;
        }
        last_in_channel[channel] = id;
      }
    }
  }
  for (std::uint32_t b = 0; b < output_blocks; ++b) {
    if (output_writer[b] != no_step) {
      steps[output_writer[b]].final_output_blocks.push_back(b);
    }
  }
  return plan;
}

bool uses_scratch(const Plan& plan) noexcept { return plan.schedule.scratch_blocks > 0; }

bool runs_in_lockstep(const Plan& plan) noexcept { return plan.lockstep; }

std::shared_ptr<const std::vector<std::uint32_t>> placement_of(const std::shared_ptr<const Plan>& plan) {
  if (plan->schedule.placement.empty()) {
    return nullptr;
  }
  return std::shared_ptr<const std::vector<std::uint32_t>>(plan, &plan->schedule.placement);
}

}  // namespace dash::comm::detail
