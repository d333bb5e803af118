#pragma once
// dash::CsrMatrix<T>: a sparse rows x cols matrix distributed by row blocks over a team, each unit
// holding its rows in compressed sparse row (CSR) form. The rows are BLOCKED as the elements of a
// dash::Array<T>(rows, BLOCKED, team) are, so y = A x finds each unit's rows of y in its local part
// of such an array (dash::sparse_matvec, dash/algorithms/sparse_matvec.hpp).
//
//   // on each unit: its rows, with global column indices
//   dash::CsrMatrix<double> A(rows, cols, row_offsets, columns, values, team);
//
// The entries are not kept as given but split by the unit that holds their column of a BLOCKED
// vector x of cols elements: column_block(j) holds the local entries whose columns unit j owns, so
// that the block of x from unit j multiplies exactly those entries and no other. Only local memory:
// no unit reads another's entries.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <dash/comm/allgather.hpp>
#include <dash/comm/allgatherv.hpp>
#include <dash/comm/exception.hpp>
#include <dash/containers/detail/distributed_storage.hpp>
#include <dash/core/distribution.hpp>
#include <dash/core/pattern.hpp>
#include <dash/core/team.hpp>

namespace dash {

// The entries of one unit's rows whose columns lie in one unit's block of x, in CSR form over the
// rows that have any: row rows[k] has the entries [starts[k], starts[k + 1]).
template <class T, class Index>
struct CsrColumnBlock {
  // The global index of the block's first column; columns[e] counts from it.
  std::size_t first_column = 0;
  std::vector<std::size_t> rows;  // local row indices, ascending
  std::vector<std::size_t> starts{0};
  std::vector<Index> columns;
  std::vector<T> values;

  std::size_t nonzeros() const noexcept { return values.size(); }
};

// Index: the type of a column index inside one unit's block of x; every unit's block of cols must
// fit it (checked). 32 bits by default: an entry of doubles takes 12 bytes instead of 16, and a
// product reads every entry once.
template <class T, class Index = std::uint32_t>
class CsrMatrix {
  static_assert(std::is_trivially_copyable_v<T>, "dash::CsrMatrix<T>: T must be trivially copyable");
  static_assert(std::is_unsigned_v<Index>, "dash::CsrMatrix<T, Index>: Index must be an unsigned integer type");

public:
  using value_type = T;
  using index_type = Index;
  using ColumnBlock = CsrColumnBlock<T, Index>;

  // Collective over `team`: every unit passes the same rows and cols and its own rows in CSR form,
  // the unit's local rows being those of a BLOCKED array of `rows` elements on `team`:
  // row_offsets has local rows + 1 entries, starts at 0, does not decrease and ends at
  // columns.size() == values.size(); columns are global indices below cols, in any order, and
  // repeated columns add up. Throws dash::InvalidArgument on every unit when any unit's arguments
  // are wrong (naming the unit), dash::OutOfRange when a unit's block of cols does not fit Index.
  // Communication: an allgather of 3 numbers per unit (plus the error messages on failure).
  CsrMatrix(std::size_t rows, std::size_t cols, std::span<const std::size_t> row_offsets,
            std::span<const std::size_t> columns, std::span<const T> values, Team& team = Team::All())
      : team_(&team),
        rows_(rows),
        cols_(cols),
        row_pattern_(rows, BLOCKED, units_of(team)),
        column_pattern_(cols, BLOCKED, team.size()) {
    constexpr const char* function = "dash::CsrMatrix";
    const auto me = static_cast<std::size_t>(team.myid());
    local_rows_ = row_pattern_.local_size(me);
    check_alike_on_every_unit(function, local_error(row_offsets, columns, values));
    if (column_pattern_.local_size(0) > std::numeric_limits<Index>::max()) {
      throw out_of_range(function, "cols", cols,
                         "at most " + std::to_string(std::numeric_limits<Index>::max()) + " columns per unit (" +
                             std::to_string(team.size()) + " units) for this Index type; use a wider Index");
    }
    split_by_column_owner(row_offsets, columns, values);
  }

  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  Team& team() const noexcept { return *team_; }
  // Where the rows lie: the pattern of a BLOCKED dash::Array of rows() elements on team().
  const Pattern<1>& row_pattern() const noexcept { return row_pattern_; }
  // Where x's elements lie: the pattern of a BLOCKED dash::Array of cols() elements on team().
  const Pattern<1>& column_pattern() const noexcept { return column_pattern_; }
  std::size_t local_rows() const noexcept { return local_rows_; }
  std::size_t local_nonzeros() const noexcept {
    std::size_t count = 0;
    for (const ColumnBlock& block : blocks_) {
      count += block.nonzeros();
    }
    return count;
  }
  // The caller's entries whose columns unit `owner` holds; throws dash::OutOfRange past the team.
  const ColumnBlock& column_block(std::size_t owner) const {
    if (owner >= blocks_.size()) {
      throw out_of_range("dash::CsrMatrix::column_block", "owner", owner,
                         "a unit of the matrix's team, below " + std::to_string(blocks_.size()));
    }
    return blocks_[owner];
  }

private:
  // The team's size; throws dash::InvalidArgument unless the caller is a member.
  static std::size_t units_of(const Team& team) {
    detail::DistributedStorage<T, Pattern<1>>::require_member(team, "dash::CsrMatrix");
    return team.size();
  }

  // What is wrong with this unit's rows, or nothing.
  std::string local_error(std::span<const std::size_t> row_offsets, std::span<const std::size_t> columns,
                          std::span<const T> values) const {
    if (row_offsets.size() != local_rows_ + 1) {
      return "row_offsets has " + std::to_string(row_offsets.size()) + " entries; expected local rows + 1 = " +
             std::to_string(local_rows_ + 1);
    }
    if (row_offsets.front() != 0) {
      return "row_offsets[0] = " + std::to_string(row_offsets.front()) + "; expected 0";
    }
    for (std::size_t r = 0; r < local_rows_; ++r) {
      if (row_offsets[r + 1] < row_offsets[r]) {
        return "row_offsets decreases at local row " + std::to_string(r) + " (" + std::to_string(row_offsets[r]) +
               " to " + std::to_string(row_offsets[r + 1]) + ")";
      }
    }
    if (columns.size() != row_offsets.back() || values.size() != row_offsets.back()) {
      return "columns has " + std::to_string(columns.size()) + " and values " + std::to_string(values.size()) +
             " entries; expected row_offsets.back() = " + std::to_string(row_offsets.back()) + " each";
    }
    for (std::size_t e = 0; e < columns.size(); ++e) {
      if (columns[e] >= cols_) {
        return "columns[" + std::to_string(e) + "] = " + std::to_string(columns[e]) + "; expected below cols = " +
               std::to_string(cols_);
      }
    }
    return {};
  }

  // Collective: throws the same dash::InvalidArgument on every unit when the units passed
  // different sizes or any unit's rows are wrong.
  void check_alike_on_every_unit(const char* function, const std::string& error) const {
    const comm::Group& group = team_->group();
    const std::size_t units = team_->size();
    const std::array<std::uint64_t, 3> mine{rows_, cols_, error.size()};
    std::vector<std::uint64_t> all(3 * units);
    comm::allgather(mine, all, group);
    for (std::size_t unit = 1; unit < units; ++unit) {
      if (all[3 * unit] != all[0] || all[3 * unit + 1] != all[1]) {
        throw InvalidArgument(std::string(function) + ": rows and cols must be the same on every unit, but unit 0 "
                              "passed " + std::to_string(all[0]) + " x " + std::to_string(all[1]) + " and unit " +
                              std::to_string(unit) + " " + std::to_string(all[3 * unit]) + " x " +
                              std::to_string(all[3 * unit + 1]));
      }
    }
    std::vector<std::size_t> lengths(units);
    for (std::size_t unit = 0; unit < units; ++unit) {
      lengths[unit] = all[3 * unit + 2];
    }
    const std::size_t total = std::accumulate(lengths.begin(), lengths.end(), std::size_t{0});
    if (total == 0) {
      return;
    }
    std::vector<char> messages(total);
    comm::allgatherv(std::span<const char>(error.data(), error.size()), messages,
                     std::span<const std::size_t>(lengths), group);
    std::size_t offset = 0;
    std::size_t unit = 0;
    for (; lengths[unit] == 0; ++unit) {
      offset += lengths[unit];
    }
    throw InvalidArgument(std::string(function) + ": unit " + std::to_string(unit) + "'s rows are invalid: " +
                          std::string(messages.data() + offset, lengths[unit]));
  }

  void split_by_column_owner(std::span<const std::size_t> row_offsets, std::span<const std::size_t> columns,
                             std::span<const T> values) {
    const std::size_t units = team_->size();
    blocks_.resize(units);
    std::vector<std::size_t> entries(units, 0);
    std::vector<std::size_t> row_counts(units, 0);
    std::vector<std::size_t> last_row(units, std::numeric_limits<std::size_t>::max());
    for (std::size_t r = 0; r < local_rows_; ++r) {
      for (std::size_t e = row_offsets[r]; e < row_offsets[r + 1]; ++e) {
        const std::size_t owner = column_pattern_.unit_at(columns[e]);
        ++entries[owner];
        if (last_row[owner] != r) {
          last_row[owner] = r;
          ++row_counts[owner];
        }
      }
    }
    for (std::size_t owner = 0; owner < units; ++owner) {
      ColumnBlock& block = blocks_[owner];
      block.first_column = column_pattern_.local_size(owner) == 0 ? 0 : column_pattern_.global_index(owner, 0);
      block.rows.reserve(row_counts[owner]);
      block.starts.reserve(row_counts[owner] + 1);
      block.columns.reserve(entries[owner]);
      block.values.reserve(entries[owner]);
    }
    for (std::size_t r = 0; r < local_rows_; ++r) {
      for (std::size_t e = row_offsets[r]; e < row_offsets[r + 1]; ++e) {
        ColumnBlock& block = blocks_[column_pattern_.unit_at(columns[e])];
        if (block.rows.empty() || block.rows.back() != r) {
          if (!block.rows.empty()) {
            block.starts.push_back(block.values.size());
          }
          block.rows.push_back(r);
        }
        block.columns.push_back(static_cast<Index>(columns[e] - block.first_column));
        block.values.push_back(values[e]);
      }
    }
    for (ColumnBlock& block : blocks_) {
      if (!block.rows.empty()) {
        block.starts.push_back(block.values.size());
      }
    }
  }

  Team* team_;
  std::size_t rows_;
  std::size_t cols_;
  Pattern<1> row_pattern_;
  Pattern<1> column_pattern_;
  std::size_t local_rows_ = 0;
  std::vector<ColumnBlock> blocks_;
};

}  // namespace dash
