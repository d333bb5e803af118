// 03_array: a distributed array, its local part, global references, atomics and algorithms.
//
//   mpirun -n 4 ./array
//
// Every unit fills its own part of a BLOCKCYCLIC array, the units then sum the array with
// dash::accumulate (owner-computes plus one allreduce), find its largest element, count flags in a
// byte array into a 64-bit sum (folds accumulate in init's type, as in the STL), count a shared
// atomic counter up together and read a neighbour's element through a global reference.

#include <cstdint>
#include <cstdio>

#include <dash/dash.hpp>

int main(int argc, char** argv) {
  dash::Environment environment(argc, argv);
  const int me = dash::myid();
  const auto units = dash::size();

  constexpr std::size_t n = 1000;
  dash::Array<long> values(n, dash::BLOCKCYCLIC(16));
  // Each unit writes only its own elements: plain memory, no communication.
  for (std::size_t i = 0; i < values.local.size(); ++i) {
    const std::size_t global = values.pattern().global_index(static_cast<std::size_t>(me), i);
    values.local[i] = static_cast<long>(global * global % 997);
  }
  values.barrier();

  const long sum = dash::accumulate(values.begin(), values.end(), 0L);
  const auto largest = dash::max_element(values.begin(), values.end());
  const long largest_value = *largest;

  // One flag byte per element (is it odd?), set from the global index, whoever owns the element.
  // Counted into a std::uint64_t, as std::accumulate would: a std::uint8_t init would wrap at 256.
  dash::Array<std::uint8_t> odd(n, dash::BLOCKCYCLIC(16));
  dash::generate_with_index(odd.begin(), odd.end(), [](std::size_t g) { return std::uint8_t(g * g % 997 % 2); });
  const std::uint64_t odd_count = dash::accumulate(odd.begin(), odd.end(), std::uint64_t{0});
  std::uint64_t odd_expected = 0;
  for (std::size_t g = 0; g < n; ++g) {
    odd_expected += g * g % 997 % 2;
  }

  dash::Array<dash::Atomic<long>> counter(1);
  if (me == 0) {
    counter[0].store(0);
  }
  counter.barrier();
  for (int round = 0; round < 10; ++round) {
    counter[0].fetch_add(1);
  }
  counter.barrier();

  // A neighbour's first element, through a global reference (one-sided).
  const std::size_t right = (static_cast<std::size_t>(me) + 1) % units;
  const long neighbours = values[values.pattern().global_index(right, 0)];

  if (me == 0) {
    std::printf("sum %ld, largest %ld at index %zu, %llu odd (expected %llu), counter %ld (expected %zu)\n", sum,
                largest_value, largest.pos(), static_cast<unsigned long long>(odd_count),
                static_cast<unsigned long long>(odd_expected), counter[0].load(), 10 * units);
  }
  std::printf("unit %d: %zu local elements, the right neighbour's first element is %ld\n", me, values.local.size(),
              neighbours);
  values.barrier();
  return 0;
}
