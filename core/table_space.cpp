#include <string>

#include <dash/comm/table_window.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/core/detail/table_space.hpp>

namespace dash::detail {

namespace {

constexpr std::size_t alignment = 8;

std::size_t aligned(std::size_t bytes) { return (bytes + alignment - 1) / alignment * alignment; }

}  // namespace

std::shared_ptr<TableSpace> TableSpace::current() {
  static std::shared_ptr<TableSpace> space;
  static unsigned built_for = 0;  // the initialisation (a reused communicator handle would not tell)
  const unsigned generation = comm::runtime_generation();
  if (!space || built_for != generation) {
    space = std::make_shared<TableSpace>(comm::TableWindow::current().local().size());
    built_for = generation;
  }
  return space;
}

TableSpace::TableSpace(std::size_t bytes) : capacity_(bytes / alignment * alignment) {
  if (capacity_ > 0) {
    free_.emplace(0, capacity_);
  }
}

std::size_t TableSpace::allocate(std::size_t bytes, const char* function) {
  const std::size_t needed = aligned(std::max<std::size_t>(bytes, 1));
  for (auto range = free_.begin(); range != free_.end(); ++range) {
    if (range->second >= needed) {
      const std::size_t offset = range->first;
      const std::size_t left = range->second - needed;
      free_.erase(range);
      if (left > 0) {
        free_.emplace(offset + needed, left);
      }
      used_.emplace(offset, needed);
      in_use_ += needed;
      return offset;
    }
  }
  throw BadAlloc(std::string(function) + ": the table window has no free range of " + std::to_string(needed) +
                 " bytes (" + std::to_string(in_use_) + " of " + std::to_string(capacity_) +
                 " bytes in use); raise DASH_TABLE_WINDOW_BYTES or free teams");
}

void TableSpace::release(std::size_t offset) noexcept {
  const auto found = used_.find(offset);
  if (found == used_.end()) {
    return;
  }
  std::size_t start = found->first;
  std::size_t bytes = found->second;
  in_use_ -= bytes;
  used_.erase(found);
  // Coalesce with the free neighbours.
  if (const auto after = free_.find(start + bytes); after != free_.end()) {
    bytes += after->second;
    free_.erase(after);
  }
  if (auto before = free_.lower_bound(start); before != free_.begin()) {
    --before;
    if (before->first + before->second == start) {
      start = before->first;
      bytes += before->second;
      free_.erase(before);
    }
  }
  free_.emplace(start, bytes);
}

}  // namespace dash::detail
