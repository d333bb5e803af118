#pragma once
// A count/datatype pair that describes `n` elements of a base type to MPI for any `n`.
//
// Up to int_count_limit() elements this is simply (n, base). Beyond it the elements are described
// by one derived datatype: q contiguous chunks of `limit` elements followed by a remainder, sent
// with count 1. The derived type is committed on construction and freed on destruction.

#include <cstddef>
#include <string_view>

#include <mpi.h>

namespace dash::comm {

class MessageCount {
public:
  // Describes `n` elements of `base` for the call `function`. Throws dash::OutOfRange when n
  // exceeds limit * limit (with limit = int_count_limit()).
  MessageCount(std::size_t n, MPI_Datatype base, std::string_view function);
  ~MessageCount();
  MessageCount(const MessageCount&) = delete;
  MessageCount& operator=(const MessageCount&) = delete;
  MessageCount(MessageCount&& other) noexcept;
  MessageCount& operator=(MessageCount&& other) noexcept;

  int count() const noexcept { return count_; }
  MPI_Datatype type() const noexcept { return type_; }
  // True when a derived datatype had to be built (the large-count path).
  bool is_derived() const noexcept { return owned_; }

private:
  void release() noexcept;

  int count_ = 0;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  bool owned_ = false;
};

}  // namespace dash::comm
