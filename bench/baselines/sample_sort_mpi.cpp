#include "baselines/sample_sort_mpi.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <utility>

#include <boost/sort/pdqsort/pdqsort.hpp>

#include <dash/comm/int_count.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::bench::sort {

namespace {

constexpr const char* function = "dash-bench sample_sort_mpi";

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// One element as an MPI datatype of its bytes, so that counts are in elements.
class ElementType {
public:
  explicit ElementType(std::size_t bytes) {
    comm::check_mpi(MPI_Type_contiguous(comm::to_int_count(bytes, function, "element size"), MPI_BYTE, &type_),
                    "dash-bench sample_sort_mpi: MPI_Type_contiguous");
    comm::check_mpi(MPI_Type_commit(&type_), "dash-bench sample_sort_mpi: MPI_Type_commit");
  }
  ~ElementType() { MPI_Type_free(&type_); }
  ElementType(const ElementType&) = delete;
  ElementType& operator=(const ElementType&) = delete;

  MPI_Datatype get() const noexcept { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Every process's regular samples: p evenly spaced elements of its sorted block (fewer when the
// block is shorter), gathered in one MPI_Allgather of fixed-size records (count, then samples).
template <class T>
std::vector<T> gathered_samples(std::span<const T> sorted, int p, MPI_Comm comm) {
  const auto per_process = static_cast<std::size_t>(p);
  const std::size_t record_bytes = sizeof(std::uint64_t) + per_process * sizeof(T);
  std::vector<std::byte> record(record_bytes);
  const std::uint64_t count = std::min<std::size_t>(per_process, sorted.size());
  std::memcpy(record.data(), &count, sizeof count);
  for (std::size_t j = 0; j < count; ++j) {
    const T sample = sorted[j * sorted.size() / count];
    std::memcpy(record.data() + sizeof(std::uint64_t) + j * sizeof(T), &sample, sizeof(T));
  }
  std::vector<std::byte> records(record_bytes * per_process);
  const int record_count = comm::to_int_count(record_bytes, function, "sample record bytes");
  comm::check_mpi(MPI_Allgather(record.data(), record_count, MPI_BYTE, records.data(), record_count, MPI_BYTE, comm),
                  "dash-bench sample_sort_mpi: MPI_Allgather");
  std::vector<T> samples;
  samples.reserve(per_process * per_process);
  for (std::size_t process = 0; process < per_process; ++process) {
    const std::byte* at = records.data() + process * record_bytes;
    std::uint64_t valid = 0;
    std::memcpy(&valid, at, sizeof valid);
    for (std::size_t j = 0; j < valid; ++j) {
      T sample;
      std::memcpy(&sample, at + sizeof(std::uint64_t) + j * sizeof(T), sizeof(T));
      samples.push_back(sample);
    }
  }
  return samples;
}

// PSRS's p - 1 pivots: of the m sorted samples, those at i m / p + p / 2 - 1 (i = 1 .. p-1), which
// for m = p^2 are every p-th sample offset by half a block. Empty when there are no samples.
template <class T>
std::vector<T> regular_pivots(std::vector<T> samples, int p) {
  std::vector<T> pivots;
  if (samples.empty()) {
    return pivots;
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t m = samples.size();
  const auto processes = static_cast<std::size_t>(p);
  for (std::size_t i = 1; i < processes; ++i) {
    pivots.push_back(samples[std::min(m - 1, i * m / processes + processes / 2 - 1)]);
  }
  return pivots;
}

std::vector<int> exclusive_offsets(const std::vector<int>& counts, const char* argument) {
  std::vector<int> offsets(counts.size());
  std::size_t total = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    offsets[k] = comm::to_int_count(total, function, argument);
    total += static_cast<std::size_t>(counts[k]);
  }
  return offsets;
}

// Merges the sorted runs of `runs` that end at `run_ends` pairwise, level by level.
template <class T>
std::vector<T> merge_runs(std::vector<T> runs, std::vector<std::size_t> run_ends) {
  const auto at = [](std::vector<T>& v, std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  std::vector<T> merged(runs.size());
  while (run_ends.size() > 1) {
    std::vector<std::size_t> merged_ends;
    std::size_t begin = 0;
    for (std::size_t k = 0; k < run_ends.size(); k += 2) {
      // An odd run out at the end is merged with nothing, i.e. copied.
      const std::size_t end = k + 1 < run_ends.size() ? run_ends[k + 1] : run_ends[k];
      std::merge(at(runs, begin), at(runs, run_ends[k]), at(runs, run_ends[k]), at(runs, end), at(merged, begin));
      merged_ends.push_back(end);
      begin = end;
    }
    std::swap(runs, merged);
    run_ends = std::move(merged_ends);
  }
  return runs;
}

}  // namespace

template <class T>
std::vector<T> sample_sort_mpi(std::span<T> local, MPI_Comm comm, SampleSortPhases* phases) {
  int p = 0;
  comm::check_mpi(MPI_Comm_size(comm, &p), "dash-bench sample_sort_mpi: MPI_Comm_size");
  const auto processes = static_cast<std::size_t>(p);
  SampleSortPhases times;

  auto start = Clock::now();
  boost::sort::pdqsort(local.begin(), local.end());
  times.local_sort = seconds_since(start);

  start = Clock::now();
  const std::vector<T> pivots = regular_pivots(gathered_samples(std::span<const T>(local), p, comm), p);
  // Piece k holds the elements after pivot k - 1 up to pivot k: equal keys stay together.
  std::vector<int> send_counts(processes, 0);
  std::size_t piece_begin = 0;
  for (std::size_t k = 0; k < processes; ++k) {
    const std::size_t piece_end =
        k < pivots.size()
            ? static_cast<std::size_t>(std::upper_bound(local.begin() + static_cast<std::ptrdiff_t>(piece_begin),
                                                        local.end(), pivots[k]) -
                                       local.begin())
            : local.size();
    send_counts[k] = comm::to_int_count(piece_end - piece_begin, function, "piece size");
    piece_begin = piece_end;
  }
  times.splitters = seconds_since(start);

  start = Clock::now();
  std::vector<int> receive_counts(processes);
  comm::check_mpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm),
                  "dash-bench sample_sort_mpi: MPI_Alltoall");
  const std::vector<int> send_offsets = exclusive_offsets(send_counts, "send offset");
  const std::vector<int> receive_offsets = exclusive_offsets(receive_counts, "receive offset");
  std::vector<T> received(static_cast<std::size_t>(receive_offsets.back()) +
                          static_cast<std::size_t>(receive_counts.back()));
  const ElementType element(sizeof(T));
  comm::check_mpi(MPI_Alltoallv(local.data(), send_counts.data(), send_offsets.data(), element.get(), received.data(),
                                receive_counts.data(), receive_offsets.data(), element.get(), comm),
                  "dash-bench sample_sort_mpi: MPI_Alltoallv");
  times.exchange = seconds_since(start);

  start = Clock::now();
  std::vector<std::size_t> run_ends(processes);
  for (std::size_t k = 0; k < processes; ++k) {
    run_ends[k] = static_cast<std::size_t>(receive_offsets[k]) + static_cast<std::size_t>(receive_counts[k]);
  }
  std::vector<T> part = merge_runs(std::move(received), std::move(run_ends));
  times.merge = seconds_since(start);

  if (phases != nullptr) {
    *phases = times;
  }
  return part;
}

template std::vector<double> sample_sort_mpi(std::span<double>, MPI_Comm, SampleSortPhases*);
template std::vector<std::uint64_t> sample_sort_mpi(std::span<std::uint64_t>, MPI_Comm, SampleSortPhases*);
template std::vector<std::uint32_t> sample_sort_mpi(std::span<std::uint32_t>, MPI_Comm, SampleSortPhases*);

}  // namespace dash::bench::sort
