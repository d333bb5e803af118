#include <memory>
#include <string>

#include <mpi.h>

#include <dash/comm/table_window.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/runtime.hpp>

#include "runtime/collective_outcome.hpp"

namespace dash::comm {

struct TableWindow::State {
  MPI_Win window = MPI_WIN_NULL;
  std::byte* base = nullptr;
  std::size_t bytes = 0;
};

namespace {

std::unique_ptr<TableWindow::State>& state() {
  static std::unique_ptr<TableWindow::State> current;
  return current;
}

}  // namespace

TableWindow TableWindow::current() {
  if (!state()) {
    throw InvalidState("dash: the table window exists only between dash::init and dash::finalize");
  }
  return TableWindow(state().get());
}

std::span<std::byte> TableWindow::local() const noexcept { return {state_->base, state_->bytes}; }

void TableWindow::publish() const {
  check_mpi(MPI_Win_sync(state_->window), "dash table window: MPI_Win_sync");
}

void TableWindow::read(int owner, std::size_t offset, void* out, std::size_t bytes) const {
  check_mpi(MPI_Get(out, static_cast<int>(bytes), MPI_BYTE, owner, static_cast<MPI_Aint>(offset),
                    static_cast<int>(bytes), MPI_BYTE, state_->window),
            "dash table window: MPI_Get");
  check_mpi(MPI_Win_flush_local(owner, state_->window), "dash table window: MPI_Win_flush_local");
}

void open_table_window(std::size_t bytes_per_process) {
  auto opened = std::make_unique<TableWindow::State>();
  MPI_Info info = MPI_INFO_NULL;
  check_mpi(MPI_Info_create(&info), "dash::init: MPI_Info_create");
  // Tables are read, never accumulated to: no ordering of accumulates is needed.
  check_mpi(MPI_Info_set(info, "accumulate_ordering", "none"), "dash::init: MPI_Info_set");
  const int status = MPI_Win_allocate(static_cast<MPI_Aint>(bytes_per_process), 1, info, base_comm(),
                                      &opened->base, &opened->window);
  MPI_Info_free(&info);
  // A member without the window cannot join its collective free: on a failure anywhere, the
  // members that hold one abandon it, and all unwind dash::init together.
  if (!detail::succeeded_on_every_member(status, base_comm())) {
    detail::throw_failed_on_some_member(
        status, "dash::init: MPI_Win_allocate (table window, DASH_TABLE_WINDOW_BYTES = " +
                    std::to_string(bytes_per_process) + ")");
  }
  check_mpi(MPI_Win_set_errhandler(opened->window, MPI_ERRORS_RETURN), "dash::init: MPI_Win_set_errhandler");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, opened->window), "dash::init: MPI_Win_lock_all");
  opened->bytes = bytes_per_process;
  state() = std::move(opened);
}

void close_table_window() {
  if (!state()) {
    return;
  }
  std::unique_ptr<TableWindow::State> closing = std::move(state());
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized != 0) {
    return;  // MPI took the window with it (dash::finalize reports that misuse)
  }
  check_mpi(MPI_Win_unlock_all(closing->window), "dash::finalize: MPI_Win_unlock_all");
  check_mpi(MPI_Win_free(&closing->window), "dash::finalize: MPI_Win_free");
}

}  // namespace dash::comm
