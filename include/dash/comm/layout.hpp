#pragma once
// Where a message's data lies in memory, as a value (docs/design.md §2: non-contiguous data goes to
// MPI as derived datatypes, never through a hand-written pack loop).
//
// A Layout describes a set of bytes relative to a base address: a contiguous run of elements or
// a box (a sub-block) of a row-major N-d array. It owns the committed MPI datatype that sends or
// receives exactly those bytes with count 1, and it can list them as contiguous runs, for copies
// through shared memory that bypass MPI. Copies share the datatype; it is freed with the last copy.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <mpi.h>

namespace dash::comm {

class Layout {
public:
  // No bytes (a message that carries nothing).
  Layout() = default;
  // `count` elements of `element_bytes` bytes each, starting at the base.
  static Layout contiguous(std::size_t count, std::size_t element_bytes);
  // The box [first, first + sizes) of a row-major array of `extents` (the last dimension varies
  // fastest) whose elements have `element_bytes` bytes. Throws dash::InvalidArgument when the
  // ranks of extents, first and sizes differ or the box leaves the array, dash::OutOfRange when
  // an extent exceeds MPI's int counts.
  static Layout box(std::span<const std::size_t> extents, std::span<const std::size_t> first,
                    std::span<const std::size_t> sizes, std::size_t element_bytes);

  // Bytes of payload (not the span they lie in).
  std::size_t bytes() const noexcept { return bytes_; }
  // Send or receive `count()` of `datatype()` at the base address: 1 of the committed datatype,
  // or 0 when the layout holds no bytes.
  MPI_Datatype datatype() const noexcept { return type_ ? type_->handle : MPI_BYTE; }
  int count() const noexcept { return bytes_ == 0 ? 0 : 1; }

  // Calls f(offset, length) for each maximal contiguous run of bytes, in increasing offset.
  template <class F>
  void for_each_run(F&& f) const {
    const std::size_t dims = extents_.size();
    if (bytes_ == 0) {
      return;
    }
    if (dims == 0) {
      f(std::size_t{0}, bytes_);
      return;
    }
    // The trailing dimensions the box covers completely merge into one run.
    std::size_t run_dim = dims - 1;
    std::size_t run_elements = sizes_[run_dim];
    while (run_dim > 0 && sizes_[run_dim] == extents_[run_dim]) {
      --run_dim;
      run_elements *= sizes_[run_dim];
    }
    // In place for arrays of up to 4 dimensions: a halo face's copy allocates nothing.
    boost::container::small_vector<std::size_t, 3> index(first_.begin(),
                                                         first_.begin() + static_cast<std::ptrdiff_t>(run_dim));
    const std::size_t run_bytes = run_elements * element_bytes_;
    while (true) {
      std::size_t offset = 0;
      for (std::size_t d = 0; d < dims; ++d) {
        offset = offset * extents_[d] + (d < run_dim ? index[d] : first_[d]);
      }
      f(offset * element_bytes_, run_bytes);
      // Advance the odometer over the dimensions before the run; done once it wraps.
      std::size_t d = run_dim;
      while (true) {
        if (d == 0) {
          return;
        }
        --d;
        if (++index[d] < first_[d] + sizes_[d]) {
          break;
        }
        index[d] = first_[d];
      }
    }
  }

  // Copies the layout's bytes from `source` (laid out by this layout) to `destination`
  // (contiguous), run by run.
  void copy_to_contiguous(const std::byte* source, std::byte* destination) const;

private:
  struct CommittedType {
    MPI_Datatype handle = MPI_DATATYPE_NULL;
    CommittedType() = default;
    CommittedType(const CommittedType&) = delete;
    CommittedType& operator=(const CommittedType&) = delete;
    ~CommittedType();
  };

  std::vector<std::size_t> extents_;  // empty for a contiguous layout
  std::vector<std::size_t> first_;
  std::vector<std::size_t> sizes_;
  std::size_t element_bytes_ = 1;
  std::size_t bytes_ = 0;
  std::shared_ptr<const CommittedType> type_;
};

}  // namespace dash::comm
