#pragma once
// One step of a rank's part of a collective: a message to or from a peer, or a local copy or
// reduction. Actions name blocks of the rank's three buffers; they never hold data.

#include <cstdint>

#include <dash/comm/schedule/block_set.hpp>

namespace dash::comm::schedule {

// The buffers of one rank's part of a collective: the caller's input and output and a scratch
// area the schedule declares (Schedule::scratch_blocks). Input is never written.
enum class Buffer : std::uint8_t { input, output, scratch };

enum class ActionKind : std::uint8_t {
  send,          // send `blocks` of `buffer` to `peer`
  receive,       // receive from `peer` into `blocks` of `buffer` (overwrites)
  receive_reduce,// receive from `peer` and combine into `blocks` of `buffer`
  copy,          // local: `source_blocks` of `source` -> `blocks` of `buffer`
  reduce,        // local: combine `source_blocks` of `source` into `blocks` of `buffer`
};

// For a combining action: which side the incoming (received or source) data takes. Matters
// only for non-commutative operations, whose results must keep rank order.
enum class Operand : std::uint8_t { incoming_left, incoming_right };

struct Action {
  ActionKind kind = ActionKind::send;
  Buffer buffer = Buffer::output;
  BlockSet blocks;
  int peer = -1;  // group rank for messages; -1 for local actions
  Buffer source = Buffer::input;  // copy and reduce only
  BlockSet source_blocks;         // copy and reduce only
  Operand operand = Operand::incoming_right;

  constexpr bool is_message() const noexcept {
    return kind == ActionKind::send || kind == ActionKind::receive ||
           kind == ActionKind::receive_reduce;
  }
  constexpr bool writes() const noexcept { return kind != ActionKind::send; }
  constexpr bool combines() const noexcept {
    return kind == ActionKind::receive_reduce || kind == ActionKind::reduce;
  }

  static constexpr Action send_to(int to, Buffer from, BlockSet which) {
    return Action{ActionKind::send, from, which, to, Buffer::input, {}, Operand::incoming_right};
  }
  static constexpr Action receive_from(int from, Buffer into, BlockSet which) {
    return Action{ActionKind::receive, into, which, from, Buffer::input, {}, Operand::incoming_right};
  }
  static constexpr Action receive_reduce_from(int from, Buffer into, BlockSet which, Operand side) {
    return Action{ActionKind::receive_reduce, into, which, from, Buffer::input, {}, side};
  }
  static constexpr Action copy(Buffer from, BlockSet from_blocks, Buffer into, BlockSet into_blocks) {
    return Action{ActionKind::copy, into, into_blocks, -1, from, from_blocks, Operand::incoming_right};
  }
  static constexpr Action reduce(Buffer from, BlockSet from_blocks, Buffer into, BlockSet into_blocks,
                                 Operand side) {
    return Action{ActionKind::reduce, into, into_blocks, -1, from, from_blocks, side};
  }

  friend constexpr bool operator==(const Action&, const Action&) = default;
};

}  // namespace dash::comm::schedule
