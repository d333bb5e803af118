#include <dash/comm/rma_request.hpp>

#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm {

RmaRequest::RmaRequest(MPI_Win window, int target, std::unique_ptr<MessageCount> count) noexcept
    : window_(window), target_(target), count_(std::move(count)) {}

RmaRequest::RmaRequest(RmaRequest&& other) noexcept
    : request_(std::exchange(other.request_, MPI_REQUEST_NULL)),
      window_(std::exchange(other.window_, MPI_WIN_NULL)),
      target_(std::exchange(other.target_, -1)),
      count_(std::move(other.count_)) {}

RmaRequest& RmaRequest::operator=(RmaRequest&& other) noexcept {
  if (this != &other) {
    release();
    request_ = std::exchange(other.request_, MPI_REQUEST_NULL);
    window_ = std::exchange(other.window_, MPI_WIN_NULL);
    target_ = std::exchange(other.target_, -1);
    count_ = std::move(other.count_);
  }
  return *this;
}

RmaRequest::~RmaRequest() { release(); }

void RmaRequest::release() noexcept {
  try {
    wait();
  } catch (const Exception&) {
    request_ = MPI_REQUEST_NULL;
    target_ = -1;
    count_.reset();
  }
}

bool RmaRequest::test() {
  if (request_ != MPI_REQUEST_NULL) {
    int done = 0;
    check_mpi(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "dash::comm::RmaRequest: MPI_Test");
    if (done == 0) {
      return false;
    }
  }
  finish();
  return true;
}

void RmaRequest::wait() {
  if (request_ != MPI_REQUEST_NULL) {
    check_mpi(MPI_Wait(&request_, MPI_STATUS_IGNORE), "dash::comm::RmaRequest: MPI_Wait");
  }
  finish();
}

void RmaRequest::finish() {
  if (target_ >= 0) {
    const int target = std::exchange(target_, -1);
    count_.reset();
    check_mpi(MPI_Win_flush(target, window_), "dash::comm::RmaRequest: MPI_Win_flush");
  }
}

}  // namespace dash::comm
