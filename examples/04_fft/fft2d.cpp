// 04_fft: a distributed 2-D FFT of a dash::Matrix with dash::fft.
//
//   mpirun -n 4 ./fft2d
//
// Every unit fills its rows of the 256 x 512 plane wave exp(2 pi i (3 x / 256 + 5 y / 512)); the
// units transform it together, and each looks for the strongest frequency in its part of the
// spectrum: all of the wave's energy lies at (kx, ky) = (3, 5), with magnitude 256 * 512.
// FftLayout::transposed leaves the spectrum as a 512 x 256 matrix (ky first), which saves the
// transpose back; the inverse transform of that layout restores the input's layout.

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>

#include <dash/algorithms/fft.hpp>
#include <dash/dash.hpp>

int main(int argc, char** argv) {
  dash::Environment environment(argc, argv);
  using C = std::complex<double>;
  constexpr std::size_t nx = 256;
  constexpr std::size_t ny = 512;
  constexpr std::size_t kx = 3;
  constexpr std::size_t ky = 5;

  // Slabs of rows: the distribution dash::fft takes. Both extents must be multiples of the units.
  const dash::DistributionSpec<2> slabs(dash::BLOCKED, dash::NONE);
  dash::Matrix<C, 2> wave(dash::SizeSpec<2>(nx, ny), slabs);
  dash::Matrix<C, 2> spectrum(dash::SizeSpec<2>(ny, nx), slabs);
  dash::Matrix<C, 2> restored(dash::SizeSpec<2>(nx, ny), slabs);
  for (std::size_t i = 0; i < wave.local.extent(0); ++i) {
    for (std::size_t j = 0; j < ny; ++j) {
      const auto global = wave.local.global_coords({i, j});
      const double phase = static_cast<double>(kx * global[0]) / nx + static_cast<double>(ky * global[1]) / ny;
      wave.local(i, j) = std::polar(1.0, 2 * std::numbers::pi * phase);
    }
  }

  const dash::FftOptions options{.layout = dash::FftLayout::transposed, .normalize_inverse = true};
  dash::fft(wave, spectrum, dash::FftDirection::forward, options);

  // This unit's strongest frequency: local element (r, c) of the spectrum is (kx, ky) = (c, global row).
  std::array<double, 1> strongest{0.0};
  std::array<std::size_t, 2> at{0, 0};
  for (std::size_t r = 0; r < spectrum.local.extent(0); ++r) {
    for (std::size_t c = 0; c < nx; ++c) {
      const double magnitude = std::abs(spectrum.local(r, c));
      if (magnitude > strongest[0]) {
        strongest[0] = magnitude;
        at = {c, spectrum.local.global_coords({r, c})[0]};
      }
    }
  }
  if (strongest[0] > 1.0) {
    std::printf("unit %d: strongest frequency (kx, ky) = (%zu, %zu), magnitude %.1f (expected %zu)\n", dash::myid(),
                at[0], at[1], strongest[0], nx * ny);
  }

  // Back to the input: the normalised inverse of the transposed spectrum.
  dash::fft(spectrum, restored, dash::FftDirection::inverse, options);
  std::array<double, 1> error{0.0};
  for (std::size_t i = 0; i < wave.local.size(); ++i) {
    error[0] = std::max(error[0], std::abs(restored.local[i] - wave.local[i]));
  }
  std::array<double, 1> largest_error{0.0};
  dash::comm::allreduce(error, largest_error, dash::max{}, wave.team().group());
  if (dash::myid() == 0) {
    std::printf("round trip: largest error %.2e over %zu units\n", largest_error[0], dash::size());
  }
  return largest_error[0] < 1e-12 ? 0 : 1;
}
