#pragma once
// dash::when_all: one future for several.
//
//   when_all(Future<Ts>&&... futures)     -> Future<std::tuple<the non-void Ts, in argument order>>,
//                                            Future<void> when every T is void
//   when_all(std::vector<Future<T>>&&)    -> Future<std::vector<T>>, Future<void> for T = void
//
// The result takes the futures over. It is done once every input is done; test() tests every input
// (running their continuations, see future.hpp), wait() waits for each input in turn. If inputs
// failed, the result carries the first error in argument (or vector) order.

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <dash/core/detail/future_state.hpp>
#include <dash/core/future.hpp>

namespace dash {

namespace detail {

// The part of when_all's tuple a Future<T> contributes: its value, nothing for void.
template <class T>
using value_tuple_t = std::conditional_t<std::is_void_v<T>, std::tuple<>, std::tuple<T>>;

template <class... Ts>
using joined_tuple_t = decltype(std::tuple_cat(std::declval<value_tuple_t<Ts>>()...));

// The value type of when_all(Future<Ts>&&...).
template <class... Ts>
using when_all_result_t =
    std::conditional_t<std::tuple_size_v<joined_tuple_t<Ts...>> == 0, void, joined_tuple_t<Ts...>>;

// The value type of when_all(std::vector<Future<T>>&&).
template <class T>
using when_all_range_result_t = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;

template <class T>
value_tuple_t<T> value_tuple(FutureState<T>& input) {
  if constexpr (std::is_void_v<T>) {
    return {};
  } else {
    return value_tuple_t<T>(std::move(input.value()));
  }
}

// Rethrows the first error of `inputs`, in order.
template <class Inputs>
void rethrow_first_error(const Inputs& inputs) {
  std::apply(
      [](const auto&... input) {
        std::exception_ptr error;
        ((error = error != nullptr ? error : input->error()), ...);
        if (error != nullptr) {
          std::rethrow_exception(error);
        }
      },
      inputs);
}

template <class... Ts>
class WhenAllState final : public FutureState<when_all_result_t<Ts...>> {
public:
  explicit WhenAllState(std::unique_ptr<FutureState<Ts>>... inputs) : inputs_(std::move(inputs)...) {}

private:
  void poll() override {
    bool all_done = true;
    std::apply([&](auto&... input) { ((all_done = input->test() && all_done), ...); }, inputs_);
    if (all_done) {
      complete();
    }
  }
  void block() override {
    std::apply([](auto&... input) { (input->wait(), ...); }, inputs_);
    complete();
  }
  void complete() {
    rethrow_first_error(inputs_);
    if constexpr (std::is_void_v<when_all_result_t<Ts...>>) {
      this->set_value(std::monostate());
    } else {
      this->set_value(std::apply([](auto&... input) { return std::tuple_cat(value_tuple(*input)...); }, inputs_));
    }
  }

  std::tuple<std::unique_ptr<FutureState<Ts>>...> inputs_;
};

template <class T>
class WhenAllRangeState final : public FutureState<when_all_range_result_t<T>> {
public:
  explicit WhenAllRangeState(std::vector<std::unique_ptr<FutureState<T>>> inputs) : inputs_(std::move(inputs)) {}

private:
  void poll() override {
    bool all_done = true;
    for (auto& input : inputs_) {
      all_done = input->test() && all_done;
    }
    if (all_done) {
      complete();
    }
  }
  void block() override {
    for (auto& input : inputs_) {
      input->wait();
    }
    complete();
  }
  void complete() {
    for (const auto& input : inputs_) {
      if (input->error() != nullptr) {
        std::rethrow_exception(input->error());
      }
    }
    if constexpr (std::is_void_v<T>) {
      this->set_value(std::monostate());
    } else {
      std::vector<T> values;
      values.reserve(inputs_.size());
      for (auto& input : inputs_) {
        values.push_back(std::move(input->value()));
      }
      this->set_value(std::move(values));
    }
  }

  std::vector<std::unique_ptr<FutureState<T>>> inputs_;
};

}  // namespace dash::detail

// Throws dash::InvalidState (naming the argument, counted from 1) if a future holds no operation; the futures are
// then left as they were.
template <class... Ts>
Future<detail::when_all_result_t<Ts...>> when_all(Future<Ts>&&... futures) {
  [[maybe_unused]] std::size_t argument = 0;
  (detail::require_operation(futures.valid(), "dash::when_all", "argument " + std::to_string(++argument)), ...);
  using Result = detail::when_all_result_t<Ts...>;
  std::unique_ptr<detail::FutureState<Result>> state =
      std::make_unique<detail::WhenAllState<Ts...>>(detail::FutureAccess::release(std::move(futures))...);
  return detail::FutureAccess::adopt(std::move(state));
}

// Throws dash::InvalidState (naming the element) if a future holds no operation; the futures are
// then left as they were. An empty vector gives a future that is done.
template <class T>
Future<detail::when_all_range_result_t<T>> when_all(std::vector<Future<T>>&& futures) {
  for (std::size_t i = 0; i < futures.size(); ++i) {
    detail::require_operation(futures[i].valid(), "dash::when_all", "futures[" + std::to_string(i) + "]");
  }
  std::vector<std::unique_ptr<detail::FutureState<T>>> inputs;
  inputs.reserve(futures.size());
  for (Future<T>& future : futures) {
    inputs.push_back(detail::FutureAccess::release(std::move(future)));
  }
  futures.clear();
  std::unique_ptr<detail::FutureState<detail::when_all_range_result_t<T>>> state =
      std::make_unique<detail::WhenAllRangeState<T>>(std::move(inputs));
  return detail::FutureAccess::adopt(std::move(state));
}

}  // namespace dash
