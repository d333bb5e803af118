// NodeWindow's one-sided operations (node_window.hpp): transfers with a request each, scattered
// transfers as one indexed datatype per side, and the atomics.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <dash/comm/int_count.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/node_window.hpp>

namespace dash::comm {

namespace {

MPI_Aint displacement(std::size_t offset) { return static_cast<MPI_Aint>(offset); }

// A committed datatype, freed at scope exit (MPI lets a pending transfer finish with a freed type).
class CommittedType {
public:
  CommittedType(const std::vector<int>& lengths, const std::vector<MPI_Aint>& displacements,
                std::string_view function) {
    check_mpi(MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(), MPI_BYTE,
                                       &type_), function, "MPI_Type_create_hindexed");
    check_mpi(MPI_Type_commit(&type_), function, "MPI_Type_commit");
  }
  ~CommittedType() { MPI_Type_free(&type_); }
  CommittedType(const CommittedType&) = delete;
  CommittedType& operator=(const CommittedType&) = delete;
  MPI_Datatype get() const noexcept { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// The indexed types of `pieces`: origin pieces by absolute address (MPI_BOTTOM), target pieces
// relative to the smallest offset, `base`.
struct IndexedPieces {
  std::size_t base = 0;
  std::unique_ptr<CommittedType> origin;
  std::unique_ptr<CommittedType> target;
};

IndexedPieces indexed(std::span<const RmaPiece> pieces, std::string_view function) {
  to_int_count(pieces.size(), function, "pieces");
  IndexedPieces result;
  result.base = pieces.front().offset;
  for (const RmaPiece& piece : pieces) {
    result.base = std::min(result.base, piece.offset);
  }
  std::vector<int> lengths;
  std::vector<MPI_Aint> origin;
  std::vector<MPI_Aint> target;
  lengths.reserve(pieces.size());
  origin.reserve(pieces.size());
  target.reserve(pieces.size());
  for (const RmaPiece& piece : pieces) {
    MPI_Aint address = 0;
    check_mpi(MPI_Get_address(piece.local, &address), function, "MPI_Get_address");
    lengths.push_back(to_int_count(piece.bytes, function, "piece bytes"));
    origin.push_back(address);
    target.push_back(displacement(piece.offset - result.base));
  }
  result.origin = std::make_unique<CommittedType>(lengths, origin, function);
  result.target = std::make_unique<CommittedType>(lengths, target, function);
  return result;
}

MPI_Op mpi_op(AtomicOp op) noexcept {
  switch (op) {
    case AtomicOp::no_op:
      return MPI_NO_OP;
    case AtomicOp::replace:
      return MPI_REPLACE;
    case AtomicOp::sum:
      return MPI_SUM;
    case AtomicOp::bit_and:
      return MPI_BAND;
    case AtomicOp::bit_or:
      return MPI_BOR;
    case AtomicOp::bit_xor:
      return MPI_BXOR;
  }
  return MPI_OP_NULL;
}

}  // namespace

RmaRequest NodeWindow::start_get(int rank, std::size_t offset, void* out, std::size_t bytes,
                                 std::string_view function) const {
  RmaRequest request(rma_, rank, std::make_unique<MessageCount>(bytes, MPI_BYTE, function));
  const MessageCount& count = *request.count_;
  check_mpi(MPI_Rget(out, count.count(), count.type(), rank, displacement(offset), count.count(), count.type(), rma_,
                     &request.request_), function, "MPI_Rget");
  return request;
}

RmaRequest NodeWindow::start_put(int rank, std::size_t offset, const void* in, std::size_t bytes,
                                 std::string_view function) const {
  RmaRequest request(rma_, rank, std::make_unique<MessageCount>(bytes, MPI_BYTE, function));
  const MessageCount& count = *request.count_;
  check_mpi(MPI_Rput(in, count.count(), count.type(), rank, displacement(offset), count.count(), count.type(), rma_,
                     &request.request_), function, "MPI_Rput");
  return request;
}

RmaRequest NodeWindow::start_get(int rank, std::span<const RmaPiece> pieces, std::string_view function) const {
  if (pieces.empty()) {
    return {};
  }
  const IndexedPieces types = indexed(pieces, function);
  RmaRequest request(rma_, rank, nullptr);
  check_mpi(MPI_Rget(MPI_BOTTOM, 1, types.origin->get(), rank, displacement(types.base), 1, types.target->get(), rma_,
                     &request.request_), function, "MPI_Rget");
  return request;
}

RmaRequest NodeWindow::start_put(int rank, std::span<const RmaPiece> pieces, std::string_view function) const {
  if (pieces.empty()) {
    return {};
  }
  const IndexedPieces types = indexed(pieces, function);
  RmaRequest request(rma_, rank, nullptr);
  check_mpi(MPI_Rput(MPI_BOTTOM, 1, types.origin->get(), rank, displacement(types.base), 1, types.target->get(), rma_,
                     &request.request_), function, "MPI_Rput");
  return request;
}

void NodeWindow::fetch_and_op_bytes(int rank, std::size_t offset, const void* operand, void* previous,
                                    MPI_Datatype type, AtomicOp op, std::string_view function) const {
  check_mpi(MPI_Fetch_and_op(operand, previous, type, rank, displacement(offset), mpi_op(op), rma_),
            function, "MPI_Fetch_and_op");
  flush(rank);
}

void NodeWindow::atomic_store_bytes(int rank, std::size_t offset, const void* value, MPI_Datatype type,
                                    std::string_view function) const {
  check_mpi(MPI_Accumulate(value, 1, type, rank, displacement(offset), 1, type, MPI_REPLACE, rma_),
            function, "MPI_Accumulate");
  flush(rank);
}

void NodeWindow::compare_and_swap_bytes(int rank, std::size_t offset, const void* desired, const void* expected,
                                        void* found, MPI_Datatype type, std::string_view function) const {
  // const_cast: SimGrid's SMPI (3.32) declares the compare buffer without const; MPI-3 and the others with it.
  check_mpi(MPI_Compare_and_swap(desired, const_cast<void*>(expected), found, type, rank, displacement(offset), rma_),
            function, "MPI_Compare_and_swap");
  flush(rank);
}

}  // namespace dash::comm
