// The sort suite: dash::sort on a dash::Array against a plain-MPI sample sort, against itself
// without the partial merge and with the spreadsort local kernel, and against std::sort, pdqsort
// and (in builds with Highway's vqsort) vqsort of all elements on one process (docs/benchmarks.md).
// dash::sort's own local sort is vqsort in such builds, so the vqsort one-process case is the
// comparison with the best local kernel. The inputs follow Kowalewski 2021 §7.4.2
// (uniform doubles in [-1e6, 1e6)) and add uniform 64-bit keys, Zipf-distributed keys (many
// duplicates, skewed values) and keys that are all equal. uint32 keys in [0, 2^21) (NPB IS's range
// for class B) and the uniform doubles are also sorted with SortOptions::path = comparison: what the
// counting path gains where the automatic rule takes it, and that it leaves doubles alone.
//
// Map: the inputs (ZipfKeys and the generators), the output check (Fingerprint,
// globally_sorted_permutation), the contenders, SortWorkload, and the cases (key_kinds x contenders).
//
// Element i of an input is a function of i alone, so every rank generates its own part (and rank
// 0 the whole input for the one-process baselines) without communication. Each run sorts in
// place, so prepare() copies the input back before every run, outside the timing.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/sort/pdqsort/pdqsort.hpp>
#include <mpi.h>

#include <dash/algorithms/sort.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/containers/array.hpp>
#include <dash/core/detail/vqsort.hpp>
#include <dash/core/team.hpp>

#include "baselines/sample_sort_mpi.hpp"
#include "runner/registry.hpp"

namespace dash::bench::sort {

namespace {

// SplitMix64's output function: a bijective mix of a 64-bit counter.
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

// A uniform double in [0, 1) from the top 53 bits.
double unit_interval(std::uint64_t bits) noexcept { return static_cast<double>(bits >> 11U) * 0x1.0p-53; }

// Zipf's law over the keys 1 .. key_count with exponent s: P(k) proportional to k^-s. Sampled by
// rejection-inversion (Hörmann & Derflinger 1996), which needs O(1) expected time per key and no
// table. H is an antiderivative of h(x) = x^-s; a uniform point of H's range, mapped back through
// H^-1 and rounded, is accepted when it lands under the histogram of h.
class ZipfKeys {
public:
  ZipfKeys(std::uint64_t key_count, double exponent)
      : key_count_(key_count),
        exponent_(exponent),
        h_integral_first_(h_integral(1.5) - 1.0),
        h_integral_last_(h_integral(static_cast<double>(key_count) + 0.5)),
        squeeze_(2.0 - h_integral_inverse(h_integral(2.5) - h(2.0))) {}

  // The key for element `index`: a deterministic function of the index.
  std::uint64_t key(std::uint64_t index) const noexcept {
    std::uint64_t state = mix(index ^ 0x5a17f00dULL);
    while (true) {
      state = mix(state);
      const double u = h_integral_last_ + unit_interval(state) * (h_integral_first_ - h_integral_last_);
      const double x = h_integral_inverse(u);
      const auto k = static_cast<std::uint64_t>(std::clamp(x + 0.5, 1.0, static_cast<double>(key_count_)));
      const double kd = static_cast<double>(k);
      if (kd - x <= squeeze_ || u >= h_integral(kd + 0.5) - h(kd)) {
        return k;
      }
    }
  }

private:
  double h(double x) const noexcept { return std::exp(-exponent_ * std::log(x)); }
  // (x^(1-s) - 1) / (1 - s), or log x for s = 1, computed without cancellation near s = 1.
  double h_integral(double x) const noexcept {
    const double log_x = std::log(x);
    return expm1_ratio((1.0 - exponent_) * log_x) * log_x;
  }
  double h_integral_inverse(double y) const noexcept {
    const double t = std::max(-1.0, y * (1.0 - exponent_));
    return std::exp(log1p_ratio(t) * y);
  }
  // expm1(t) / t and log1p(t) / t, with their limit 1 at t = 0.
  static double expm1_ratio(double t) noexcept { return std::abs(t) > 1e-8 ? std::expm1(t) / t : 1.0 + t / 2.0; }
  static double log1p_ratio(double t) noexcept { return std::abs(t) > 1e-8 ? std::log1p(t) / t : 1.0 - t / 2.0; }

  std::uint64_t key_count_;
  double exponent_;
  double h_integral_first_;
  double h_integral_last_;
  double squeeze_;
};

// Zipf's classic exponent over 2^20 keys: key 1 is about 7 % of the input, key 1000 about 0.007 %.
const ZipfKeys zipf(std::uint64_t{1} << 20U, 1.0);
constexpr std::uint64_t equal_key = 42;

// The inputs: out[i] is element first_index + i of the input.
template <class T>
using Generator = void (*)(std::uint64_t first_index, std::span<T> out);

void uniform_doubles(std::uint64_t first_index, std::span<double> out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = -1e6 + 2e6 * unit_interval(mix(first_index + i));
  }
}

void uniform_keys(std::uint64_t first_index, std::span<std::uint64_t> out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = mix(first_index + i);
  }
}

void zipf_keys(std::uint64_t first_index, std::span<std::uint64_t> out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = zipf.key(first_index + i);
  }
}

void equal_keys(std::uint64_t, std::span<std::uint64_t> out) { std::fill(out.begin(), out.end(), equal_key); }

void narrow_keys(std::uint64_t first_index, std::span<std::uint32_t> out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint32_t>(mix(first_index + i) >> 43U);  // the top 21 bits
  }
}

// The multiset of a sequence, up to hash collisions: its length and the wrapping sum of its
// elements' mixed bits. Equal for a sequence and any permutation of it.
struct Fingerprint {
  std::uint64_t count = 0;
  std::uint64_t hash_sum = 0;
};

template <class T>
Fingerprint fingerprint(std::span<const T> elements) {
  Fingerprint result{elements.size(), 0};
  for (const T& element : elements) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &element, sizeof(T));
    result.hash_sum += mix(bits);
  }
  return result;
}

// Collective over `team`: the sum of every rank's `part` fingerprint.
Fingerprint team_sum(Fingerprint part, MPI_Comm team) {
  std::uint64_t values[2] = {part.count, part.hash_sum};
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, 2, MPI_UINT64_T, MPI_SUM, team),
                  "dash-bench sort: MPI_Allreduce");
  return Fingerprint{values[0], values[1]};
}

// Collective over `team`: true on every rank when the ranks' parts, in rank order, are sorted and
// together a permutation of the input with fingerprint `input`.
template <class T>
bool globally_sorted_permutation(std::span<const T> part, MPI_Comm team, Fingerprint input) {
  struct Edge {
    std::uint64_t count;
    T first;
    T last;
  };
  const Edge mine{part.size(), part.empty() ? T{} : part.front(), part.empty() ? T{} : part.back()};
  int ranks = 0;
  comm::check_mpi(MPI_Comm_size(team, &ranks), "dash-bench sort: MPI_Comm_size");
  std::vector<Edge> edges(static_cast<std::size_t>(ranks));
  constexpr int edge_bytes = static_cast<int>(sizeof(Edge));
  comm::check_mpi(MPI_Allgather(&mine, edge_bytes, MPI_BYTE, edges.data(), edge_bytes, MPI_BYTE, team),
                  "dash-bench sort: MPI_Allgather");
  bool ordered = true;
  const Edge* previous = nullptr;
  for (const Edge& edge : edges) {
    if (edge.count != 0) {
      ordered = ordered && (previous == nullptr || !(edge.first < previous->last));
      previous = &edge;
    }
  }
  int locally_sorted = std::is_sorted(part.begin(), part.end()) ? 1 : 0;
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &locally_sorted, 1, MPI_INT, MPI_MIN, team),
                  "dash-bench sort: MPI_Allreduce");
  const Fingerprint output = team_sum(fingerprint(part), team);
  return ordered && locally_sorted == 1 && output.count == input.count && output.hash_sum == input.hash_sum;
}

// What dash::sort is compared against in a case.
enum class Contender {
  mpi_sample_sort,
  no_partial_merge,
  spreadsort_kernel,
  comparison_path,
  std_sort_one_process,
  pdqsort_one_process,
  vqsort_one_process
};

// The contenders that are dash::sort itself with other options: they sort the same array.
bool sorts_the_array(Contender contender) {
  return contender == Contender::no_partial_merge || contender == Contender::spreadsort_kernel ||
         contender == Contender::comparison_path;
}

bool on_one_process(Contender contender) {
  return contender == Contender::std_sort_one_process || contender == Contender::pdqsort_one_process ||
         contender == Contender::vqsort_one_process;
}

// The phases of one run as the extra metrics report them (Kowalewski 2021 Fig. 7.6).
struct PhaseTimes {
  double local_sort = 0;
  double splitters = 0;
  double exchange = 0;
  double merge = 0;
  double splitter_rounds = 0;
};

template <class T>
class SortWorkload final : public Workload {
public:
  SortWorkload(const Problem& problem, Generator<T> generate, Contender contender)
      : team_(problem.team),
        contender_(contender),
        total_(problem.size),
        array_(problem.size),
        first_index_(array_.lsize() == 0
                         ? problem.size
                         : array_.pattern().global_index(static_cast<std::size_t>(array_.team().myid()), 0)),
        input_(array_.lsize()) {
    comm::check_mpi(MPI_Comm_rank(team_, &rank_), "dash-bench sort: MPI_Comm_rank");
    comm::check_mpi(MPI_Comm_size(team_, &ranks_), "dash-bench sort: MPI_Comm_size");
    generate(first_index_, std::span<T>(input_));
    input_fingerprint_ = team_sum(fingerprint(std::span<const T>(input_)), team_);
    if (on_one_process(contender_) && rank_ == 0) {
      whole_input_.resize(total_);
      generate(0, std::span<T>(whole_input_));
      whole_.resize(total_);
    }
  }

  void run_impl() override {
    sort_array(SortOptions{}, impl_phases_);
    last_side_ = Side::impl;
  }

  void run_baseline() override {
    switch (contender_) {
      case Contender::mpi_sample_sort: {
        SampleSortPhases phases;
        mpi_part_ = sample_sort_mpi(std::span<T>(mpi_input_), team_, &phases);
        // One round of splitter selection: the allgather of the samples.
        baseline_phases_ = PhaseTimes{phases.local_sort, phases.splitters, phases.exchange, phases.merge, 1.0};
        break;
      }
      case Contender::no_partial_merge: {
        SortOptions options;
        options.partial_merge = false;
        sort_array(options, baseline_phases_);
        break;
      }
      case Contender::spreadsort_kernel: {
        SortOptions options;
        options.kernel = SortKernel::spreadsort;
        sort_array(options, baseline_phases_);
        break;
      }
      case Contender::comparison_path: {
        SortOptions options;
        options.path = SortPath::comparison;
        sort_array(options, baseline_phases_);
        break;
      }
      case Contender::std_sort_one_process:
        sort_on_rank_zero([](std::vector<T>& whole) { std::sort(whole.begin(), whole.end()); });
        break;
      case Contender::pdqsort_one_process:
        sort_on_rank_zero([](std::vector<T>& whole) { boost::sort::pdqsort(whole.begin(), whole.end()); });
        break;
      case Contender::vqsort_one_process:
        if constexpr (detail::vqsort_key<T>) {  // not offered for other keys
          sort_on_rank_zero([](std::vector<T>& whole) { detail::vqsort(std::span<T>(whole)); });
        }
        break;
    }
    last_side_ = Side::baseline;
  }

  void prepare(Side side) override {
    if (side == Side::impl || sorts_the_array(contender_)) {
      std::copy(input_.begin(), input_.end(), array_.local.begin());
    } else if (contender_ == Contender::mpi_sample_sort) {
      mpi_input_ = input_;
    } else if (rank_ == 0) {
      std::copy(whole_input_.begin(), whole_input_.end(), whole_.begin());
    }
  }

  // prepare() restores the inputs; this spoils every output, so that only a run can make it right.
  void reset() override {
    std::fill(array_.local.begin(), array_.local.end(), garbage());
    mpi_part_.assign(mpi_part_.size(), garbage());
    std::fill(whole_.begin(), whole_.end(), garbage());
  }

  // Collective: the output of the last run is sorted across the ranks and a permutation of the input.
  bool verify() const override {
    return globally_sorted_permutation(output_part(last_side_), team_, input_fingerprint_);
  }

  // Collective: each phase's time on the slowest rank, the splitter rounds, and the largest part
  // of the output over the mean part (the one-process baselines have one part).
  std::vector<double> extra_metrics(Side side) override {
    const PhaseTimes& phases = side == Side::impl ? impl_phases_ : baseline_phases_;
    double slowest[4] = {phases.local_sort, phases.splitters, phases.exchange, phases.merge};
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, slowest, 4, MPI_DOUBLE, MPI_MAX, team_),
                    "dash-bench sort: MPI_Allreduce");
    double imbalance = 1.0;
    if (side == Side::impl || !on_one_process(contender_)) {
      std::uint64_t largest = output_part(side).size();
      comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, team_),
                      "dash-bench sort: MPI_Allreduce");
      imbalance = static_cast<double>(largest) * static_cast<double>(ranks_) / static_cast<double>(total_);
    }
    return {slowest[0], slowest[1], slowest[2], slowest[3], phases.splitter_rounds, imbalance};
  }

private:
  static T garbage() {
    if constexpr (std::is_floating_point_v<T>) {
      return std::numeric_limits<T>::quiet_NaN();
    } else {
      return std::numeric_limits<T>::max() - 1;
    }
  }

  // This rank's part of what `side` sorted.
  std::span<const T> output_part(Side side) const {
    if (side == Side::impl || sorts_the_array(contender_)) {
      return {array_.local.begin(), array_.lsize()};
    }
    if (contender_ == Contender::mpi_sample_sort) {
      return mpi_part_;
    }
    return whole_;
  }

  void sort_array(SortOptions options, PhaseTimes& phases) {
    SortPhases dash_phases;
    options.phases = &dash_phases;
    dash::sort(array_.begin(), array_.end(), std::ranges::less{}, std::identity{}, options);
    phases = PhaseTimes{dash_phases.local_sort, dash_phases.splitters, dash_phases.exchange, dash_phases.merge,
                        static_cast<double>(dash_phases.splitter_rounds)};
  }

  // All elements on rank 0 while the others wait: one part, all of it the local sort.
  void sort_on_rank_zero(const std::function<void(std::vector<T>&)>& sort_all) {
    const auto start = MPI_Wtime();
    if (rank_ == 0) {
      sort_all(whole_);
    }
    baseline_phases_ = PhaseTimes{MPI_Wtime() - start, 0, 0, 0, 0};
  }

  MPI_Comm team_;
  Contender contender_;
  std::size_t total_;
  int rank_ = 0;
  int ranks_ = 1;
  Array<T> array_;
  std::uint64_t first_index_;
  std::vector<T> input_;  // this rank's part of the input, as dash::Array places it
  Fingerprint input_fingerprint_;
  std::vector<T> mpi_input_;
  std::vector<T> mpi_part_;
  std::vector<T> whole_input_;  // rank 0, one-process cases: the whole input
  std::vector<T> whole_;
  PhaseTimes impl_phases_;
  PhaseTimes baseline_phases_;
  Side last_side_ = Side::impl;
};

// Total elements: 2^20 and 2^22 in the quick sweep; 2^20 .. 2^27 (8 MiB .. 1 GiB) in the full one.
std::vector<std::size_t> total_elements(Sweep sweep) {
  constexpr std::size_t elements_2_20 = std::size_t{1} << 20U;
  if (sweep == Sweep::quick) {
    return {elements_2_20, elements_2_20 << 2U};
  }
  std::vector<std::size_t> sizes;
  for (std::size_t size = elements_2_20; size <= elements_2_20 << 7U; size <<= 1U) {
    sizes.push_back(size);
  }
  return sizes;
}

// The array spans Team::All(), so every rank takes part.
std::vector<int> whole_job(int job_size) { return {job_size}; }

template <class T, Generator<T> generate>
std::unique_ptr<Workload> make_sort_workload(const Problem& problem, Contender contender) {
  return std::make_unique<SortWorkload<T>>(problem, generate, contender);
}

// Which contenders a kind of keys is sorted against.
enum class Against { all, all_and_comparison_path, comparison_path_only };

struct KeysDescription {
  const char* name;
  const char* text;
  std::unique_ptr<Workload> (*make)(const Problem&, Contender);
  Against against;
};

bool offered(const KeysDescription& kind, Contender contender) {
  switch (kind.against) {
    case Against::all:
      return contender != Contender::comparison_path;
    case Against::all_and_comparison_path:
      return true;
    case Against::comparison_path_only:
      return contender == Contender::comparison_path;
  }
  return false;
}

constexpr KeysDescription key_kinds[] = {
    {"uniform_double", "doubles uniform in [-1e6, 1e6)", make_sort_workload<double, uniform_doubles>,
     Against::all_and_comparison_path},
    {"uint64", "uint64 keys uniform over all 2^64 values", make_sort_workload<std::uint64_t, uniform_keys>,
     Against::all},
    {"zipf", "uint64 keys 1 .. 2^20, Zipf s = 1", make_sort_workload<std::uint64_t, zipf_keys>, Against::all},
    {"all_equal", "uint64 keys, all equal", make_sort_workload<std::uint64_t, equal_keys>, Against::all},
    {"uint32_narrow", "uint32 keys uniform in [0, 2^21) (NPB IS class B's range)",
     make_sort_workload<std::uint32_t, narrow_keys>, Against::comparison_path_only},
};

struct ContenderDescription {
  Contender contender;
  const char* suffix;
  const char* text;
};

constexpr ContenderDescription contenders[] = {
    {Contender::mpi_sample_sort, "",
     "plain-MPI sample sort, regular sampling, pdqsort + MPI_Alltoallv + merge (baselines/sample_sort_mpi.cpp)"},
    {Contender::no_partial_merge, "_no_partial_merge", "dash::sort with SortOptions::partial_merge = false"},
    {Contender::spreadsort_kernel, "_spreadsort_kernel",
     "dash::sort with SortOptions::kernel = spreadsort (Boost.Sort's radix sort as the local sort)"},
    {Contender::comparison_path, "_comparison_path",
     "dash::sort with SortOptions::path = comparison (the exact-splitter search; no counting path)"},
    {Contender::std_sort_one_process, "_std_sort_one_process", "std::sort of all elements on rank 0 alone"},
    {Contender::pdqsort_one_process, "_pdqsort_one_process", "boost::sort::pdqsort of all elements on rank 0 alone"},
    {Contender::vqsort_one_process, "_vqsort_one_process",
     "Highway's vqsort (dash::detail::vqsort, dash's local kernel) of all elements on rank 0 alone"},
};

std::vector<Case> sort_cases() {
  std::vector<Case> cases;
  for (const KeysDescription& kind : key_kinds) {
    for (const ContenderDescription& against : contenders) {
      // Only builds with Highway's vqsort can run it.
      if ((against.contender == Contender::vqsort_one_process && !detail::vqsort_built()) ||
          !offered(kind, against.contender)) {
        continue;
      }
      const auto make = kind.make;
      const Contender contender = against.contender;
      cases.push_back(Case{
          .suite = "sort",
          .name = std::string(kind.name) + against.suffix,
          .impl = std::string("dash::sort of a dash::Array, ") + kind.text,
          .baseline = against.text,
          .size_unit = "elements in total (all ranks)",
          .sizes = total_elements,
          .active_rank_counts = whole_job,
          .rate = Rate{"Melem/s", [](std::size_t elements, int) { return static_cast<double>(elements) / 1e6; }},
          .make_workload = [make, contender](const Problem& problem) { return make(problem, contender); },
          .calls_per_run = nullptr,
          .extra_metrics = {ExtraMetric{"local_sort", "s"}, ExtraMetric{"splitters", "s"},
                            ExtraMetric{"exchange", "s"}, ExtraMetric{"merge", "s"},
                            ExtraMetric{"splitter_rounds", ""}, ExtraMetric{"imbalance", ""}},
      });
    }
  }
  return cases;
}

[[maybe_unused]] const bool sort_cases_registered = [] {
  for (Case& bench_case : sort_cases()) {
    const CaseRegistration registration{std::move(bench_case)};
  }
  return true;
}();

}  // namespace

}  // namespace dash::bench::sort
