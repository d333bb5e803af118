#pragma once
// Internal: how a staging process writes its slots of the collective arena, through the cache or
// with streaming stores, chosen by measuring both. A slot line written through the cache must
// first be taken back from the caches of the processes that read the slot's previous chunk: cheap
// while the host keeps their cores near each other, several times the copy when it places them
// farther apart; streaming stores skip that but send the readers to memory, which loses by as much
// when the cores are near (docs/collectives.md, "Shared-memory collectives": how slots are written).
// Placement is neither visible to the process nor fixed (the host moves the cores within seconds),
// so each writer times its own slot writes. Processes need not agree: a reader finds the same bytes
// either way.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace dash::comm::detail {

class SlotWriteChoice {
public:
  // Writes shorter than this go through the cache unmeasured: too short to time, and their lines
  // are few.
  static constexpr std::size_t measured_bytes = std::size_t{16} * 1024;
  // Every explore_every·(slower / faster)-th measured write (the ratio capped at 8) tries the
  // slower-looking way: a move of the cores is noticed within a few calls, and the tries cost a
  // few percent.
  static constexpr std::uint32_t explore_every = 16;

  // Whether the next slot write of `bytes` should stream: a pick, to be made once per write.
  bool streams(std::size_t bytes) noexcept;
  // The time a slot write of `bytes` took (`streamed` as streams() answered).
  void record(bool streamed, std::size_t bytes, std::chrono::nanoseconds took) noexcept;

  // Nanoseconds per KiB measured lately for each way (0: not yet measured).
  double cached_cost() const noexcept { return cost_[0]; }
  double streamed_cost() const noexcept { return cost_[1]; }

private:
  double cost_[2] = {0, 0};
  std::uint32_t measured_ = 0;
  std::uint32_t explored_ = 0;  // measured_ at the last try of the slower-looking way
};

// This process's choice: the arena's runs progress one thread at a time.
SlotWriteChoice& slot_write_choice() noexcept;

// Copies `bytes` from `from` into a slot at `to` the way `choice` picks, and times it.
void write_slot(SlotWriteChoice& choice, std::byte* to, const std::byte* from, std::size_t bytes) noexcept;

}  // namespace dash::comm::detail
