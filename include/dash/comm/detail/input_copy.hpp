#pragma once
// The copy of a collective's input that overlaps its output (MPI_IN_PLACE-like calls), in storage
// kept between calls. A fresh allocation of a large copy is fresh memory: a page fault per 4 KiB
// page on every call, which on a virtual machine cost more than the collective (an 8 MiB in-place
// allreduce at P = 2: 33 ms into fresh memory, 1.8 ms into reused memory).
//
// At most `kept_buffers` buffers of at most `kept_buffer_max_bytes` each are kept, process-wide
// (thread-safe); a copy takes the smallest kept buffer that holds it, else the largest one (which
// grows), else a new one, and gives it back when it is destroyed.

#include <cstddef>
#include <span>
#include <vector>

namespace dash::comm::detail {

inline constexpr std::size_t kept_buffers = 2;
inline constexpr std::size_t kept_buffer_max_bytes = std::size_t{64} << 20;

class InputCopy {
public:
  InputCopy() = default;
  explicit InputCopy(std::span<const std::byte> bytes);
  InputCopy(InputCopy&& other) noexcept = default;
  InputCopy& operator=(InputCopy&& other) noexcept;
  InputCopy(const InputCopy&) = delete;
  InputCopy& operator=(const InputCopy&) = delete;
  ~InputCopy();

  const std::byte* data() const noexcept { return storage_.data(); }
  std::size_t size() const noexcept { return storage_.size(); }

private:
  void give_back() noexcept;

  std::vector<std::byte> storage_;
};

// The capacity, in bytes, of the buffers kept for the next copies.
std::size_t kept_input_copy_bytes();
// Frees the kept buffers.
void release_kept_input_copies();

}  // namespace dash::comm::detail
