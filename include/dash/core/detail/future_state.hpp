#pragma once
// Internal: what a dash::Future owns, behind one interface whatever produces the value.
//
// A FutureState<T> is finished once it holds a value or an error. test() advances it without
// blocking and wait() blocks until it is finished; neither throws: what went wrong (a failed
// transfer, an exception of a continuation) is stored and rethrown by value(). The kinds of state:
//   ReadyState         finished from the start (a value known at once)
//   TransferState      a buffer that pending transfers write into
//   ContinuationState  a function applied to the value of another state (Future::then)
// when_all.hpp adds the states that combine several futures. Progress is driven only by the
// owning unit's calls: no state advances on its own.

#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include <dash/core/detail/transfer_set.hpp>

namespace dash::detail {

// A future's value as it is stored: std::monostate stands in for void.
template <class T>
using stored_t = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

template <class T>
class FutureState {
public:
  FutureState() = default;
  FutureState(const FutureState&) = delete;
  FutureState& operator=(const FutureState&) = delete;
  virtual ~FutureState() = default;

  bool finished() const noexcept { return value_.has_value() || error_ != nullptr; }

  // Advances without blocking; true once finished (with a value or with an error).
  bool test() noexcept {
    if (!finished()) {
      try {
        poll();
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    return finished();
  }
  // Blocks until finished.
  void wait() noexcept {
    if (!finished()) {
      try {
        block();
      } catch (...) {
        error_ = std::current_exception();
      }
    }
  }

  // Once finished: the value, or rethrows the stored error.
  stored_t<T>& value() {
    if (error_ != nullptr) {
      std::rethrow_exception(error_);
    }
    return *value_;
  }
  std::exception_ptr error() const noexcept { return error_; }

protected:
  void set_value(stored_t<T> value) { value_.emplace(std::move(value)); }

private:
  // Advance without blocking; set_value once complete, or throw.
  virtual void poll() = 0;
  // Block until complete, then set_value, or throw.
  virtual void block() = 0;

  std::optional<stored_t<T>> value_;
  std::exception_ptr error_;
};

template <class T>
class ReadyState final : public FutureState<T> {
public:
  explicit ReadyState(stored_t<T> value) { this->set_value(std::move(value)); }

private:
  // Finished from the start: test() and wait() never call these.
  void poll() override {}
  void block() override {}
};

// Transfers that write into `buffer` (for T = void: transfers with no result, e.g. puts, and no buffer).
template <class T>
class TransferState final : public FutureState<T> {
public:
  TransferState(std::unique_ptr<stored_t<T>> buffer, TransferSet transfers)
      : buffer_(std::move(buffer)), transfers_(std::move(transfers)) {}

private:
  void poll() override {
    if (transfers_.test()) {
      complete();
    }
  }
  void block() override {
    transfers_.wait();
    complete();
  }
  void complete() {
    if constexpr (std::is_void_v<T>) {
      this->set_value(std::monostate());
    } else {
      this->set_value(std::move(*buffer_));
    }
  }

  // Declared first, destroyed last: the transfers finish before their buffer goes. Null for void.
  std::unique_ptr<stored_t<T>> buffer_;
  TransferSet transfers_;
};

// How a continuation's function delivers its result: as the value itself, or as the state of a
// future that completes later (a function that returns a Future: the result is flattened).
enum class ContinuationResult { value, future };

// Applies `function` to the input's value once the input is finished (for T = void: calls it with
// no argument); the input's error, if any, becomes this state's and the function does not run.
template <class T, class R, class F, ContinuationResult Delivers>
class ContinuationState final : public FutureState<R> {
public:
  ContinuationState(std::unique_ptr<FutureState<T>> input, F function)
      : input_(std::move(input)), function_(std::move(function)) {}

private:
  void poll() override {
    if (input_ != nullptr) {
      if (!input_->test()) {
        return;
      }
      run();
    }
    if constexpr (Delivers == ContinuationResult::future) {
      if (inner_->test()) {
        this->set_value(std::move(inner_->value()));
      }
    }
  }
  void block() override {
    if (input_ != nullptr) {
      input_->wait();
      run();
    }
    if constexpr (Delivers == ContinuationResult::future) {
      inner_->wait();
      this->set_value(std::move(inner_->value()));
    }
  }

  // Runs the function once; the input is released after it.
  void run() {
    stored_t<T>& input = input_->value();  // rethrows the input's error: the function does not run
    if constexpr (Delivers == ContinuationResult::future) {
      inner_ = apply(input);
    } else if constexpr (std::is_void_v<R>) {
      apply(input);
      this->set_value(std::monostate());
    } else {
      this->set_value(apply(input));
    }
    input_.reset();
  }
  decltype(auto) apply(stored_t<T>& input) {
    if constexpr (std::is_void_v<T>) {
      return function_();
    } else {
      return function_(std::move(input));
    }
  }

  std::unique_ptr<FutureState<T>> input_;  // null once the function ran
  F function_;
  std::unique_ptr<FutureState<R>> inner_;  // the returned future's state (ContinuationResult::future)
};

}  // namespace dash::detail
