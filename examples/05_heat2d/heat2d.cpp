// 05_heat2d: the 2-D heat equation (Kowalewski 2021 §7.5) with a halo wrapper and a stencil.
//
//   mpirun -n 4 ./heat2d [n] [iterations]
//
// An n x n plate, held at 1 along its top edge and 0 along the others, relaxes by Jacobi steps:
// u'(i, j) = (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1)) / 4. The plate is a dash::Matrix
// split in blocks over a 2-D grid of units; a dash::HaloMatrix keeps a copy of the neighbours'
// border cells, and dash::apply_stencil computes the inner cells while the halo is updated and
// each border strip the moment the halo it needs has arrived. At the end unit 0 runs the same
// steps alone, written by hand, and checks that every cell agrees bit for bit (a stencil whose
// points share one coefficient c computes c (sum of the values), as the hand-written loop does).

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <dash/algorithms/apply_stencil.hpp>
#include <dash/containers/halo_matrix.hpp>
#include <dash/dash.hpp>

namespace {

double edge(const std::array<std::ptrdiff_t, 2>& global) { return global[0] < 0 ? 1.0 : 0.0; }

// The same steps on one process, written by hand, for the check.
std::vector<double> serial_heat(std::size_t n, int iterations) {
  std::vector<double> u(n * n, 0.0);
  std::vector<double> next(n * n);
  const auto size = static_cast<std::ptrdiff_t>(n);
  const auto at = [&](std::ptrdiff_t i, std::ptrdiff_t j) {
    const bool inside = i >= 0 && i < size && j >= 0 && j < size;
    return inside ? u[static_cast<std::size_t>(i * size + j)] : edge({i, j});
  };
  for (int it = 0; it < iterations; ++it) {
    for (std::ptrdiff_t i = 0; i < size; ++i) {
      for (std::ptrdiff_t j = 0; j < size; ++j) {
        next[static_cast<std::size_t>(i * size + j)] = 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
      }
    }
    u.swap(next);
  }
  return u;
}

}  // namespace

int main(int argc, char** argv) {
  dash::Environment environment(argc, argv);
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 200;
  const int iterations = argc > 2 ? std::stoi(argv[2]) : 100;

  const dash::SizeSpec<2> sizes(n, n);
  const dash::DistributionSpec<2> blocks(dash::BLOCKED, dash::BLOCKED);
  const dash::TeamSpec<2> grid(sizes, blocks, dash::size());  // as square as the unit count allows
  dash::Matrix<double, 2> u(sizes, blocks, dash::Team::All(), grid);
  dash::Matrix<double, 2> next(sizes, blocks, dash::Team::All(), grid);
  dash::fill(u.begin(), u.end(), 0.0);

  const dash::Stencil<2> jacobi({{{-1, 0}, 0.25}, {{1, 0}, 0.25}, {{0, -1}, 0.25}, {{0, 1}, 0.25}});
  dash::HaloMatrix<double, 2> halo_u(u, jacobi, dash::HaloBoundary::fixed, edge);
  dash::HaloMatrix<double, 2> halo_next(next, jacobi, dash::HaloBoundary::fixed, edge);
  for (int it = 0; it < iterations; ++it) {
    if (it % 2 == 0) {
      dash::apply_stencil(halo_u, next);
    } else {
      dash::apply_stencil(halo_next, u);
    }
  }
  auto& result = iterations % 2 == 0 ? u : next;
  result.barrier();

  const double heat = dash::accumulate(result.begin(), result.end(), 0.0);
  std::vector<double> gathered(n * n);
  dash::copy(result.begin(), result.end(), gathered.data());
  int status = 0;
  if (dash::myid() == 0) {
    const bool same = gathered == serial_heat(n, iterations);
    std::printf("%zu x %zu plate on a %zu x %zu grid of units, %d steps: total heat %.6f, u(%zu, %zu) = %.6f; %s\n", n, n,
                grid.extent(0), grid.extent(1), iterations, heat, n / 10, n / 2, gathered[(n / 10) * n + n / 2],
                same ? "equal to the serial computation bit for bit" : "DIFFERS from the serial computation");
    status = same ? 0 : 1;
  }
  result.barrier();
  return status;
}
