// compare_exchange compares bit patterns MPI_Compare_and_swap can hold: at most 8 bytes.
#include <dash/core/atomic.hpp>

bool swap_if_zero(dash::GlobRef<dash::Atomic<long double>> counter) {
  long double expected = 0;
  return counter.compare_exchange(expected, 1);
}
