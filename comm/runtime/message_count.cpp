#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm {

MessageCount::MessageCount(std::size_t n, MPI_Datatype base, std::string_view function) {
  const auto limit = static_cast<std::size_t>(int_count_limit());
  if (n <= limit) {
    count_ = static_cast<int>(n);
    type_ = base;
    return;
  }
  if (n > limit * limit) {
    throw out_of_range(function, "count", n,
                       "at most " + std::to_string(limit) + " * " + std::to_string(limit) +
                           " elements in one message");
  }
  const std::size_t chunks = n / limit;
  const std::size_t remainder = n % limit;
  const std::string where = std::string(function) + ": ";
  MPI_Datatype chunk = MPI_DATATYPE_NULL;
  MPI_Datatype chunk_run = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_contiguous(static_cast<int>(limit), base, &chunk), where + "MPI_Type_contiguous");
  check_mpi(MPI_Type_contiguous(static_cast<int>(chunks), chunk, &chunk_run),
            where + "MPI_Type_contiguous");
  check_mpi(MPI_Type_free(&chunk), where + "MPI_Type_free");
  if (remainder == 0) {
    type_ = chunk_run;
  } else {
    MPI_Datatype tail = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_contiguous(static_cast<int>(remainder), base, &tail),
              where + "MPI_Type_contiguous");
    MPI_Aint lower_bound = 0;
    MPI_Aint extent = 0;
    check_mpi(MPI_Type_get_extent(base, &lower_bound, &extent), where + "MPI_Type_get_extent");
    const int block_lengths[2] = {1, 1};
    const MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(chunks * limit) * extent};
    MPI_Datatype parts[2] = {chunk_run, tail};
    check_mpi(MPI_Type_create_struct(2, block_lengths, displacements, parts, &type_),
              where + "MPI_Type_create_struct");
    check_mpi(MPI_Type_free(&chunk_run), where + "MPI_Type_free");
    check_mpi(MPI_Type_free(&tail), where + "MPI_Type_free");
  }
  check_mpi(MPI_Type_commit(&type_), where + "MPI_Type_commit");
  count_ = 1;
  owned_ = true;
}

MessageCount::~MessageCount() { release(); }

MessageCount::MessageCount(MessageCount&& other) noexcept
    : count_(std::exchange(other.count_, 0)),
      type_(std::exchange(other.type_, MPI_DATATYPE_NULL)),
      owned_(std::exchange(other.owned_, false)) {}

MessageCount& MessageCount::operator=(MessageCount&& other) noexcept {
  if (this != &other) {
    release();
    count_ = std::exchange(other.count_, 0);
    type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
    owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

void MessageCount::release() noexcept {
  if (owned_) {
    // A type can only be freed while MPI is alive; after MPI_Finalize the handle is gone anyway.
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
      MPI_Type_free(&type_);
    }
    owned_ = false;
  }
}

}  // namespace dash::comm
