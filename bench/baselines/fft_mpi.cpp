#include "baselines/fft_mpi.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include <dash/comm/exception.hpp>

namespace dash::bench::fft {

namespace {

// fftw_mpi_init once per process, after MPI_Init (the runner has initialised MPI by now).
void initialise_fftw_mpi() {
  static const bool initialised = [] {
    fftw_mpi_init();
    return true;
  }();
  static_cast<void>(initialised);
}

}  // namespace

FftwMpiTransform::FftwMpiTransform(std::span<const std::size_t> extents, MPI_Comm comm, unsigned flags) {
  initialise_fftw_mpi();
  std::vector<std::ptrdiff_t> n(extents.begin(), extents.end());
  const auto rank = static_cast<int>(n.size());
  std::ptrdiff_t local_n0 = 0;
  std::ptrdiff_t local_0_start = 0;
  std::ptrdiff_t local_n1 = 0;
  std::ptrdiff_t local_1_start = 0;
  const std::ptrdiff_t allocation =
      fftw_mpi_local_size_many_transposed(rank, n.data(), 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, comm,
                                          &local_n0, &local_0_start, &local_n1, &local_1_start);
  std::ptrdiff_t trailing = 1;
  for (std::size_t dim = 2; dim < n.size(); ++dim) {
    trailing *= n[dim];
  }
  input_size_ = static_cast<std::size_t>(local_n0 * n[1] * trailing);
  output_size_ = static_cast<std::size_t>(local_n1 * n[0] * trailing);
  const auto allocated = static_cast<std::size_t>(allocation > 0 ? allocation : 1);
  input_ = reinterpret_cast<std::complex<double>*>(fftw_alloc_complex(allocated));
  output_ = reinterpret_cast<std::complex<double>*>(fftw_alloc_complex(allocated));
  if (input_ == nullptr || output_ == nullptr) {
    fftw_free(input_);
    fftw_free(output_);
    throw BadAlloc("dash-bench fft_mpi: could not allocate " + std::to_string(allocated) + " complex doubles");
  }
  plan_ = fftw_mpi_plan_many_dft(rank, n.data(), 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                 reinterpret_cast<fftw_complex*>(input_), reinterpret_cast<fftw_complex*>(output_),
                                 comm, FFTW_FORWARD, flags | FFTW_MPI_TRANSPOSED_OUT);
  if (plan_ == nullptr) {
    fftw_free(input_);
    fftw_free(output_);
    throw Exception("dash-bench fft_mpi: fftw_mpi_plan_many_dft could not plan the transform");
  }
}

FftwMpiTransform::~FftwMpiTransform() {
  fftw_destroy_plan(plan_);
  fftw_free(input_);
  fftw_free(output_);
}

void FftwMpiTransform::execute() const { fftw_execute(plan_); }

}  // namespace dash::bench::fft
