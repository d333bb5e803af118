#pragma once
// This process's segment of the table window (dash/comm/table_window.hpp), handed out in
// 8-byte aligned ranges, first fit over a free list kept sorted by offset.

#include <cstddef>
#include <map>
#include <memory>

namespace dash::detail {

class TableSpace {
public:
  // The space of the running library's window; rebuilt when the library is re-initialised.
  static std::shared_ptr<TableSpace> current();

  explicit TableSpace(std::size_t bytes);
  // The offset of `bytes` free bytes; throws dash::BadAlloc naming `function` and
  // DASH_TABLE_WINDOW_BYTES when the segment is full.
  std::size_t allocate(std::size_t bytes, const char* function);
  void release(std::size_t offset) noexcept;
  std::size_t bytes_in_use() const noexcept { return in_use_; }

private:
  std::size_t capacity_;
  std::size_t in_use_ = 0;
  std::map<std::size_t, std::size_t> free_;  // offset -> bytes
  std::map<std::size_t, std::size_t> used_;  // offset -> bytes
};

// Rows a process holds in its segment; returned to the space when the last owner lets go.
class TableRows {
public:
  TableRows(std::shared_ptr<TableSpace> space, std::size_t bytes, const char* function)
      : space_(std::move(space)), offset_(space_->allocate(bytes, function)), bytes_(bytes) {}
  ~TableRows() { space_->release(offset_); }
  TableRows(const TableRows&) = delete;
  TableRows& operator=(const TableRows&) = delete;

  std::size_t offset() const noexcept { return offset_; }
  std::size_t bytes() const noexcept { return bytes_; }

private:
  std::shared_ptr<TableSpace> space_;
  std::size_t offset_;
  std::size_t bytes_;
};

}  // namespace dash::detail
