#include "baselines/heat_mpi.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include <dash/comm/config.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::bench::halo {

namespace {

constexpr const char* where = "HeatMpi";

// u' at one cell of a frame-padded block.
inline double jacobi(const double* u, std::size_t at, std::size_t stride) {
  return 0.25 * (u[at - stride] + u[at + stride] + u[at - 1] + u[at + 1]);
}

}  // namespace

HeatMpi::HeatMpi(MPI_Comm comm, std::array<int, 2> grid, std::size_t rows, std::size_t cols,
                 const CellValue& boundary, int threads)
    : comm_(comm), rows_(rows), cols_(cols), stride_(cols + 2) {
  if (threads < 1) {
    throw invalid_argument(where, "threads", threads, "at least 1");
  }
  threads_ = static_cast<int>(std::min(static_cast<std::size_t>(threads), cols));
  if (threads_ > 1) {
    const comm::ThreadLevel provided = comm::provided_thread_level();
    if (provided != comm::ThreadLevel::multiple) {
      throw InvalidState(std::string(where) + ": " + std::to_string(threads_) +
                         " threads per process call MPI at the same time (MPI Multiple), which needs "
                         "MPI_THREAD_MULTIPLE, but MPI provides the level '" + std::string(comm::to_string(provided)) +
                         "'");
    }
  }
  int rank = 0;
  comm::check_mpi(MPI_Comm_rank(comm, &rank), where);
  const int row = rank / grid[1];
  const int col = rank % grid[1];
  first_row_ = static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(rows);
  first_col_ = static_cast<std::ptrdiff_t>(col) * static_cast<std::ptrdiff_t>(cols);
  neighbours_ = {row > 0 ? rank - grid[1] : MPI_PROC_NULL, row + 1 < grid[0] ? rank + grid[1] : MPI_PROC_NULL,
                 col > 0 ? rank - 1 : MPI_PROC_NULL, col + 1 < grid[1] ? rank + 1 : MPI_PROC_NULL};
  comm::check_mpi(MPI_Type_vector(static_cast<int>(rows), 1, static_cast<int>(stride_), MPI_DOUBLE, &column_), where);
  comm::check_mpi(MPI_Type_commit(&column_), where);
  std::vector<double>& frame = buffers_[0];
  frame.assign((rows + 2) * stride_, 0.0);
  // The frame: fixed values where it lies past the domain's edge (the others are ghost cells).
  for (std::size_t i = 0; i < rows + 2; ++i) {
    for (std::size_t j = 0; j < stride_; ++j) {
      const bool in_frame = i == 0 || i == rows + 1 || j == 0 || j == cols + 1;
      const bool past_edge = (i == 0 && neighbours_[north] == MPI_PROC_NULL) ||
                             (i == rows + 1 && neighbours_[south] == MPI_PROC_NULL) ||
                             (j == 0 && neighbours_[west] == MPI_PROC_NULL) ||
                             (j == cols + 1 && neighbours_[east] == MPI_PROC_NULL);
      if (in_frame && past_edge) {
        frame[i * stride_ + j] = boundary(first_row_ + static_cast<std::ptrdiff_t>(i) - 1,
                                          first_col_ + static_cast<std::ptrdiff_t>(j) - 1);
      }
    }
  }
  buffers_[1] = frame;
}

HeatMpi::~HeatMpi() { MPI_Type_free(&column_); }

void HeatMpi::load(const CellValue& initial) {
  double* u = buffers_[current_].data();
  for (std::size_t i = 0; i < rows_; ++i) {
    for (std::size_t j = 0; j < cols_; ++j) {
      u[(i + 1) * stride_ + j + 1] =
          initial(first_row_ + static_cast<std::ptrdiff_t>(i), first_col_ + static_cast<std::ptrdiff_t>(j));
    }
  }
}

void HeatMpi::iterate(int iterations) {
  std::barrier<> step_done(threads_);
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(threads_));
  {
    // Threads start per call (the suite's run of 10 steps) rather than living in a pool: starting one
    // costs about as much as waking a sleeping pool thread, and spinning ones would take the cores
    // of this 2-core machine from the other rank.
    std::vector<std::jthread> helpers;
    for (int thread = 1; thread < threads_; ++thread) {
      std::exception_ptr& failure = failures[static_cast<std::size_t>(thread)];
      try {
        helpers.emplace_back([&, thread] { run_thread(thread, iterations, step_done, failure); });
      } catch (...) {
        failure = std::current_exception();
        step_done.arrive_and_drop();  // a stripe that never starts must not hold up the others
      }
    }
    run_thread(0, iterations, step_done, failures[0]);
  }
  for (const std::exception_ptr& failure : failures) {
    if (failure) {
      std::rethrow_exception(failure);
    }
  }
  current_ = (current_ + static_cast<std::size_t>(iterations)) % 2;
}

HeatMpi::Stripe HeatMpi::stripe(int thread) const {
  const auto t = static_cast<std::size_t>(thread);
  const auto count = static_cast<std::size_t>(threads_);
  return {1 + t * cols_ / count, 1 + (t + 1) * cols_ / count};
}

void HeatMpi::run_thread(int thread, int iterations, std::barrier<>& step_done, std::exception_ptr& failure) noexcept {
  try {
    for (int it = 0; it < iterations; ++it) {
      const std::size_t read = (current_ + static_cast<std::size_t>(it)) % 2;
      step(thread, buffers_[read].data(), buffers_[1 - read].data());
      step_done.arrive_and_wait();
    }
  } catch (...) {
    failure = std::current_exception();
    step_done.arrive_and_drop();  // the other threads finish instead of waiting for this one
  }
}

void HeatMpi::step(int thread, double* u, double* out) const {
  const Stripe columns = stripe(thread);
  const bool first = thread == 0;
  const bool last = thread == threads_ - 1;
  std::array<Face, 4> faces{north, south};
  std::size_t count = 2;
  if (first) {
    faces[count++] = west;
  }
  if (last) {
    faces[count++] = east;
  }
  std::array<MPI_Request, 8> requests{};
  for (std::size_t f = 0; f < count; ++f) {
    post(u, faces[f], columns, thread, true, &requests[f]);
  }
  for (std::size_t f = 0; f < count; ++f) {
    post(u, faces[f], columns, thread, false, &requests[count + f]);
  }
  update(u, out, 2, rows_, std::max<std::size_t>(columns.first, 2), std::min(columns.last, cols_));
  wait(requests.data(), static_cast<int>(2 * count));
  update(u, out, 1, 2, columns.first, columns.last);
  update(u, out, rows_, rows_ + 1, columns.first, columns.last);
  if (first) {
    update(u, out, 2, rows_, 1, 2);
  }
  if (last) {
    update(u, out, 2, rows_, cols_, cols_ + 1);
  }
}

void HeatMpi::wait(MPI_Request* requests, int count) const {
  if (threads_ == 1) {
    comm::check_mpi(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE), where);
    return;
  }
  // Several threads: test and yield in turn. A thread spinning inside MPI_Waitall keeps the
  // threads that share its core (more threads than cores, as on this 2-core machine) from posting
  // the messages that it and its peers wait for, until the scheduler preempts it milliseconds later.
  int done = 0;
  comm::check_mpi(MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE), where);
  while (done == 0) {
    std::this_thread::yield();
    comm::check_mpi(MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE), where);
  }
}

void HeatMpi::post(double* u, Face face, Stripe columns, int thread, bool incoming, MPI_Request* request) const {
  // Ghost cells lie one cell further out than the border cells that the neighbour sends.
  std::size_t at = 0;
  switch (face) {
    case north:
      at = (incoming ? 0 : stride_) + columns.first;
      break;
    case south:
      at = (incoming ? rows_ + 1 : rows_) * stride_ + columns.first;
      break;
    case west:
      at = stride_ + (incoming ? 0 : 1);
      break;
    case east:
      at = stride_ + (incoming ? cols_ + 1 : cols_);
      break;
  }
  const bool row_face = face == north || face == south;
  const int count = row_face ? static_cast<int>(columns.last - columns.first) : 1;
  const MPI_Datatype type = row_face ? MPI_DOUBLE : column_;
  // The tag is the face the message travels towards (the opposite one when it comes in), plus
  // 4 x the stripe for north and south: the segments that the threads of two processes exchange
  // at the same time must not match each other.
  const int towards = incoming ? (face ^ 1) : static_cast<int>(face);
  const int tag = towards + 4 * (row_face ? thread : 0);
  if (incoming) {
    comm::check_mpi(MPI_Irecv(u + at, count, type, neighbours_[face], tag, comm_, request), where);
  } else {
    comm::check_mpi(MPI_Isend(u + at, count, type, neighbours_[face], tag, comm_, request), where);
  }
}

void HeatMpi::update(const double* u, double* out, std::size_t row_begin, std::size_t row_end, std::size_t col_begin,
                     std::size_t col_end) const {
  for (std::size_t i = row_begin; i < row_end; ++i) {
    for (std::size_t j = col_begin; j < col_end; ++j) {
      out[i * stride_ + j] = jacobi(u, i * stride_ + j, stride_);
    }
  }
}

std::vector<double> HeatMpi::block() const {
  const double* u = buffers_[current_].data();
  std::vector<double> cells(rows_ * cols_);
  for (std::size_t i = 0; i < rows_; ++i) {
    for (std::size_t j = 0; j < cols_; ++j) {
      cells[i * cols_ + j] = u[(i + 1) * stride_ + j + 1];
    }
  }
  return cells;
}

}  // namespace dash::bench::halo
