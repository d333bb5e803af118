#pragma once
// Internal: dash::fft's scratch buffers (the send and receive sides of its transposes, and two
// chunks of rows), kept between calls of a thread. Allocating them anew in every call costs a page
// fault on the first touch of every page, a large share of a transform (docs/algorithms.md,
// "dash::fft"). They grow to the largest sizes used so far and are freed by
// dash::fft_release_scratch() or when the thread ends.

#include <cstddef>

#include <dash/algorithms/detail/fftw_buffer.hpp>

namespace dash::detail {

struct FftScratch {
  FftwBuffer send;
  FftwBuffer receive;
  FftwBuffer rows;  // a chunk of transformed rows, and one of input
};

inline FftScratch& fft_scratch_of_this_thread() {
  thread_local FftScratch scratch;
  return scratch;
}

// The calling thread's scratch, with room for `elements` complex doubles on each side of the
// transposes and `row_elements` for chunks of rows.
inline FftScratch& fft_scratch(std::size_t elements, std::size_t row_elements, const char* function) {
  FftScratch& scratch = fft_scratch_of_this_thread();
  if (scratch.send.size() < elements) {
    scratch.send = FftwBuffer();  // the old buffers go first: never old and new at once
    scratch.receive = FftwBuffer();
    scratch.send = FftwBuffer(elements, function);
    scratch.receive = FftwBuffer(elements, function);
  }
  if (scratch.rows.size() < row_elements) {
    scratch.rows = FftwBuffer();
    scratch.rows = FftwBuffer(row_elements, function);
  }
  return scratch;
}

}  // namespace dash::detail
