#pragma once
// Internal: what the typed collective front ends share: the element-wise combination of a
// reduction operation, argument checks with exact messages, and starting the request.

#include <array>
#include <concepts>
#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <dash/comm/detail/input_copy.hpp>
#include <dash/comm/detail/launch.hpp>
#include <dash/comm/detail/local_failure_report.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/request.hpp>

namespace dash::comm::detail {

// A contiguous range of T (std::span, std::vector, std::array, ...).
template <class R, class T>
concept ContiguousOf = std::ranges::contiguous_range<R> && std::same_as<std::ranges::range_value_t<R>, T>;

template <class R>
using element_of = std::ranges::range_value_t<R>;

template <class T>
std::span<const T> view_of(const auto& range) {
  return std::span<const T>(std::ranges::data(range), std::ranges::size(range));
}

template <class T>
std::span<T> mutable_view_of(auto&& range) {
  return std::span<T>(std::ranges::data(range), std::ranges::size(range));
}

template <class T>
constexpr void require_transferable() {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::comm collectives move elements as bytes, so the element type must be trivially "
                "copyable");
}

template <class T>
T load(const std::byte* from) {
  std::array<std::byte, sizeof(T)> raw;
  std::memcpy(raw.data(), from, sizeof(T));
  return std::bit_cast<T>(raw);
}

template <class T, class Op>
void combine_elements(const void* op, const std::byte* incoming, std::byte* target, std::size_t count,
                      bool incoming_left) {
  const Op& combine = *static_cast<const Op*>(op);
  for (std::size_t i = 0; i < count; ++i) {
    const T in = load<T>(incoming + i * sizeof(T));
    const T mine = load<T>(target + i * sizeof(T));
    const T result = incoming_left ? static_cast<T>(combine(in, mine)) : static_cast<T>(combine(mine, in));
    std::memcpy(target + i * sizeof(T), &result, sizeof(T));
  }
}

template <class T, class Op>
void combine_elements_into(const void* op, const std::byte* left, const std::byte* right, std::byte* target,
                           std::size_t count) {
  const Op& combine = *static_cast<const Op*>(op);
  for (std::size_t i = 0; i < count; ++i) {
    const T result = static_cast<T>(combine(load<T>(left + i * sizeof(T)), load<T>(right + i * sizeof(T))));
    std::memcpy(target + i * sizeof(T), &result, sizeof(T));
  }
}

// Owns what a running collective needs beyond the caller's buffers: the operation object and,
// for overlapping input and output, a copy of the input (in kept storage, input_copy.hpp).
template <class Op>
struct KeepAlive {
  std::optional<Op> op;  // empty for collectives that combine nothing
  InputCopy input_copy;
};

// Stateless operations (dash::plus and friends) need no per-call copy: every instance is alike.
template <class Op>
constexpr bool shares_one_instance = std::is_empty_v<Op> && std::is_default_constructible_v<Op>;

template <class Op>
  requires shares_one_instance<Op>
const Op& shared_instance() {
  static const Op instance{};
  return instance;
}

// The operation of collectives that combine nothing (neighbor_alltoall, ...): unlike dash::plus,
// it asks nothing of the element type, so any trivially copyable struct can travel.
struct NoCombination {};

// Whether the input shares memory with the output (MPI_IN_PLACE-like calls).
template <class T>
bool overlaps(std::span<const T> input, std::span<T> output) noexcept {
  const auto* in_begin = reinterpret_cast<const std::byte*>(input.data());
  const auto* out_begin = reinterpret_cast<const std::byte*>(output.data());
  return !input.empty() && !output.empty() && in_begin < out_begin + output.size_bytes() &&
         out_begin < in_begin + input.size_bytes();
}

// Points `call` at the buffers and at `op` (which must outlive the collective), with the input
// at `input_copy` instead when that holds it.
template <class T, class Op>
void bind_buffers(CollectiveCall& call, std::span<const T> input, std::span<T> output, const Op* op,
                  const InputCopy* input_copy) {
  if constexpr (!std::is_same_v<Op, NoCombination>) {
    if (op != nullptr) {
      call.reduction = Reduction{&combine_elements<T, Op>, op, &combine_elements_into<T, Op>};
    }
  }
  call.input = input_copy != nullptr ? input_copy->data() : reinterpret_cast<const std::byte*>(input.data());
  call.output = reinterpret_cast<std::byte*>(output.data());
  call.element_size = sizeof(T);
}

// Starts `call`; `input` may overlap `output` (it is then copied first, as MPI_IN_PLACE would).
template <class T, class Op>
Request<T> start(CollectiveCall call, std::span<const T> input, std::span<T> output, const Op* op,
                 const Group& group, const Options& options) {
  const bool overlapping = detail::overlaps(input, output);
  std::shared_ptr<KeepAlive<Op>> keep;
  if (overlapping || (op != nullptr && !shares_one_instance<Op>)) {
    keep = std::make_shared<KeepAlive<Op>>();
  }
  const Op* kept = nullptr;
  if constexpr (!std::is_same_v<Op, NoCombination>) {
    if (op != nullptr) {
      if constexpr (shares_one_instance<Op>) {
        kept = &shared_instance<Op>();
      } else {
        kept = &keep->op.emplace(*op);
      }
    }
  }
  if (overlapping) {
    keep->input_copy = InputCopy(std::as_bytes(input));
  }
  detail::bind_buffers(call, input, output, kept, overlapping ? &keep->input_copy : nullptr);
  Launched launched = launch(call, group, options);
  return Request<T>(std::move(launched.execution), launched.layout, launched.map, output.data(), std::move(keep));
}

// Runs `call` to completion, as start() and wait() would: nothing outlives the call, so `op` and
// a copy of an overlapping input stay with the caller.
template <class T, class Op>
void complete(CollectiveCall call, std::span<const T> input, std::span<T> output, const Op* op, const Group& group,
              const Options& options) {
  InputCopy input_copy;
  const bool overlapping = detail::overlaps(input, output);
  if (overlapping) {
    input_copy = InputCopy(std::as_bytes(input));
  }
  detail::bind_buffers(call, input, output, op, overlapping ? &input_copy : nullptr);
  detail::run(call, group, options);
}

// How a front end issues its call: started, returning the request (the i-collectives), or run to
// completion (the blocking ones).
struct Started {};
struct Completed {};

template <class Mode, class T, class Op>
auto issue(const CollectiveCall& call, std::span<const T> input, std::span<T> output, const Op* op, const Group& group,
           const Options& options) {
  if constexpr (std::is_same_v<Mode, Started>) {
    return detail::start<T, Op>(call, input, output, op, group, options);
  } else {
    detail::complete<T, Op>(call, input, output, op, group, options);
  }
}

// Throws dash::InvalidArgument unless `actual` == `expected`.
inline void expect_size(std::string_view function, std::string_view argument, std::size_t actual,
                        std::size_t expected, std::string_view rule) {
  if (actual != expected) {
    throw invalid_argument(function, std::string(argument) + ".size()", actual,
                           std::to_string(expected) + " (" + std::string(rule) + ")");
  }
}

}  // namespace dash::comm::detail
