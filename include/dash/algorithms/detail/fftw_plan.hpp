#pragma once
// Internal: an owned FFTW plan of a complex double transform (destroyed with the object), made with
// FFTW's guru64 interface, so that counts and strides beyond INT_MAX can be expressed. A plan may be
// executed on other arrays than the ones it was made for if they have the same FFTW alignment
// (fftw_alignment_of) and the same in-place-ness: the plan records its input's alignment (callers of
// out-of-place plans keep the output).

#include <complex>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <fftw3.h>

#include <dash/comm/check.hpp>
#include <dash/comm/exception.hpp>

namespace dash::detail {

// One dimension of a transform, or of the loop that repeats it: `n` positions `stride` elements
// apart, alike in the input and the output.
struct FftwDimension {
  std::size_t n = 1;
  std::size_t stride = 1;
};

inline fftw_complex* as_fftw(std::complex<double>* data) noexcept { return reinterpret_cast<fftw_complex*>(data); }

inline int fftw_alignment(const std::complex<double>* data) noexcept {
  return fftw_alignment_of(reinterpret_cast<double*>(const_cast<std::complex<double>*>(data)));
}

class FftwPlan {
public:
  FftwPlan() = default;
  // Plans the transform over `transform` of `in` into `out` (equal for in place), repeated over
  // `repeat`. sign: FFTW_FORWARD or FFTW_BACKWARD; flags: FFTW_ESTIMATE, FFTW_MEASURE, ... (any but
  // FFTW_ESTIMATE and FFTW_WISDOM_ONLY overwrite both arrays while planning). Throws dash::Exception
  // naming `function` when FFTW cannot plan it.
  FftwPlan(std::initializer_list<FftwDimension> transform, std::initializer_list<FftwDimension> repeat,
           std::complex<double>* in, std::complex<double>* out, int sign, unsigned flags, const char* function)
      : in_place_(in == out), alignment_(fftw_alignment(in)) {
    const std::vector<fftw_iodim64> transform_dims = dims_of(transform);
    const std::vector<fftw_iodim64> repeat_dims = dims_of(repeat);
    plan_ = fftw_plan_guru64_dft(static_cast<int>(transform_dims.size()), transform_dims.data(),
                                 static_cast<int>(repeat_dims.size()), repeat_dims.data(), as_fftw(in), as_fftw(out),
                                 sign, flags);
    if (plan_ == nullptr) {
      throw Exception(std::string(function) + ": FFTW could not plan a transform of " +
                      std::to_string(transform.size()) + " dimension(s)");
    }
  }
  ~FftwPlan() {
    if (plan_ != nullptr) {
      fftw_destroy_plan(plan_);
    }
  }
  FftwPlan(FftwPlan&& other) noexcept
      : plan_(std::exchange(other.plan_, nullptr)), in_place_(other.in_place_), alignment_(other.alignment_) {}
  FftwPlan& operator=(FftwPlan&& other) noexcept {
    std::swap(plan_, other.plan_);
    in_place_ = other.in_place_;
    alignment_ = other.alignment_;
    return *this;
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;

  // The FFTW alignment of the input the plan was made for; execute() needs arrays that share it.
  int alignment() const noexcept { return alignment_; }

  // Runs the transform on `in` into `out` (equal exactly when the plan is in place).
  void execute(std::complex<double>* in, std::complex<double>* out) const {
    assert_that((in == out) == in_place_ && fftw_alignment(in) == alignment_,
                "dash::detail::FftwPlan::execute: arrays of another alignment or in-place-ness than planned");
    fftw_execute_dft(plan_, as_fftw(in), as_fftw(out));
  }

private:
  static std::vector<fftw_iodim64> dims_of(std::initializer_list<FftwDimension> dimensions) {
    std::vector<fftw_iodim64> dims;
    for (const FftwDimension& dimension : dimensions) {
      const auto stride = static_cast<std::ptrdiff_t>(dimension.stride);
      dims.push_back(fftw_iodim64{static_cast<std::ptrdiff_t>(dimension.n), stride, stride});
    }
    return dims;
  }

  fftw_plan plan_ = nullptr;
  bool in_place_ = false;
  int alignment_ = 0;
};

}  // namespace dash::detail
