#pragma once
// dash::Array<T>: a one-dimensional array distributed over the units of a team (docs/design.md §3),
// shaped like DASH's and the STL's:
//
//   dash::Array<double> a(n);                      // BLOCKED over Team::All()
//   dash::Array<int> b(n, dash::CYCLIC, team);     // also BLOCKCYCLIC(k), TILE(k)
//   a[i] = 1.0; double x = a[i];                   // dash::GlobRef: may communicate
//   for (double& v : a.local) v *= 2;              // the caller's own elements: plain memory
//   dash::fill(a.begin(), a.end(), 0.0);           // algorithms work owner-computes
//
// Construction with a size, allocate(), deallocate() and destruction of an allocated array are
// collective over its team: every member calls them, in the same order. An array must be
// destroyed (or deallocated) before its team is freed. Element access through operator[], at()
// and iterators is one-sided; use barrier() to order writes of one unit before reads of another.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/containers/detail/distributed_storage.hpp>
#include <dash/containers/local_range.hpp>
#include <dash/core/distribution.hpp>
#include <dash/core/glob_iter.hpp>
#include <dash/core/global_segment.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/team.hpp>

namespace dash {

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::Array<T>: T must be trivially copyable, because elements are moved between processes as "
                "bytes (no constructors, destructors or pointers into one process's memory)");
  static_assert(!std::is_const_v<T> && !std::is_reference_v<T>, "dash::Array<T>: T must be a non-const object type");

public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using pattern_type = Pattern<1>;
  using iterator = GlobIter<T, pattern_type>;
  using const_iterator = GlobIter<const T, pattern_type>;
  using reference = GlobRef<T>;
  using const_reference = GlobRef<const T>;

  // The caller's elements (plain memory); empty while the array is not allocated.
  LocalRange<T> local;

  // An array with no memory yet; allocate() later (collective).
  Array() = default;
  // Collective over `team`: n elements, BLOCKED.
  explicit Array(size_type n, Team& team = Team::All()) { allocate(n, BLOCKED, team); }
  // Collective over `team`: n elements distributed by `distribution`.
  Array(size_type n, const Distribution& distribution, Team& team = Team::All()) { allocate(n, distribution, team); }
  // Collective when allocated.
  ~Array() = default;

  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& other) noexcept : local(std::exchange(other.local, {})), storage_(std::move(other.storage_)) {}
  // Collective when this array was allocated (its memory is freed).
  Array& operator=(Array&& other) noexcept {
    local = std::exchange(other.local, {});
    storage_ = std::move(other.storage_);
    return *this;
  }

  // Collective over `team`: allocates n elements. Every member must pass the same n and
  // distribution (checked: a mismatch throws dash::InvalidArgument on every member). Throws
  // dash::InvalidState when the array is allocated already, dash::InvalidArgument when the caller is
  // not a member of `team`.
  void allocate(size_type n, const Distribution& distribution = BLOCKED, Team& team = Team::All()) {
    if (storage_.allocated()) {
      throw InvalidState("dash::Array::allocate: the array is allocated already (deallocate() it first)");
    }
    Storage::require_member(team, "dash::Array::allocate");
    const std::array<std::uint64_t, 3> shape{n, static_cast<std::uint64_t>(distribution.kind()),
                                             distribution.fixed_block_size()};
    comm::check_uniform(shape, "dash::Array::allocate", "size and distribution", team.mpi_comm());
    storage_.allocate(pattern_type(n, distribution, team.size()), team);
    local = LocalRange<T>(storage_.local_data(),
                          storage_.pattern_ptr()->local_size(static_cast<std::size_t>(team.myid())));
  }
  // Collective: frees the memory (no-op when not allocated).
  void deallocate() {
    local = {};
    storage_.reset();
  }
  bool is_allocated() const noexcept { return storage_.allocated(); }

  size_type size() const noexcept { return storage_.allocated() ? storage_.pattern_ptr()->size() : 0; }
  bool empty() const noexcept { return size() == 0; }
  size_type lsize() const noexcept { return local.size(); }

  iterator begin() { return iterator(segment_ptr(), pattern_ptr(), 0); }
  iterator end() { return iterator(segment_ptr(), pattern_ptr(), size()); }
  const_iterator begin() const { return const_iterator(segment_ptr(), pattern_ptr(), 0); }
  const_iterator end() const { return const_iterator(segment_ptr(), pattern_ptr(), size()); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  T* lbegin() const noexcept { return local.begin(); }
  T* lend() const noexcept { return local.end(); }

  // Element i, unchecked (like std::vector::operator[]).
  reference operator[](size_type i) { return *iterator(segment_ptr(), pattern_ptr(), i); }
  const_reference operator[](size_type i) const { return *const_iterator(segment_ptr(), pattern_ptr(), i); }
  // Element i; throws dash::OutOfRange unless i < size().
  reference at(size_type i) {
    check_index(i);
    return (*this)[i];
  }
  const_reference at(size_type i) const {
    check_index(i);
    return (*this)[i];
  }

  const pattern_type& pattern() const { return storage_.pattern("dash::Array::pattern"); }
  Team& team() const { return storage_.segment("dash::Array::team").team(); }
  const GlobalSegment& segment() const { return storage_.segment("dash::Array::segment"); }
  // Collective: every member's earlier writes are visible to every member afterwards.
  void barrier() const { storage_.segment("dash::Array::barrier").barrier(); }

private:
  using Storage = detail::DistributedStorage<T, pattern_type>;

  void check_index(size_type i) const {
    if (i >= size()) {
      throw OutOfRange("dash::Array::at: index " + std::to_string(i) + " is outside the array's range [0, " +
                       std::to_string(size()) + ")");
    }
  }
  const GlobalSegment* segment_ptr() const noexcept { return storage_.segment_ptr(); }
  const pattern_type* pattern_ptr() const noexcept { return storage_.pattern_ptr(); }

  Storage storage_;
};

}  // namespace dash
