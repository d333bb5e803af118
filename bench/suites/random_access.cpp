#include "suites/random_access.hpp"

#include <algorithm>
#include <bit>

namespace dash::bench::gups {

namespace {

// a * b modulo the stream's polynomial: Horner over b's bits, where multiplying by x is one step.
std::uint64_t multiply(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t product = 0;
  for (int bit = 63; bit >= 0; --bit) {
    product = next_address(product);
    if (((b >> bit) & 1U) != 0) {
      product ^= a;
    }
  }
  return product;
}

std::uint64_t total_updates(std::uint64_t table_words) noexcept { return updates_per_word * table_words; }

}  // namespace

std::uint64_t stream_position(std::uint64_t steps) noexcept {
  // x^steps by square-and-multiply over the bits of steps, highest first.
  std::uint64_t power = 1;
  for (int bit = static_cast<int>(std::bit_width(steps)) - 1; bit >= 0; --bit) {
    power = multiply(power, power);
    if (((steps >> bit) & 1U) != 0) {
      power = next_address(power);
    }
  }
  return power;
}

std::uint64_t first_update(std::uint64_t table_words, int units, int unit) noexcept {
  return total_updates(table_words) * static_cast<std::uint64_t>(unit) / static_cast<std::uint64_t>(units);
}

std::size_t look_ahead_rounds(std::uint64_t table_words, int units) noexcept {
  std::uint64_t largest_share = 0;
  for (int unit = 0; unit < units; ++unit) {
    largest_share =
        std::max(largest_share, first_update(table_words, units, unit + 1) - first_update(table_words, units, unit));
  }
  return static_cast<std::size_t>((largest_share + look_ahead - 1) / look_ahead);
}

UpdateBuckets::UpdateBuckets(int units)
    : generated_(look_ahead),
      sorted_(look_ahead),
      send_counts_(static_cast<std::size_t>(units)),
      next_slot_(static_cast<std::size_t>(units)) {}

void UpdateBuckets::fill(std::uint64_t& position, std::size_t count, const BlockedTable& table) {
  std::fill(send_counts_.begin(), send_counts_.end(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    position = next_address(position);
    generated_[k] = position;
    ++send_counts_[static_cast<std::size_t>(table.owner(table.index_of(position)))];
  }
  std::size_t slot = 0;
  for (std::size_t unit = 0; unit < send_counts_.size(); ++unit) {
    next_slot_[unit] = slot;
    slot += send_counts_[unit];
  }
  for (std::size_t k = 0; k < count; ++k) {
    const auto unit = static_cast<std::size_t>(table.owner(table.index_of(generated_[k])));
    sorted_[next_slot_[unit]++] = generated_[k];
  }
  filled_ = count;
}

void apply_updates(std::span<const std::uint64_t> addresses, const BlockedTable& table,
                   std::span<std::uint64_t> local) {
  for (const std::uint64_t address : addresses) {
    local[table.local_offset(table.index_of(address))] ^= address;
  }
}

void initialise_table(std::span<std::uint64_t> local, std::uint64_t local_begin) {
  for (std::size_t i = 0; i < local.size(); ++i) {
    local[i] = local_begin + i;
  }
}

std::vector<std::uint64_t> serial_replay(std::uint64_t table_words, std::uint64_t local_begin,
                                         std::size_t local_words) {
  std::vector<std::uint64_t> replay(local_words, 0);
  std::uint64_t position = 1;  // the stream's start, stepped one by one rather than jumped to
  for (std::uint64_t update = 0; update < total_updates(table_words); ++update) {
    position = next_address(position);
    const std::uint64_t offset = (position & (table_words - 1)) - local_begin;  // wraps for words below the part
    if (offset < local_words) {
      replay[offset] ^= position;
    }
  }
  return replay;
}

std::uint64_t wrong_words(std::span<const std::uint64_t> local, std::uint64_t local_begin,
                          std::span<const std::uint64_t> replay, int applications) {
  const bool odd = applications % 2 != 0;
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < local.size(); ++i) {
    const std::uint64_t expected = (local_begin + i) ^ (odd ? replay[i] : 0);
    wrong += local[i] != expected ? 1U : 0U;
  }
  return wrong;
}

}  // namespace dash::bench::gups
