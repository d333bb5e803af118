#pragma once
// Typed messages between two members of a group, outside the collectives: for services the
// layers above build on a group's tags (the team split's collection and hand-over of rows).
// Ranks are group ranks; messages travel on the base communicator with a tag the group handed
// out (Group::next_tag), so they never match application traffic or another group's. Values are
// trivially copyable and sent as bytes, any count (MessageCount); `function` names the caller in
// errors.

#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include <mpi.h>

#include <dash/comm/group.hpp>
#include <dash/comm/message_count.hpp>

namespace dash::comm {

template <class T>
concept MessageValue = std::is_trivially_copyable_v<T>;

namespace detail {

void send_bytes(const void* data, std::size_t bytes, const Group& group, int peer, int tag, std::string_view function);
void receive_bytes(void* data, std::size_t bytes, const Group& group, int peer, int tag, std::string_view function);
void send_receive_bytes(const void* out, std::size_t out_bytes, void* in, std::size_t in_bytes, const Group& group,
                        int peer, int tag, std::string_view function);

}  // namespace detail

// Blocking: returns once `values` may be reused (send) or hold the message (receive, whose length
// the caller knows).
template <MessageValue T>
void send(std::span<const T> values, const Group& group, int peer, int tag, std::string_view function) {
  detail::send_bytes(values.data(), values.size_bytes(), group, peer, tag, function);
}
template <MessageValue T>
void receive(std::span<T> values, const Group& group, int peer, int tag, std::string_view function) {
  detail::receive_bytes(values.data(), values.size_bytes(), group, peer, tag, function);
}
// Sends `out` to `peer` and receives `in` from it at once (no deadlock when both call it).
template <MessageValue T>
void send_receive(std::span<const T> out, std::span<T> in, const Group& group, int peer, int tag,
                  std::string_view function) {
  detail::send_receive_bytes(out.data(), out.size_bytes(), in.data(), in.size_bytes(), group, peer, tag, function);
}

// Non-blocking sends and receives that complete together (wait). The buffers must stay valid until
// then; a set destroyed with messages in flight waits for them (an MPI error there is dropped).
class PendingMessages {
public:
  PendingMessages() = default;
  PendingMessages(const PendingMessages&) = delete;
  PendingMessages& operator=(const PendingMessages&) = delete;
  ~PendingMessages();

  template <MessageValue T>
  void start_send(std::span<const T> values, const Group& group, int peer, int tag, std::string_view function) {
    start(true, const_cast<T*>(values.data()), values.size_bytes(), group, peer, tag, function);
  }
  template <MessageValue T>
  void start_receive(std::span<T> values, const Group& group, int peer, int tag, std::string_view function) {
    start(false, values.data(), values.size_bytes(), group, peer, tag, function);
  }
  // Blocks until every message started completed.
  void wait();

private:
  void start(bool send, void* data, std::size_t bytes, const Group& group, int peer, int tag,
             std::string_view function);

  std::vector<MPI_Request> requests_;
  std::vector<MessageCount> counts_;  // derived datatypes outlive their requests
  std::string_view function_;
};

}  // namespace dash::comm
