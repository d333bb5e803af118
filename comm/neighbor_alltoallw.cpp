#include <dash/comm/neighbor_alltoallw.hpp>

#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm {

namespace {

constexpr const char* function = "dash::comm::neighbor_alltoallw";

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

}  // namespace

NeighborRequest::NeighborRequest(NeighborRequest&& other) noexcept
    : requests_(std::move(other.requests_)),
      receives_(std::exchange(other.receives_, 0)),
      pending_(std::exchange(other.pending_, 0)),
      completed_(std::move(other.completed_)),
      arrived_(std::move(other.arrived_)) {}

NeighborRequest& NeighborRequest::operator=(NeighborRequest&& other) noexcept {
  if (this != &other) {
    complete_all();
    requests_ = std::move(other.requests_);
    receives_ = std::exchange(other.receives_, 0);
    pending_ = std::exchange(other.pending_, 0);
    completed_ = std::move(other.completed_);
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
  check_mpi(MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &count, completed_.data(),
                         MPI_STATUSES_IGNORE),
            std::string(function) + ": MPI_Testsome");
  if (count == MPI_UNDEFINED) {
    count = 0;
  }
  for (int i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(completed_[static_cast<std::size_t>(i)]);
    if (index < receives_) {
      arrived_.push_back(index);
    }
  }
  pending_ -= static_cast<std::size_t>(count);
  return pending_ == 0;
}

void NeighborRequest::wait() {
  while (!test()) {
  }
}

NeighborRequest ineighbor_alltoallw(std::span<const SendChannel> sends, std::span<const ReceiveChannel> receives,
                                    const Group& group) {
  for (std::size_t i = 0; i < sends.size(); ++i) {
    check_channel(sends[i].peer, sends[i].base, sends[i].layout, group, "sends", i);
  }
  for (std::size_t i = 0; i < receives.size(); ++i) {
    check_channel(receives[i].peer, receives[i].base, receives[i].layout, group, "receives", i);
  }
  const int tag = group.next_tag();
  const MPI_Comm comm = group.comm();
  NeighborRequest request;
  request.requests_.resize(receives.size() + sends.size(), MPI_REQUEST_NULL);
  request.receives_ = receives.size();
  // Receives go first so that no send of a neighbour arrives unexpected if avoidable.
  for (std::size_t i = 0; i < receives.size(); ++i) {
    const ReceiveChannel& channel = receives[i];
    check_mpi(MPI_Irecv(channel.base, channel.layout.count(), channel.layout.datatype(), group.base_rank(channel.peer), tag, comm,
                        &request.requests_[i]),
              std::string(function) + ": MPI_Irecv");
    ++request.pending_;
  }
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const SendChannel& channel = sends[i];
    check_mpi(MPI_Isend(channel.base, channel.layout.count(), channel.layout.datatype(), group.base_rank(channel.peer), tag, comm,
                        &request.requests_[receives.size() + i]),
              std::string(function) + ": MPI_Isend");
    ++request.pending_;
  }
  return request;
}

}  // namespace dash::comm
