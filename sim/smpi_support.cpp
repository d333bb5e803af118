#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <new>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <mpi.h>

#include <dash/comm/exception.hpp>

#include "smpi_support.hpp"

// Folded memory. 512 simulated ranks share this machine's memory: an allgather of 1 MiB per rank needs 512 MiB
// of output on every rank. Allocations of at least the driver's threshold (fold_allocations_from) therefore
// come from SMPI's shared malloc, which maps all of them onto the same physical pages, and SMPI copies no
// message payload between such buffers. The data is then meaningless, so results are only verified at sizes
// whose buffers stay below the threshold; the simulated times do not depend on the data. The threshold is per
// simulated rank (SMPI privatizes globals).
namespace {
std::size_t fold_bytes = 0;  // 0: fold nothing
// Once the rank is done (dash::finalize returned), SMPI may tear its shared malloc down before the library's
// static caches release their blocks: folded blocks are then left to the end of the process.
bool rank_finished = false;

// Takes the set's own memory from malloc, not from the operators below: their delete looks the block up in the
// set, which must not happen while the set frees its old buckets in the middle of a rehash (that lookup walked
// stale buckets: SIGSEGV in reduce-scatter at 256 KiB per block on the torus, whose ranks hold many blocks).
template <typename T>
struct MallocAllocator {
  using value_type = T;
  MallocAllocator() = default;
  template <typename U>
  MallocAllocator(const MallocAllocator<U>&) noexcept {}
  T* allocate(std::size_t count) {
    void* memory = (malloc)(count * sizeof(T));  // (malloc): not SMPI's macro
    if (memory == nullptr) {
      throw std::bad_alloc();
    }
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, std::size_t) noexcept { (free)(memory); }
  friend bool operator==(const MallocAllocator&, const MallocAllocator&) noexcept { return true; }
};

using FoldedBlocks = std::unordered_set<void*, std::hash<void*>, std::equal_to<>, MallocAllocator<void*>>;

// The folded blocks this rank holds; never destroyed, for the same reason.
FoldedBlocks& folded_blocks() {
  static auto* blocks = new FoldedBlocks();
  return *blocks;
}

void release(void* memory) noexcept {
  if (memory == nullptr) {
    return;
  }
  FoldedBlocks& blocks = folded_blocks();
  if (const auto block = blocks.find(memory); block != blocks.end()) {
    blocks.erase(block);
    if (!rank_finished) {
      smpi_shared_free(memory);
    }
    return;
  }
  (free)(memory);  // (free): not SMPI's macro
}
}  // namespace

void* operator new(std::size_t bytes) {
  if (fold_bytes != 0 && bytes >= fold_bytes) {
    void* memory = smpi_shared_malloc(bytes, __FILE__, __LINE__);
    folded_blocks().insert(memory);
    return memory;
  }
  void* memory = (malloc)(bytes == 0 ? 1 : bytes);  // (malloc): not SMPI's macro
  if (memory == nullptr) {
    throw std::bad_alloc();
  }
  return memory;
}
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void operator delete(void* memory) noexcept { release(memory); }
void operator delete[](void* memory) noexcept { release(memory); }
void operator delete(void* memory, std::size_t) noexcept { release(memory); }
void operator delete[](void* memory, std::size_t) noexcept { release(memory); }

// Waiting instead of polling. dash::comm's engine completes a blocking collective by calling MPI_Testsome until
// everything has arrived. SMPI charges simulated time for every test of an unfinished request (smpi/test:
// 0.1 ms by default, growing with repeated calls), which inflated our times many times over. smpirun's
// smpi/test:0 removes that charge (sim/run sets it), and a Testsome that waits for the first completion spares
// the simulation the polling: the engine posts everything it can before it tests, and a blocking collective
// has nothing else to do meanwhile, so it sees the same completions. The link wraps the driver's calls of
// MPI_Testsome, the library's included, into this (sim/CMakeLists.txt).
// A caller that works between its tests (a consumer of arrivals, dash::comm::Request::for_each_arrival) needs
// the test to return when nothing completed: waiting there would hold every arrival back to the last one. A
// driver that times such work polls instead (poll_with_cost): a test that completes nothing charges the rank
// the time a real test takes, so that simulated time moves on while it polls. Each further idle test in a row
// charges twice the one before, up to 8 times the first, which bounds how late a completion is seen (0.8 us
// for 0.1 us a test) while sparing SimGrid most of the polls of a long wait (one simulation step each).
namespace {
double poll_seconds = 0;  // 0: wait for the first completion
double idle_poll_seconds = 0;  // what the next idle test charges

// What a test costs when polling with cost: nothing if it completed something, else the idle charge.
void account_test(bool idle) {
  if (idle) {
    idle_poll_seconds = std::clamp(2 * idle_poll_seconds, poll_seconds, 8 * poll_seconds);
    smpi_execute(idle_poll_seconds);
  } else {
    idle_poll_seconds = 0;
  }
}
}  // namespace

extern "C" int __wrap_MPI_Testsome(int count, MPI_Request requests[], int* completed, int indices[],
                                   MPI_Status statuses[]) {
  if (poll_seconds == 0) {
    return PMPI_Waitsome(count, requests, completed, indices, statuses);
  }
  const int code = PMPI_Testsome(count, requests, completed, indices, statuses);
  account_test(code == MPI_SUCCESS && *completed == 0);
  return code;
}

// SMPI's MPI_Exscan sends every rank's value to every higher rank at once, P(P-1)/2 messages that SimGrid
// takes many minutes to simulate at P = 512, and dash::init calls it once (comm/topology/locality.cpp). This one
// gathers the values in log P stages (MPI_Allgather) and combines those of the lower ranks locally, in rank
// order. Contiguous datatypes only; others go to SMPI's.
extern "C" int __real_MPI_Exscan(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm);
extern "C" int __wrap_MPI_Exscan(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm) {
  int type_size = 0;
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  MPI_Type_size(type, &type_size);
  MPI_Type_get_extent(type, &lower_bound, &extent);
  if (lower_bound != 0 || extent != type_size || count < 0) {
    return __real_MPI_Exscan(send, receive, count, type, op, comm);
  }
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(type_size);
  std::vector<char> values(bytes * static_cast<std::size_t>(size));
  int code = MPI_Allgather(send, count, type, values.data(), count, type, comm);
  if (code != MPI_SUCCESS || rank == 0) {
    return code;  // rank 0's result is undefined
  }
  std::copy_n(values.data() + bytes * static_cast<std::size_t>(rank - 1), bytes, static_cast<char*>(receive));
  for (int lower = rank - 2; lower >= 0 && code == MPI_SUCCESS; --lower) {
    code = MPI_Reduce_local(values.data() + bytes * static_cast<std::size_t>(lower), receive, count, type, op);
  }
  return code;
}

namespace dash::sim {

void fold_allocations_from(std::size_t bytes) { fold_bytes = bytes; }
std::size_t fold_threshold() { return fold_bytes; }

UnfoldedAllocations::UnfoldedAllocations() noexcept : folded_from_(fold_bytes) { fold_bytes = 0; }
UnfoldedAllocations::~UnfoldedAllocations() { fold_bytes = folded_from_; }

void mark_rank_finished() { rank_finished = true; }

void poll_with_cost(double seconds) { poll_seconds = seconds; }

int test_with_cost(MPI_Request* request, int* done) {
  const int code = MPI_Test(request, done, MPI_STATUS_IGNORE);
  if (poll_seconds > 0) {
    account_test(code == MPI_SUCCESS && *done == 0);
  }
  return code;
}

void charge(double seconds) {
  smpi_execute(seconds);
  idle_poll_seconds = 0;
}

bool correct_everywhere(MPI_Comm comm, bool correct) {
  int everywhere = correct ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  return everywhere == 1;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> parts;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    parts.emplace_back(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return parts;
}

std::size_t parse_count(const std::string& text, std::string_view option, std::string_view tool) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    throw dash::InvalidArgument(std::string(tool) + ": " + std::string(option) + " takes a non-negative integer, not '" +
                                text + "'");
  }
  return std::stoull(text);
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(std::max(length, 0)));
  return version.substr(0, version.find_last_not_of("\n\r ") + 1);
}

}  // namespace dash::sim
