#pragma once
// HPCC RandomAccess (GUPS) as both sides of the `gups` suite run it; only their communication
// differs (HPCC RandomAccess, docs/references.md, docs/benchmarks.md).
//
// The table has 2^m 64-bit words, T[i] = i at the start, distributed BLOCKED over the units. The
// 4 * 2^m updates T[a & (2^m - 1)] ^= a take the addresses a from HPCC's stream (multiplication
// by x modulo x^64 + x^2 + x + 1 over GF(2); update k uses the value after k + 1 steps from 1).
// Like HPCC's reference code the index is the low m bits of a. Each unit generates a contiguous
// share of the stream, jumping to its start, and processes it in look-aheads of at most 1024
// addresses: bucket them by owner, exchange, apply on the owner.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dash::bench::gups {

// HPCC's limit on random addresses a process may generate before the updates are applied.
inline constexpr std::size_t look_ahead = 1024;
// Updates per table word.
inline constexpr std::uint64_t updates_per_word = 4;

// One step of the stream: the value times x modulo x^64 + x^2 + x + 1 (HPCC's POLY = 7).
constexpr std::uint64_t next_address(std::uint64_t value) noexcept {
  constexpr std::uint64_t feedback = 0x7;
  return (value << 1) ^ ((value >> 63) != 0 ? feedback : 0);
}

// The stream's value after `steps` steps from 1 (x^steps modulo the polynomial, HPCC_starts):
// update k uses next_address(stream_position(k)). O(64^2) operations for any `steps`.
std::uint64_t stream_position(std::uint64_t steps) noexcept;

// The updates of the whole table among `units` units: unit u generates updates
// [first_update(u), first_update(u + 1)) of the stream.
std::uint64_t first_update(std::uint64_t table_words, int units, int unit) noexcept;

// The number of look-aheads every unit runs (the largest share / look_ahead, rounded up): units
// with a shorter share take part in the last exchanges with nothing to send.
std::size_t look_ahead_rounds(std::uint64_t table_words, int units) noexcept;

// Where a word of a BLOCKED table lives: unit index / block at local offset index % block.
struct BlockedTable {
  std::uint64_t words;  // a power of two
  std::uint64_t block;  // words per unit; the last units may hold fewer

  std::uint64_t index_of(std::uint64_t address) const noexcept { return address & (words - 1); }
  int owner(std::uint64_t index) const noexcept { return static_cast<int>(index / block); }
  std::uint64_t local_offset(std::uint64_t index) const noexcept { return index % block; }
};

// One look-ahead's addresses grouped by owner: `addresses` holds send_counts[0] addresses for
// unit 0, then send_counts[1] for unit 1, ...
class UpdateBuckets {
public:
  explicit UpdateBuckets(int units);

  // Generates the next `count` (<= look_ahead) addresses after `position` (advancing it) and
  // sorts them by owner.
  void fill(std::uint64_t& position, std::size_t count, const BlockedTable& table);

  std::span<const std::uint64_t> addresses() const noexcept { return {sorted_.data(), filled_}; }
  const std::vector<std::size_t>& send_counts() const noexcept { return send_counts_; }

private:
  std::vector<std::uint64_t> generated_;
  std::vector<std::uint64_t> sorted_;
  std::vector<std::size_t> send_counts_;
  std::vector<std::size_t> next_slot_;
  std::size_t filled_ = 0;
};

// T[index] ^= address for each received address; `local` is the part of the unit that owns them all.
void apply_updates(std::span<const std::uint64_t> addresses, const BlockedTable& table, std::span<std::uint64_t> local);

// Sets the unit's part to T[i] = i.
void initialise_table(std::span<std::uint64_t> local, std::uint64_t local_begin);

// What HPCC's verification computes: for each word of the unit's part, the XOR of every address
// the whole stream sends there, found by replaying the stream serially (untimed). A table that
// took the updates k times holds i ^ (k odd ? replay[i] : 0).
std::vector<std::uint64_t> serial_replay(std::uint64_t table_words, std::uint64_t local_begin, std::size_t local_words);

// The words of the unit's part that differ from what `applications` complete runs must leave.
std::uint64_t wrong_words(std::span<const std::uint64_t> local, std::uint64_t local_begin,
                          std::span<const std::uint64_t> replay, int applications);

}  // namespace dash::bench::gups
