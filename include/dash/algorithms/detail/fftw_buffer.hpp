#pragma once
// Internal: an owned, uninitialised array of complex doubles from fftw_malloc, aligned for FFTW's
// SIMD code. Uninitialised on purpose: dash::fft overwrites its scratch buffers before reading them.

#include <complex>
#include <cstddef>
#include <string>
#include <utility>

#include <fftw3.h>

#include <dash/comm/exception.hpp>

namespace dash::detail {

class FftwBuffer {
public:
  FftwBuffer() = default;
  FftwBuffer(std::size_t count, const char* function) : size_(count) {
    if (count == 0) {
      return;
    }
    data_ = static_cast<std::complex<double>*>(fftw_malloc(count * sizeof(std::complex<double>)));
    if (data_ == nullptr) {
      throw BadAlloc(std::string(function) + ": could not allocate " + std::to_string(count) +
                     " complex doubles of scratch space");
    }
  }
  ~FftwBuffer() { fftw_free(data_); }
  FftwBuffer(FftwBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  FftwBuffer& operator=(FftwBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  FftwBuffer(const FftwBuffer&) = delete;
  FftwBuffer& operator=(const FftwBuffer&) = delete;

  std::complex<double>* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

private:
  std::complex<double>* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace dash::detail
