// A distributed fold combines the units' partial results with op(init's type, init's type): an op
// that takes (accumulator, element) only is refused with a message that says why.
#include <cstddef>
#include <cstdint>

#include <dash/algorithms/accumulate.hpp>
#include <dash/containers/array.hpp>

// One element converts to a histogram: only op(Histogram, Histogram) is missing.
struct Histogram {
  Histogram() = default;
  explicit Histogram(std::int32_t x) : small(x < 100 ? 1 : 0), large(x < 100 ? 0 : 1) {}
  std::size_t small = 0;
  std::size_t large = 0;
};

Histogram classify(const dash::Array<std::int32_t>& values) {
  return dash::accumulate(values.begin(), values.end(), Histogram{}, [](Histogram h, std::int32_t x) {
    (x < 100 ? h.small : h.large) += 1;
    return h;
  });
}
