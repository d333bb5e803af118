#include <dash/comm/point_to_point.hpp>

#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm {

namespace detail {

void send_bytes(const void* data, std::size_t bytes, const Group& group, int peer, int tag, std::string_view function) {
  const MessageCount count(bytes, MPI_BYTE, function);
  check_mpi(MPI_Send(data, count.count(), count.type(), group.base_rank(peer), tag, group.comm()),
            function, "MPI_Send");
}

void receive_bytes(void* data, std::size_t bytes, const Group& group, int peer, int tag, std::string_view function) {
  const MessageCount count(bytes, MPI_BYTE, function);
  check_mpi(MPI_Recv(data, count.count(), count.type(), group.base_rank(peer), tag, group.comm(), MPI_STATUS_IGNORE),
            function, "MPI_Recv");
}

void send_receive_bytes(const void* out, std::size_t out_bytes, void* in, std::size_t in_bytes, const Group& group,
                        int peer, int tag, std::string_view function) {
  const MessageCount out_count(out_bytes, MPI_BYTE, function);
  const MessageCount in_count(in_bytes, MPI_BYTE, function);
  const int base_peer = group.base_rank(peer);
  check_mpi(MPI_Sendrecv(out, out_count.count(), out_count.type(), base_peer, tag, in, in_count.count(),
                         in_count.type(), base_peer, tag, group.comm(), MPI_STATUS_IGNORE), function, "MPI_Sendrecv");
}

}  // namespace detail

PendingMessages::~PendingMessages() {
  try {
    wait();
  } catch (const Exception&) {
    requests_.clear();
  }
}

void PendingMessages::start(bool send, void* data, std::size_t bytes, const Group& group, int peer, int tag,
                            std::string_view function) {
  function_ = function;
  const MessageCount& count = counts_.emplace_back(bytes, MPI_BYTE, function);
  MPI_Request& request = requests_.emplace_back(MPI_REQUEST_NULL);
  const int base_peer = group.base_rank(peer);
  if (send) {
    check_mpi(MPI_Isend(data, count.count(), count.type(), base_peer, tag, group.comm(), &request),
              function, "MPI_Isend");
  } else {
    check_mpi(MPI_Irecv(data, count.count(), count.type(), base_peer, tag, group.comm(), &request),
              function, "MPI_Irecv");
  }
}

void PendingMessages::wait() {
  if (requests_.empty()) {
    return;
  }
  check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
            function_, "MPI_Waitall");
  requests_.clear();
  counts_.clear();
}

}  // namespace dash::comm
