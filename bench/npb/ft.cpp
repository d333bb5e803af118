#include "npb/ft.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <string>

#include <mpi.h>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/core/distribution.hpp>

#include "npb/randlc.hpp"

namespace dash::bench::npb {

namespace {

using C = std::complex<double>;
using Field = Matrix<C, 3>;

// NPB's reference checksums (ft.f, subroutine verify).
constexpr std::array<C, 6> checksums_s = {{
    {5.546087004964e+02, 4.845363331978e+02},
    {5.546385409189e+02, 4.865304269511e+02},
    {5.546148406171e+02, 4.883910722336e+02},
    {5.545423607415e+02, 4.901273169046e+02},
    {5.544255039624e+02, 4.917475857993e+02},
    {5.542683411902e+02, 4.932597244941e+02},
}};
constexpr std::array<C, 6> checksums_w = {{
    {5.673612178944e+02, 5.293246849175e+02},
    {5.631436885271e+02, 5.282149986629e+02},
    {5.594024089970e+02, 5.270996558037e+02},
    {5.560698047020e+02, 5.260027904925e+02},
    {5.530898991250e+02, 5.249400845633e+02},
    {5.504159734538e+02, 5.239212247086e+02},
}};
constexpr std::array<C, 6> checksums_a = {{
    {5.046735008193e+02, 5.114047905510e+02},
    {5.059412319734e+02, 5.098809666433e+02},
    {5.069376896287e+02, 5.098144042213e+02},
    {5.077892868474e+02, 5.101336130759e+02},
    {5.085233095391e+02, 5.104914655194e+02},
    {5.091487099959e+02, 5.107917842803e+02},
}};
constexpr std::array<C, 20> checksums_b = {{
    {5.177643571579e+02, 5.077803458597e+02},
    {5.154521291263e+02, 5.088249431599e+02},
    {5.146409228649e+02, 5.096208912659e+02},
    {5.142378756213e+02, 5.101023387619e+02},
    {5.139626667737e+02, 5.103976610617e+02},
    {5.137423460082e+02, 5.105948019802e+02},
    {5.135547056878e+02, 5.107404165783e+02},
    {5.133910925466e+02, 5.108576573661e+02},
    {5.132470705390e+02, 5.109577278523e+02},
    {5.131197729984e+02, 5.110460304483e+02},
    {5.130070319283e+02, 5.111252433800e+02},
    {5.129070537032e+02, 5.111968077718e+02},
    {5.128182883502e+02, 5.112616233064e+02},
    {5.127393733383e+02, 5.113203605551e+02},
    {5.126691062020e+02, 5.113735928093e+02},
    {5.126064276004e+02, 5.114218460548e+02},
    {5.125504076570e+02, 5.114656139760e+02},
    {5.125002331720e+02, 5.115053595966e+02},
    {5.124551951846e+02, 5.115415130407e+02},
    {5.124146770029e+02, 5.115744692211e+02},
}};

const std::array<FtClass, 4> classes = {{
    {'S', 64, 64, 64, 6, checksums_s},
    {'W', 128, 128, 32, 6, checksums_w},
    {'A', 256, 256, 128, 6, checksums_a},
    {'B', 512, 256, 256, 20, checksums_b},
}};

constexpr double alpha = 1e-6;       // the diffusion constant of NPB's PDE
constexpr double tolerance = 1e-12;  // NPB's verification epsilon
constexpr std::uint64_t sample_points = 1024;
constexpr const char* run_ft_function = "dash::bench::npb::run_ft";

// exp(-4 alpha pi^2 k^2) for the wave numbers k = 0, 1, ..., n/2 - 1, -n/2, ..., -1 of a
// dimension of n points. The 3-D multiplier is the product of three of these, so, unlike NPB, FT
// keeps no array of the grid's size for it.
std::vector<double> decay_factors(std::size_t n) {
  std::vector<double> factors(n);
  const auto half = static_cast<std::ptrdiff_t>(n / 2);
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<double>((static_cast<std::ptrdiff_t>(i) + half) % static_cast<std::ptrdiff_t>(n) - half);
    factors[i] = std::exp(-4.0 * alpha * std::numbers::pi * std::numbers::pi * k * k);
  }
  return factors;
}

std::size_t first_row(const Field& field) {
  return field.pattern().global(static_cast<std::size_t>(field.team().myid()), 0)[0];
}

class Ft {
public:
  Ft(const FtClass& klass, Team& team, const FftOptions& options)
      : klass_(klass),
        team_(team),
        options_(options),
        space_(SizeSpec<3>(klass.nz, klass.ny, klass.nx), DistributionSpec<3>(BLOCKED, NONE, NONE), team),
        spectrum_(SizeSpec<3>(klass.ny, klass.nz, klass.nx), DistributionSpec<3>(BLOCKED, NONE, NONE), team) {
    options_.layout = FftLayout::transposed;
  }

  // The multipliers' tables, the initial field u0 in space_ and its NPB-forward transform in
  // spectrum_.
  void set_up() {
    decay_x_ = decay_factors(klass_.nx);
    decay_y_ = decay_factors(klass_.ny);
    decay_z_ = decay_factors(klass_.nz);
    initial_field();
    fft(space_, spectrum_, FftDirection::inverse, options_);
  }

  // One iteration: spectrum_ times the multipliers, its NPB-inverse transform into space_ and the
  // checksum of that.
  C iterate() {
    evolve();
    fft(spectrum_, space_, FftDirection::forward, options_);
    return checksum();
  }

private:
  // u0 at (z, y, x) is r_{2m+1} + i r_{2m+2}, m = x + nx (y + ny z): each row (z, y) starts at
  // its place in NPB's stream.
  void initial_field() {
    const std::size_t rows = space_.local.extent(0) * klass_.ny;
    const std::size_t first = first_row(space_) * klass_.ny;
    C* row = space_.lbegin();
    for (std::size_t r = 0; r < rows; ++r, row += klass_.nx) {
      std::uint64_t state = randlc_jump(randlc_seed, 2 * klass_.nx * (first + r));
      for (std::size_t x = 0; x < klass_.nx; ++x) {
        const double real = randlc(state);
        row[x] = C(real, randlc(state));
      }
    }
  }

  // spectrum_ (y, z, x) *= exp(-4 alpha pi^2 (ky^2 + kz^2 + kx^2)), cumulatively.
  void evolve() {
    const std::size_t planes = spectrum_.local.extent(0);
    const std::size_t y0 = first_row(spectrum_);
    C* row = spectrum_.lbegin();
    for (std::size_t y = y0; y < y0 + planes; ++y) {
      for (std::size_t z = 0; z < klass_.nz; ++z, row += klass_.nx) {
        const double yz = decay_y_[y] * decay_z_[z];
        for (std::size_t x = 0; x < klass_.nx; ++x) {
          row[x] *= yz * decay_x_[x];
        }
      }
    }
  }

  // (1 / N) sum over j = 1..1024 of u(x = j mod nx, y = 3j mod ny, z = 5j mod nz): each unit adds
  // the points in its slab, an allreduce adds the units' sums.
  C checksum() {
    const std::size_t z0 = first_row(space_);
    const std::size_t z_end = z0 + space_.local.extent(0);
    std::array<double, 2> sum{};
    for (std::uint64_t j = 1; j <= sample_points; ++j) {
      const std::size_t z = (5 * j) % klass_.nz;
      if (z < z0 || z >= z_end) {
        continue;
      }
      const C value = space_.lbegin()[((z - z0) * klass_.ny + (3 * j) % klass_.ny) * klass_.nx + j % klass_.nx];
      sum[0] += value.real();
      sum[1] += value.imag();
    }
    const auto points = static_cast<double>(klass_.nx * klass_.ny * klass_.nz);
    sum[0] /= points;
    sum[1] /= points;
    comm::allreduce(std::span<const double>(sum), std::span<double>(sum), plus{}, team_.group());
    return {sum[0], sum[1]};
  }

  const FtClass& klass_;
  Team& team_;
  FftOptions options_;
  Field space_;     // nz x ny x nx, slabs along z: u0, then each iteration's u2
  Field spectrum_;  // ny x nz x nx, slabs along y: the evolving spectrum
  std::vector<double> decay_x_;
  std::vector<double> decay_y_;
  std::vector<double> decay_z_;
};

}  // namespace

const FtClass& ft_class(char name) {
  for (const FtClass& klass : classes) {
    if (klass.name == name) {
      return klass;
    }
  }
  throw invalid_argument("dash::bench::npb::ft_class", "name", std::string(1, name), "'S', 'W', 'A' or 'B'");
}

FtResult run_ft(char klass_name, Team& team, const FftOptions& options) {
  const FtClass& klass = ft_class(klass_name);
  const std::size_t units = team.size();
  if (klass.nz % units != 0 || klass.ny % units != 0) {
    throw invalid_argument(run_ft_function, "team.size()", units,
                           "a divisor of nz = " + std::to_string(klass.nz) + " and ny = " + std::to_string(klass.ny) +
                               " (dash::fft's slabs along z and y are equally thick)");
  }
  if (options.normalize_inverse) {
    throw invalid_argument(run_ft_function, "options.normalize_inverse", true,
                           "false (NPB's inverse transform is unnormalised)");
  }
  Ft ft(klass, team, options);
  // Untimed, like NPB's first set-up and forward FFT, plus one iteration: FFTW plans both
  // directions here (which takes long with FftPlanning::measure), and dash::fft allocates its scratch.
  ft.set_up();
  ft.iterate();

  FtResult result;
  team.barrier();
  const double start = MPI_Wtime();
  ft.set_up();
  for (int it = 0; it < klass.iterations; ++it) {
    result.checksums.push_back(ft.iterate());
  }
  double seconds = MPI_Wtime() - start;
  comm::allreduce(std::span<const double>(&seconds, 1), std::span<double>(&seconds, 1), max{}, team.group());

  result.klass = klass.name;
  result.nx = klass.nx;
  result.ny = klass.ny;
  result.nz = klass.nz;
  result.units = units;
  result.verified = true;
  for (std::size_t it = 0; it < result.checksums.size(); ++it) {
    const double error = std::abs(result.checksums[it] - klass.checksums[it]) / std::abs(klass.checksums[it]);
    // A NaN error fails the verification and stays the largest error.
    if (!std::isnan(result.max_error) && !(error <= result.max_error)) {
      result.max_error = error;
    }
    result.verified = result.verified && error <= tolerance;
  }
  result.seconds = seconds;
  const auto points = static_cast<double>(klass.nx * klass.ny * klass.nz);
  const double flops =
      points * (14.8157 + 7.19641 * std::log(points) + (5.23518 + 7.21113 * std::log(points)) * klass.iterations);
  result.mops = seconds > 0 ? 1e-6 * flops / seconds : 0;
  return result;
}

}  // namespace dash::bench::npb
