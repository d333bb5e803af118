#pragma once
// The `halo` suite's baseline: the 2-D Jacobi heat equation (seed 004 §7.5, Eq. 7.3) written in
// plain MPI the way it is written by hand, single-sender ("MPI Funnel", variant 1a of Tbl. 7.4).
//
// Each process holds a rows x cols block of a (q0 rows) x (q1 cols) domain on a q0 x q1 process
// grid (ranks row-major, as MPI_Cart_create with reorder = 0 numbers them), inside a frame of
// ghost cells one cell wide. Per iteration: MPI_Irecv of the four ghost faces, MPI_Isend of the
// four border faces (rows contiguous, columns as an MPI_Type_vector), the inner cells computed
// while the messages travel, MPI_Waitall, then the border cells. Ghost cells past the domain's
// edge hold fixed values (Dirichlet) set once. u' = 0.25 (north + south + west + east).

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include <mpi.h>

namespace dash::bench::halo {

class HeatMpi {
public:
  // A value for a cell from its global coordinates (which may lie just outside the domain).
  using CellValue = std::function<double(std::ptrdiff_t, std::ptrdiff_t)>;

  // Collective over `comm`, whose size must be q0 * q1.
  HeatMpi(MPI_Comm comm, std::array<int, 2> grid, std::size_t rows, std::size_t cols, const CellValue& boundary);
  HeatMpi(const HeatMpi&) = delete;
  HeatMpi& operator=(const HeatMpi&) = delete;
  ~HeatMpi();

  // Sets the process's block from `initial`.
  void load(const CellValue& initial);
  // Runs `iterations` Jacobi steps. Collective.
  void iterate(int iterations);
  // The process's block, row-major rows x cols.
  std::vector<double> block() const;

private:
  void exchange_and_compute();

  MPI_Comm comm_;
  std::size_t rows_;
  std::size_t cols_;
  std::size_t stride_;  // cols + 2
  std::ptrdiff_t first_row_;
  std::ptrdiff_t first_col_;
  std::array<int, 4> neighbours_{};  // north, south, west, east; MPI_PROC_NULL at the domain's edge
  MPI_Datatype column_ = MPI_DATATYPE_NULL;
  std::vector<double> current_;
  std::vector<double> next_;
};

}  // namespace dash::bench::halo
