// dash::Atomic needs a type that MPI's RMA atomics can operate on.
#include <dash/core/atomic.hpp>

struct Pair {
  int a;
  int b;
};

dash::Atomic<Pair> pair_counter;
