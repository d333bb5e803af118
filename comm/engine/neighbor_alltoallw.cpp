#include <dash/comm/neighbor_alltoallw.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "engine/received_bytes.hpp"

namespace dash::comm {

namespace {

constexpr const char* function = "dash::comm::neighbor_alltoallw";
// The calls' names for check_mpi, whole: a std::string built per call would allocate.
constexpr const char* irecv_call = "dash::comm::neighbor_alltoallw: MPI_Irecv";
constexpr const char* isend_call = "dash::comm::neighbor_alltoallw: MPI_Isend";
constexpr const char* testsome_call = "dash::comm::neighbor_alltoallw: MPI_Testsome";

void check_channel(int peer, const void* base, const Layout& layout, const Group& group, const char* list,
                   std::size_t index) {
  if (peer < 0 || peer >= group.size()) {
    throw invalid_argument(function, std::string(list) + "[" + std::to_string(index) + "].peer", peer,
                           "a group rank in [0, " + std::to_string(group.size()) + ")");
  }
  if (base == nullptr && layout.bytes() != 0) {
    throw invalid_argument(function, std::string(list) + "[" + std::to_string(index) + "].base", "null",
                           "an address (the layout holds " + std::to_string(layout.bytes()) + " bytes)");
  }
}

bool valid_peer(int peer, const Group& group) noexcept { return peer >= 0 && peer < group.size(); }

// Channels of a member with itself pair up by order like any others; they are checked here, since
// Open MPI 4.1 cuts a self-message down to its receive without reporting the truncation, and a
// receive without a send would wait forever.
void check_self_channels(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                         const Group& group) {
  const int self = group.rank();
  boost::container::small_vector<std::size_t, 26> self_sends;  // in place for a 3-D halo's channels
  for (std::size_t i = 0; i < sends.size(); ++i) {
    if (sends[i].peer == self) {
      self_sends.push_back(i);
    }
  }
  std::size_t matched = 0;
  for (std::size_t i = 0; i < receives.size(); ++i) {
    if (receives[i].peer != self) {
      continue;
    }
    if (matched == self_sends.size()) {
      throw invalid_argument(function, "receives[" + std::to_string(i) + "].peer", self,
                             "a peer other than this member, which lists only " + std::to_string(self_sends.size()) +
                                 " send(s) to itself for its receives from itself");
    }
    const std::size_t send = self_sends[matched++];
    if (receives[i].layout.bytes() != sends[send].layout.bytes()) {
      throw invalid_argument(function, "receives[" + std::to_string(i) + "].layout.bytes()", receives[i].layout.bytes(),
                             std::to_string(sends[send].layout.bytes()) + ", the bytes of sends[" +
                                 std::to_string(send) + "], its match among this member's channels to itself");
    }
  }
  if (matched != self_sends.size()) {
    throw invalid_argument(function, "sends[" + std::to_string(self_sends[matched]) + "].peer", self,
                           "a peer other than this member, which lists only " + std::to_string(matched) +
                               " receive(s) from itself for its sends to itself");
  }
}

// The part of a member whose channels failed the checks: it takes the call's tag, sends an empty
// message on every channel to a valid peer other than itself and receives (and drops) what those
// peers send, so that no peer waits for it and no send of theirs stays unmatched. Never throws:
// the member's own error is on its way.
void exchange_nothing(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                      const Group& group) noexcept {
  try {
    const int tag = group.next_tag();
    const MPI_Comm comm = group.comm();
    std::vector<std::vector<std::byte>> dropped;
    dropped.reserve(receives.size());
    std::vector<MPI_Request> requests;
    for (const ReceiveChannel& channel : receives) {
      if (valid_peer(channel.peer, group) && channel.peer != group.rank() &&
          channel.layout.bytes() <= std::numeric_limits<int>::max()) {
        dropped.emplace_back(channel.layout.bytes());
        requests.push_back(MPI_REQUEST_NULL);
        MPI_Irecv(dropped.back().data(), static_cast<int>(channel.layout.bytes()), MPI_BYTE,
                  group.base_rank(channel.peer), tag, comm, &requests.back());
      }
    }
    for (const SendChannel& channel : sends) {
      if (valid_peer(channel.peer, group) && channel.peer != group.rank()) {
        requests.push_back(MPI_REQUEST_NULL);
        MPI_Isend(nullptr, 0, MPI_BYTE, group.base_rank(channel.peer), tag, comm, &requests.back());
      }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  } catch (...) {  // out of memory: the peers wait, as they would without this
  }
}

// Why receive `index` is not what its layout expects, or "" when it is.
std::string receive_mismatch(std::size_t index, int peer, std::size_t expected, const MPI_Status& status,
                             bool truncated) {
  const std::string received = detail::unexpected_received_bytes(status, truncated, expected);
  if (received.empty()) {
    return {};
  }
  return invalid_argument(function, "receives[" + std::to_string(index) + "].layout.bytes()", expected,
                          "the bytes of group rank " + std::to_string(peer) + "'s matching send, which delivered " +
                              received + " (a member whose own call failed sends 0)")
      .what();
}

}  // namespace

NeighborRequest::NeighborRequest(NeighborRequest&& other) noexcept
    : requests_(std::move(other.requests_)),
      receives_(std::exchange(other.receives_, 0)),
      pending_(std::exchange(other.pending_, 0)),
      expected_(std::move(other.expected_)),
      completed_(std::move(other.completed_)),
      statuses_(std::move(other.statuses_)),
      arrived_(std::move(other.arrived_)) {}

NeighborRequest& NeighborRequest::operator=(NeighborRequest&& other) noexcept {
  if (this != &other) {
    complete_all();
    requests_ = std::move(other.requests_);
    receives_ = std::exchange(other.receives_, 0);
    pending_ = std::exchange(other.pending_, 0);
    expected_ = std::move(other.expected_);
    completed_ = std::move(other.completed_);
    statuses_ = std::move(other.statuses_);
    arrived_ = std::move(other.arrived_);
  }
  return *this;
}

NeighborRequest::~NeighborRequest() { complete_all(); }

void NeighborRequest::complete_all() noexcept {
  if (pending_ != 0) {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    pending_ = 0;
  }
}

bool NeighborRequest::test() {
  if (pending_ == 0) {
    return true;
  }
  int count = 0;
  completed_.resize(requests_.size());
  statuses_.resize(requests_.size());
  const int code =
      MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &count, completed_.data(), statuses_.data());
  if (code != MPI_ERR_IN_STATUS) {
    check_mpi(code, testsome_call);
  }
  if (count == MPI_UNDEFINED) {
    count = 0;
  }
  // Every completed request is accounted for before anything throws, so the exchange can go on.
  std::string mismatch;
  int failed = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(completed_[static_cast<std::size_t>(i)]);
    const MPI_Status& status = statuses_[static_cast<std::size_t>(i)];
    const int error = code == MPI_ERR_IN_STATUS ? status.MPI_ERROR : MPI_SUCCESS;
    if (index >= receives_) {
      failed = failed == MPI_SUCCESS ? error : failed;
      continue;
    }
    int error_class = MPI_SUCCESS;
    if (error != MPI_SUCCESS) {
      MPI_Error_class(error, &error_class);
      if (error_class != MPI_ERR_TRUNCATE) {
        failed = failed == MPI_SUCCESS ? error : failed;
        continue;
      }
    }
    const Expected& expected = expected_[index];
    std::string why = receive_mismatch(index, expected.peer, expected.bytes, status, error_class == MPI_ERR_TRUNCATE);
    if (why.empty()) {
      arrived_.push_back(index);
    } else if (mismatch.empty()) {
      mismatch = std::move(why);
    }
  }
  pending_ -= static_cast<std::size_t>(count);
  if (!mismatch.empty()) {
    throw InvalidArgument(mismatch);
  }
  check_mpi(failed, testsome_call);
  return pending_ == 0;
}

void NeighborRequest::wait() {
  while (!test()) {
  }
}

NeighborRequest ineighbor_alltoallw(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                                    const Group& group) {
  try {
    for (std::size_t i = 0; i < sends.size(); ++i) {
      check_channel(sends[i].peer, sends[i].base, sends[i].layout, group, "sends", i);
    }
    for (std::size_t i = 0; i < receives.size(); ++i) {
      check_channel(receives[i].peer, receives[i].base, receives[i].layout, group, "receives", i);
    }
    check_self_channels(sends, receives, group);
  } catch (...) {
    exchange_nothing(sends, receives, group);
    throw;
  }
  const int tag = group.next_tag();
  const MPI_Comm comm = group.comm();
  NeighborRequest request;
  request.requests_.resize(receives.size() + sends.size(), MPI_REQUEST_NULL);
  request.receives_ = receives.size();
  request.expected_.reserve(receives.size());
  for (const ReceiveChannel& channel : receives) {
    request.expected_.push_back({channel.peer, channel.layout.bytes()});
  }
  // Receives go first so that no send of a neighbour arrives unexpected if avoidable.
  for (std::size_t i = 0; i < receives.size(); ++i) {
    const ReceiveChannel& channel = receives[i];
    check_mpi(MPI_Irecv(channel.base, channel.layout.count(), channel.layout.datatype(), group.base_rank(channel.peer), tag, comm,
                        &request.requests_[i]),
              irecv_call);
    ++request.pending_;
  }
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const SendChannel& channel = sends[i];
    check_mpi(MPI_Isend(channel.base, channel.layout.count(), channel.layout.datatype(), group.base_rank(channel.peer), tag, comm,
                        &request.requests_[receives.size() + i]),
              isend_call);
    ++request.pending_;
  }
  return request;
}

}  // namespace dash::comm
