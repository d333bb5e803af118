#pragma once
// dash::Future<T>: the result of an asynchronous global-memory operation (GlobRef::get_async,
// put_async, dash::copy_async). wait() blocks until it is done (and returns the value for
// Future<T>); test() polls and never blocks. A future that is destroyed unwaited waits first,
// so no transfer outlives the buffers it uses.

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <dash/comm/exception.hpp>
#include <dash/core/global_segment.hpp>

namespace dash {

namespace detail {

// The transfers of one asynchronous operation, all on one segment.
class TransferSet {
public:
  TransferSet() = default;
  explicit TransferSet(const GlobalSegment& segment) : segment_(&segment) {}
  TransferSet(TransferSet&& other) noexcept
      : segment_(std::exchange(other.segment_, nullptr)),
        pending_(std::move(other.pending_)),
        staging_(std::move(other.staging_)) {}
  TransferSet& operator=(TransferSet&& other) noexcept {
    if (this != &other) {
      finish();
      segment_ = std::exchange(other.segment_, nullptr);
      pending_ = std::move(other.pending_);
      staging_ = std::move(other.staging_);
    }
    return *this;
  }
  ~TransferSet() { finish(); }

  void add(PendingTransfer transfer) { pending_.push_back(std::move(transfer)); }
  // Keeps `staging` (a buffer the transfers read from) alive as long as this set.
  void keep_alive(std::shared_ptr<const void> staging) { staging_.push_back(std::move(staging)); }
  bool test() {
    while (!pending_.empty() && segment_->test(pending_.back())) {
      pending_.pop_back();
    }
    return pending_.empty();
  }
  void wait() {
    for (PendingTransfer& transfer : pending_) {
      segment_->wait_for(transfer);
    }
    pending_.clear();
  }

private:
  // Destructors must not throw: an MPI failure here can only be dropped.
  void finish() noexcept {
    try {
      if (segment_ != nullptr) {
        wait();
      }
    } catch (const Exception&) {
      pending_.clear();
    }
  }

  const GlobalSegment* segment_ = nullptr;
  std::vector<PendingTransfer> pending_;
  std::vector<std::shared_ptr<const void>> staging_;
};

}  // namespace detail

template <class T = void>
class Future {
public:
  Future() = default;
  // A future holding `value` already (the transfer completed immediately).
  explicit Future(T value) : value_(std::make_unique<T>(std::move(value))) {}
  // A future completed by `transfers`, which write into *value.
  Future(std::unique_ptr<T> value, detail::TransferSet transfers)
      : value_(std::move(value)), transfers_(std::move(transfers)) {}
  Future(Future&&) noexcept = default;
  // This future's transfers write into its buffer: they finish before the buffer goes.
  Future& operator=(Future&& other) noexcept {
    if (this != &other) {
      transfers_ = std::move(other.transfers_);  // waits for this future's transfers first
      value_ = std::move(other.value_);
    }
    return *this;
  }

  bool valid() const noexcept { return value_ != nullptr; }
  bool test() {
    require_valid("dash::Future::test");
    return transfers_.test();
  }
  // Blocks until done; returns the value. The future stays valid (wait() again returns it again).
  T wait() {
    require_valid("dash::Future::wait");
    transfers_.wait();
    return *value_;
  }
  T get() { return wait(); }

private:
  void require_valid(const char* function) const {
    if (!valid()) {
      throw InvalidState(std::string(function) + ": the future holds no operation (default-constructed or moved from)");
    }
  }

  std::unique_ptr<T> value_;
  detail::TransferSet transfers_;
};

template <>
class Future<void> {
public:
  Future() = default;
  explicit Future(detail::TransferSet transfers) : valid_(true), transfers_(std::move(transfers)) {}
  Future(Future&& other) noexcept : valid_(std::exchange(other.valid_, false)), transfers_(std::move(other.transfers_)) {}
  Future& operator=(Future&& other) noexcept {
    valid_ = std::exchange(other.valid_, false);
    transfers_ = std::move(other.transfers_);
    return *this;
  }

  // A future with nothing left to do.
  static Future ready() { return Future(detail::TransferSet()); }

  bool valid() const noexcept { return valid_; }
  bool test() {
    require_valid("dash::Future::test");
    return transfers_.test();
  }
  void wait() {
    require_valid("dash::Future::wait");
    transfers_.wait();
  }

private:
  void require_valid(const char* function) const {
    if (!valid_) {
      throw InvalidState(std::string(function) + ": the future holds no operation (default-constructed or moved from)");
    }
  }

  bool valid_ = false;
  detail::TransferSet transfers_;
};

}  // namespace dash
