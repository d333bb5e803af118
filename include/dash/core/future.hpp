#pragma once
// dash::Future<T>: the result of an asynchronous global-memory operation (GlobRef::get_async,
// put_async, dash::copy_async), or of a computation on such results (then, dash::when_all in
// when_all.hpp; dash::when_any in when_any.hpp).
//
// test() advances the operation and never blocks; wait() and get() block until it is done and return
// the value (Future<T>) or rethrow its error. Futures are move-only; a future that is destroyed
// unwaited finishes its transfers first, so no transfer outlives the buffers it uses.
//
// Progress is driven by the owning unit only: an operation, and a continuation attached with then(),
// advances inside that unit's calls of test(), wait() or get() on the future (or on a future derived
// from it, or in dash::when_all / dash::when_any holding it), never on its own. A continuation whose
// future is dropped before it ran never runs. Futures are not thread-safe: one thread uses each.
//
// Errors: an exception of a continuation, or a dash exception of a transfer (an MPI failure), is
// stored: test() then returns true (done, with an error) and wait()/get() rethrow it. A continuation
// of a failed future does not run; its future carries the same exception.

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/core/detail/future_state.hpp>
#include <dash/core/detail/transfer_set.hpp>

namespace dash {

template <class T>
class Future;

namespace detail {

template <class T>
struct is_future : std::false_type {};
template <class T>
struct is_future<Future<T>> : std::true_type {};

// G can continue a Future<T>: it takes the value as an rvalue (nothing for void).
template <class G, class T>
concept continuation_of =
    (std::is_void_v<T> && std::is_invocable_v<G&>) || (!std::is_void_v<T> && std::is_invocable_v<G&, T&&>);

// What g returns when then(g) calls it with the value (g() for void), references decayed.
template <class T, class G>
struct continuation_result {
  using type = std::remove_cvref_t<std::invoke_result_t<G&, T&&>>;
};
template <class G>
struct continuation_result<void, G> {
  using type = std::remove_cvref_t<std::invoke_result_t<G&>>;
};

// Throws dash::InvalidState naming `function` unless `valid`; `what` names the future.
inline void require_operation(bool valid, std::string_view function, std::string_view what) {
  if (!valid) [[unlikely]] {
    throw InvalidState(std::string(function) + ": " + std::string(what) +
                       " holds no operation (default-constructed or moved from)");
  }
}

// A future's state, for the functions that combine futures (then, when_all).
struct FutureAccess {
  template <class T>
  static std::unique_ptr<FutureState<T>> release(Future<T>&& future) noexcept {
    return std::move(future.state_);
  }
  template <class T>
  static Future<T> adopt(std::unique_ptr<FutureState<T>> state) noexcept {
    return Future<T>(std::move(state));
  }
};

}  // namespace detail

template <class T = void>
class Future {
public:
  using value_type = T;

  // An invalid future: holds no operation.
  Future() = default;
  // A future that is done already and holds `value`.
  explicit Future(detail::stored_t<T> value)
    requires(!std::is_void_v<T>)
      : state_(std::make_unique<detail::ReadyState<T>>(std::move(value))) {}
  // A future completed by `transfers`, which write into *value.
  Future(std::unique_ptr<detail::stored_t<T>> value, detail::TransferSet transfers)
    requires(!std::is_void_v<T>)
      : state_(std::make_unique<detail::TransferState<T>>(std::move(value), std::move(transfers))) {}
  // A future completed by `transfers` (puts, or gets into the caller's memory).
  explicit Future(detail::TransferSet transfers)
    requires(std::is_void_v<T>)
      : state_(std::make_unique<detail::TransferState<void>>(nullptr, std::move(transfers))) {}
  // A future with nothing left to do.
  static Future ready()
    requires(std::is_void_v<T>)
  {
    return Future(std::make_unique<detail::ReadyState<void>>(std::monostate()));
  }

  Future(Future&&) noexcept = default;
  // Destroys this future's state first, which finishes its transfers before their buffers go.
  Future& operator=(Future&&) noexcept = default;

  bool valid() const noexcept { return state_ != nullptr; }

  // Advances without blocking; true once done, also when done with an error (which wait() and get()
  // then rethrow). May run continuations (see the top of this header).
  bool test() {
    require_valid("dash::Future::test");
    return state_->test();
  }
  // Blocks until done; returns the value or rethrows the error. The future stays valid: wait()
  // again returns the value again.
  T wait() { return wait_for_value("dash::Future::wait"); }
  T get() { return wait_for_value("dash::Future::get"); }

  // A future of g applied to this future's value: g(T), moved in (g() for Future<void>). Consumes
  // this future (call it as std::move(f).then(g)); f is invalid afterwards. The result is Future<R>
  // for R = what g returns, or Future<U> when g returns a Future<U> (done when that future is).
  // g runs on the calling thread, once: inside then() when this future is done already (tested
  // once, without blocking), else inside the first test()/wait()/get() of the returned future (or
  // of a when_all/when_any holding it) that finds this future done. If this future failed, or g
  // throws, the returned future carries that exception and g (or the later links) do not run.
  template <class G>
  auto then(G&& g) && {
    using Function = std::decay_t<G>;
    static_assert(detail::continuation_of<Function, T>,
                  "dash::Future::then: g must be callable with the future's value, g(T) (g() for Future<void>)");
    using Result = typename detail::continuation_result<T, Function>::type;
    require_valid("dash::Future::then");
    if constexpr (detail::is_future<Result>::value) {
      auto step = [function = Function(std::forward<G>(g))](auto&&... value) mutable {
        Result returned = function(std::forward<decltype(value)>(value)...);
        detail::require_operation(returned.valid(), "dash::Future::then", "the future the continuation returned");
        return std::move(returned.state_);
      };
      return continue_with<typename Result::value_type, detail::ContinuationResult::future>(std::move(step));
    } else {
      return continue_with<Result, detail::ContinuationResult::value>(Function(std::forward<G>(g)));
    }
  }

private:
  friend struct detail::FutureAccess;
  template <class U>
  friend class Future;

  explicit Future(std::unique_ptr<detail::FutureState<T>> state) noexcept : state_(std::move(state)) {}

  // Moves this future's state into a continuation of it that applies `function`.
  template <class R, detail::ContinuationResult Delivers, class F>
  Future<R> continue_with(F function) {
    std::unique_ptr<detail::FutureState<R>> state =
        std::make_unique<detail::ContinuationState<T, R, F, Delivers>>(std::move(state_), std::move(function));
    state->test();  // runs the function now if the input is done already
    return Future<R>(std::move(state));
  }

  T wait_for_value(const char* function) {
    require_valid(function);
    state_->wait();
    if constexpr (std::is_void_v<T>) {
      state_->value();  // rethrows the error, if any
    } else {
      return state_->value();
    }
  }

  void require_valid(const char* function) const { detail::require_operation(valid(), function, "the future"); }

  std::unique_ptr<detail::FutureState<T>> state_;
};

}  // namespace dash
