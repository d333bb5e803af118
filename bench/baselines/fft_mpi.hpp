#pragma once
// The `fft` suite's baseline: FFTW-MPI's distributed complex DFT (fftw_mpi_plan_many_dft) with
// FFTW_MPI_TRANSPOSED_OUT, the layout dash::fft gives with FftLayout::transposed: the input
// n0 x n1 [x n2] is distributed in slabs along n0, the output n1 x n0 [x n2] in slabs along n1
// (FFTW's default blocks, n / p each when p divides n). Planned once, out of place; an execution
// may overwrite the input (FFTW-MPI's default for out-of-place plans).

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include <fftw3-mpi.h>
#include <mpi.h>

namespace dash::bench::fft {

class FftwMpiTransform {
public:
  // Collective over `comm` (not taken over; it must outlive this object): plans the forward
  // transform of an array of `extents` (2 or 3 of them) with the FFTW planner `flags`.
  FftwMpiTransform(std::span<const std::size_t> extents, MPI_Comm comm, unsigned flags);
  ~FftwMpiTransform();
  FftwMpiTransform(const FftwMpiTransform&) = delete;
  FftwMpiTransform& operator=(const FftwMpiTransform&) = delete;

  // This process's slab of the input: local_n0 rows of n1 [x n2] elements.
  std::span<std::complex<double>> input() const noexcept { return {input_, input_size_}; }
  // This process's slab of the output: local_n1 rows of n0 [x n2] elements.
  std::span<std::complex<double>> output() const noexcept { return {output_, output_size_}; }

  // Collective: output = DFT(input).
  void execute() const;

private:
  std::complex<double>* input_ = nullptr;
  std::complex<double>* output_ = nullptr;
  std::size_t input_size_ = 0;
  std::size_t output_size_ = 0;
  fftw_plan plan_ = nullptr;
};

}  // namespace dash::bench::fft
