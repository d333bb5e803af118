#pragma once
// A one-sided transfer in flight (NodeWindow::start_get / start_put): complete once MPI completed
// its request and the target holds the data. A completed MPI_Rput request only frees the origin
// buffer, so completion also flushes the target.

#include <memory>

#include <mpi.h>

#include <dash/comm/message_count.hpp>

namespace dash::comm {

class RmaRequest {
public:
  RmaRequest() noexcept = default;  // nothing in flight
  RmaRequest(RmaRequest&& other) noexcept;
  RmaRequest& operator=(RmaRequest&& other) noexcept;
  RmaRequest(const RmaRequest&) = delete;
  RmaRequest& operator=(const RmaRequest&) = delete;
  // Completes a transfer its owner did not wait for, so that its buffers may go; an MPI error
  // here can only be dropped (a destructor must not throw).
  ~RmaRequest();

  // Never blocks; true once the transfer completed (then the request holds nothing).
  bool test();
  // Blocks until the transfer completed.
  void wait();

private:
  friend class NodeWindow;
  RmaRequest(MPI_Win window, int target, std::unique_ptr<MessageCount> count) noexcept;
  void finish();
  void release() noexcept;

  MPI_Request request_ = MPI_REQUEST_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  int target_ = -1;                      // flushed on completion; -1 once complete
  std::unique_ptr<MessageCount> count_;  // a derived datatype must outlive the request
};

}  // namespace dash::comm
