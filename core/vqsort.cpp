#include <dash/core/detail/vqsort.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include <dash/comm/exception.hpp>

#if DASH_HAVE_VQSORT
#include <hwy/contrib/sort/vqsort.h>
#endif

namespace dash::detail {

namespace {

#if DASH_HAVE_VQSORT
template <class T>
void sort_ascending(T* keys, std::size_t count) {
  // One sorter per thread: it owns scratch memory that later sorts reuse, and is not meant to be
  // used by two threads at the same time.
  thread_local const hwy::Sorter sorter;
  sorter(keys, count, hwy::SortAscending{});
}

constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63U;

// A double's bits as an unsigned key in the same order (negative values reversed, -0.0 just below 0.0),
// and back.
std::uint64_t order_key(std::uint64_t bits) noexcept {
  return bits ^ (static_cast<std::uint64_t>(static_cast<std::int64_t>(bits) >> 63U) | sign_bit);
}
std::uint64_t from_order_key(std::uint64_t key) noexcept {
  return key ^ (static_cast<std::uint64_t>(static_cast<std::int64_t>(~key) >> 63U) | sign_bit);
}

template <std::uint64_t (*map)(std::uint64_t) noexcept>
void map_bits(std::span<double> keys) {
  for (double& key : keys) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &key, sizeof bits);
    bits = map(bits);
    std::memcpy(&key, &bits, sizeof bits);
  }
}

// vqsort compares doubles with vector min and max, which do not keep the bits of equivalent keys
// (0.0 can come out as -0.0), and Highway 1.0.3 turns +inf into the largest finite double in small
// arrays (google/highway issue 1486). A sort must permute its input, so doubles are sorted as the
// integer keys of their bits: two passes over the data, about a tenth of the sort's time.
void sort_doubles(std::span<double> keys) {
  map_bits<order_key>(keys);
  // The sorter runs in Highway's library, which sees only the bytes of the keys.
  sort_ascending(reinterpret_cast<std::uint64_t*>(keys.data()), keys.size());
  map_bits<from_order_key>(keys);
}
#else
[[noreturn]] void missing() {
  throw invalid_argument("dash::detail::vqsort", "kernel", "vqsort", vqsort_missing);
}
#endif

}  // namespace

bool vqsort_built() noexcept { return DASH_HAVE_VQSORT != 0; }

#if DASH_HAVE_VQSORT
void vqsort(std::span<std::int16_t> keys) { sort_ascending(keys.data(), keys.size()); }
void vqsort(std::span<std::uint16_t> keys) { sort_ascending(keys.data(), keys.size()); }
void vqsort(std::span<std::int64_t> keys) { sort_ascending(keys.data(), keys.size()); }
void vqsort(std::span<std::uint64_t> keys) { sort_ascending(keys.data(), keys.size()); }
void vqsort(std::span<double> keys) { sort_doubles(keys); }
#else
void vqsort(std::span<std::int16_t>) { missing(); }
void vqsort(std::span<std::uint16_t>) { missing(); }
void vqsort(std::span<std::int64_t>) { missing(); }
void vqsort(std::span<std::uint64_t>) { missing(); }
void vqsort(std::span<double>) { missing(); }
#endif

}  // namespace dash::detail
