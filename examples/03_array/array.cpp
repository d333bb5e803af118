// 03_array: a distributed array, its local part, global references, atomics and algorithms.
//
//   mpirun -n 4 ./array
//
// Every unit fills its own part of a BLOCKCYCLIC array, the units then sum the array with
// dash::accumulate (owner-computes plus one allreduce), find its largest element, count a shared
// atomic counter up together and read a neighbour's element through a global reference.

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
    std::printf("sum %ld, largest %ld at index %zu, counter %ld (expected %zu)\n", sum, largest_value, largest.pos(),
                counter[0].load(), 10 * units);
  }
  std::printf("unit %d: %zu local elements, the right neighbour's first element is %ld\n", me, values.local.size(),
              neighbours);
  values.barrier();
  return 0;
}
