#pragma once
// The `halo` suite's baselines: the 2-D Jacobi heat equation (Kowalewski 2021 §7.5, Eq. 7.3) written in
// plain MPI the way it is written by hand, in the two MPI variants of Tbl. 7.4.
//
// Each process holds a rows x cols block of a (q0 rows) x (q1 cols) domain on a q0 x q1 process
// grid (ranks row-major, as MPI_Cart_create with reorder = 0 numbers them), inside a frame of
// ghost cells one cell wide. Ghost cells past the domain's edge hold fixed values (Dirichlet) set
// once. u' = 0.25 (north + south + west + east).
//
// The block is cut into T column stripes, one per thread (Kowalewski 2021 Fig. 7.8). Per step each thread
// posts MPI_Irecv/MPI_Isend of its own share of the faces: its segment of the north and south
// faces, and the whole west (east) face if it holds the first (last) stripe, columns as an
// MPI_Type_vector. It computes its inner cells while the messages travel, waits for its own
// requests only (MPI_Waitall alone, MPI_Testall and a yield among several threads), computes its
// border cells, and meets the other threads once per step (the next step reads the cells beside
// its stripe).
//   T = 1: single sender, Kowalewski 2021's "MPI Funnel" (1a), 4 messages per step.
//   T > 1: many senders, "MPI Multiple" (1b), 2T + 2 messages per step, several threads inside
//          MPI at once, so MPI must provide MPI_THREAD_MULTIPLE.
// Every T computes every cell with the same expression, so all give the same result bit for bit.

#include <array>
#include <barrier>
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

#include <mpi.h>

namespace dash::bench::halo {

class HeatMpi {
public:
  // A value for a cell from its global coordinates (which may lie just outside the domain).
  using CellValue = std::function<double(std::ptrdiff_t, std::ptrdiff_t)>;

  // Collective over `comm`, whose size must be q0 * q1. `threads` >= 1 is capped at cols, so that
  // every stripe has a column. Throws dash::InvalidState if more than one thread remains and MPI
  // does not provide MPI_THREAD_MULTIPLE.
  HeatMpi(MPI_Comm comm, std::array<int, 2> grid, std::size_t rows, std::size_t cols, const CellValue& boundary,
          int threads = 1);
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
  // Indices into neighbours_; a message's tag is the face it travels towards.
  enum Face { north, south, west, east };
  // Columns [first, last) of the framed block.
  struct Stripe {
    std::size_t first;
    std::size_t last;
  };

  Stripe stripe(int thread) const;
  void run_thread(int thread, int iterations, std::barrier<>& step_done, std::exception_ptr& failure) noexcept;
  void step(int thread, double* u, double* out) const;
  void wait(MPI_Request* requests, int count) const;
  void post(double* u, Face face, Stripe columns, int thread, bool incoming, MPI_Request* request) const;
  // out = u' on rows [row_begin, row_end) x columns [col_begin, col_end) of the framed block.
  void update(const double* u, double* out, std::size_t row_begin, std::size_t row_end, std::size_t col_begin,
              std::size_t col_end) const;

  MPI_Comm comm_;
  std::size_t rows_;
  std::size_t cols_;
  std::size_t stride_;  // cols + 2
  int threads_;
  std::ptrdiff_t first_row_;
  std::ptrdiff_t first_col_;
  std::array<int, 4> neighbours_{};  // by Face; MPI_PROC_NULL at the domain's edge
  MPI_Datatype column_ = MPI_DATATYPE_NULL;
  std::array<std::vector<double>, 2> buffers_;  // framed blocks; a step reads one and writes the other
  std::size_t current_ = 0;                     // the buffer holding the block
};

}  // namespace dash::bench::halo
