#pragma once
// NPB FT (3-D FFT PDE solver, NAS Parallel Benchmarks 3.4) on dash (NPB 3.4, docs/references.md):
// the forward 3-D FFT of NPB's random complex field, then per iteration a cumulative multiplication
// by exp(-4 alpha pi^2 |k|^2) in spectral space, the unnormalised inverse FFT and a checksum of
// 1024 sample points, each verified against NPB's within 1e-12 relative.
//
// Our extents are NPB's reversed (nz x ny x nx, x fastest as in NPB's Fortran). Both transforms are
// dash::fft of slab matrices with FftLayout::transposed: the forward one leaves the spectrum as
// ny x nz x nx slabs along y, where the multiplication runs (it only needs each element's wave
// numbers), and the inverse one brings it back to nz x ny x nx slabs along z. Each transform thus
// skips its transpose back: one all-to-all exchange per transform instead of two.
//
// NPB's forward transform uses the roots cos t + i sin t (e^{+2 pi i jk/n}), FFTW's backward sign,
// so FT calls FftDirection::inverse for it and FftDirection::forward for NPB's inverse, both
// unnormalised. (The checksums of classes S to C do not depend on the sign, those of D and larger do.)
//
// The timed part is NPB's: setting up the multipliers and the initial field, the forward FFT and
// the iterations with their checksums (each ends in an allreduce). Before it, untimed, come NPB's
// set-up and forward FFT and also one iteration, so that FFTW has planned the transforms of both
// directions (NPB's own FFT needs no plans) and dash::fft has its scratch space. The timed
// transforms plan again, from FFTW's wisdom, which is quick even with FftPlanning::measure.

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include <dash/algorithms/fft.hpp>
#include <dash/core/team.hpp>

namespace dash::bench::npb {

struct FtClass {
  char name;
  // NPB's extents, x fastest.
  std::size_t nx;
  std::size_t ny;
  std::size_t nz;
  int iterations;
  std::span<const std::complex<double>> checksums;  // NPB's, one per iteration
};

// Class 'S', 'W', 'A' or 'B'; throws dash::InvalidArgument for any other letter.
const FtClass& ft_class(char name);

struct FtResult {
  char klass = 0;
  std::size_t nx = 0;
  std::size_t ny = 0;
  std::size_t nz = 0;
  std::size_t units = 0;
  std::vector<std::complex<double>> checksums;  // one per iteration
  double max_error = 0;   // the largest |checksum - reference| / |reference| over the iterations
  bool verified = false;  // every error <= 1e-12 (and none NaN)
  double seconds = 0;     // the timed part (see the header comment), on the slowest unit
  double mops = 0;        // NPB's Mflop/s: 1e-6 N (14.8157 + 7.19641 ln N + (5.23518 + 7.21113 ln N) niter) / seconds
};

// Collective over `team`: runs FT of class `klass`. From `options` the transforms take `partial`
// and `planning`; FT always uses FftLayout::transposed (see the header comment). Throws
// dash::InvalidArgument, on every unit alike, for another class, for a team size that does not
// divide both nz and ny (dash::fft's slabs must be equally thick in both transforms), and for
// options.normalize_inverse (NPB's inverse is unnormalised).
FtResult run_ft(char klass, Team& team, const FftOptions& options = {});

}  // namespace dash::bench::npb
