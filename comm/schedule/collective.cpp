#include <dash/comm/schedule/collective.hpp>

namespace dash::comm {

namespace {

// One contribution of S blocks per neighbour slot.
std::uint32_t neighbor_blocks(const CollectiveShape& shape) noexcept {
  return shape.grid ? static_cast<std::uint32_t>(shape.grid->neighbor_slots()) * shape.segments : 0;
}

}  // namespace

std::string_view to_string(Coll collective) noexcept {
  switch (collective) {
    case Coll::bcast:
      return "bcast";
    case Coll::reduce:
      return "reduce";
    case Coll::allreduce:
      return "allreduce";
    case Coll::gather:
      return "gather";
    case Coll::scatter:
      return "scatter";
    case Coll::allgather:
      return "allgather";
    case Coll::reduce_scatter:
      return "reduce_scatter";
    case Coll::alltoall:
      return "alltoall";
    case Coll::scan:
      return "scan";
    case Coll::exscan:
      return "exscan";
    case Coll::neighbor_alltoall:
      return "neighbor_alltoall";
    case Coll::barrier:
      break;
  }
  return "barrier";
}

std::uint32_t CollectiveShape::input_blocks(int rank) const noexcept {
  const auto p = static_cast<std::uint32_t>(size);
  switch (collective) {
    case Coll::bcast:
      return 0;  // in place: the root's data starts in its output
    case Coll::scatter:
      return rank == root ? p * segments : 0;
    case Coll::reduce_scatter:
    case Coll::alltoall:
      return p * segments;
    case Coll::barrier:
      return 1;
    case Coll::neighbor_alltoall:
      return neighbor_blocks(*this);
    default:
      return segments;
  }
}

std::uint32_t CollectiveShape::output_blocks(int rank) const noexcept {
  const auto p = static_cast<std::uint32_t>(size);
  switch (collective) {
    case Coll::reduce:
      return rank == root ? segments : 0;
    case Coll::gather:
      return rank == root ? p * segments : 0;
    case Coll::allgather:
    case Coll::alltoall:
      return p * segments;
    case Coll::barrier:
      return 1;
    case Coll::neighbor_alltoall:
      return neighbor_blocks(*this);
    default:
      return segments;
  }
}

}  // namespace dash::comm
