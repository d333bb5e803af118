#pragma once
// Internal: the transfers of one asynchronous global-memory operation. A set that is destroyed or
// assigned over while transfers are pending waits for them first, so no transfer outlives the
// buffers it uses.

#include <memory>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/comm/rma_request.hpp>

namespace dash::detail {

class TransferSet {
public:
  TransferSet() = default;
  // A moved-from vector is empty: the source has nothing left to wait for.
  TransferSet(TransferSet&& other) noexcept = default;
  TransferSet& operator=(TransferSet&& other) noexcept {
    if (this != &other) {
      finish();
      pending_ = std::exchange(other.pending_, {});
      staging_ = std::exchange(other.staging_, {});
    }
    return *this;
  }
  ~TransferSet() { finish(); }

  void add(comm::RmaRequest transfer) { pending_.push_back(std::move(transfer)); }
  // Keeps `staging` (a buffer the transfers read from) alive as long as this set.
  void keep_alive(std::shared_ptr<const void> staging) { staging_.push_back(std::move(staging)); }
  // Never blocks; true once every transfer has completed.
  bool test() {
    while (!pending_.empty() && pending_.back().test()) {
      pending_.pop_back();
    }
    return pending_.empty();
  }
  // Blocks in MPI until every transfer has completed.
  void wait() {
    for (comm::RmaRequest& transfer : pending_) {
      transfer.wait();
    }
    pending_.clear();
  }

private:
  // Destructors must not throw: an MPI failure here can only be dropped.
  void finish() noexcept {
    try {
      wait();
    } catch (const Exception&) {
      pending_.clear();
    }
  }

  std::vector<comm::RmaRequest> pending_;
  std::vector<std::shared_ptr<const void>> staging_;
};

}  // namespace dash::detail
